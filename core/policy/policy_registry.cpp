#include "policy_factories.h"

#include <algorithm>

namespace schedlab::policy {

MaxSpec MaxSpec::of(const cluster::ClusterState& cluster)
{
    MaxSpec m;
    for (int n = 0; n < cluster.nodeCount(); ++n) {
        m.cpu = std::max(m.cpu, double(cluster.capCpu(n)));
        m.gpu = std::max(m.gpu, double(cluster.numGpu(n)) * cluster::kGpuMilli);
    }
    return m;
}

namespace {
struct Entry {
    PolicyInfo info;
    std::unique_ptr<PlacementPolicy> (*make)();
};
const std::vector<Entry>& registry()
{
    static const std::vector<Entry> entries = {
        { { "firstfit", "lowest-numbered feasible node", "placement" }, makeFirstFit },
        { { "random", "uniformly random feasible node (seeded); random fitting GPU", "placement" }, makeRandomFit },
        { { "bestfit", "FGD's BestFit: least weighted free cpu+gpu left after placing (0.5/0.5)", "placement" },
            makeBestFit },
        { { "worstfit", "spread: most weighted free cpu+gpu left after placing", "placement" }, makeWorstFit },
        { { "mostallocated", "Kubernetes MostAllocated over cpu and memory", "placement" }, makeMostAllocated },
        { { "k8s-default", "Kubernetes LeastAllocated + BalancedAllocation, every node scored", "placement" },
            [] { return makeKubernetesDefault(false); } },
        { { "k8s-sampling", "k8s-default with kube-scheduler's node sampling (>= 100 nodes)", "placement" },
            [] { return makeKubernetesDefault(true); } },
        { { "dotproduct", "Tetris alignment of free and requested (cpu, gpu)", "placement" }, makeDotProduct },
        { { "gpupacking", "prefer a partly used GPU, then a free GPU on a used node, then an idle node", "placement" },
            makeGpuPacking },
        { { "gpuclustering", "prefer nodes already hosting the same GPU request class", "placement" },
            makeGpuClustering },
        { { "fgd", "Fragmentation Gradient Descent (ATC'23): least growth of GPU fragmentation", "placement" },
            makeFgd },
        { { "logged", "the node the trace recorded (replay as logged)", "placement" }, makeLogged },
    };
    return entries;
}
} // namespace

std::vector<PolicyInfo> placementPolicies()
{
    std::vector<PolicyInfo> out;
    for (const Entry& e : registry())
        out.push_back(e.info);
    return out;
}

std::unique_ptr<PlacementPolicy> makePlacementPolicy(const std::string& name)
{
    for (const Entry& e : registry())
        if (e.info.name == name)
            return e.make();
    return nullptr;
}

} // namespace schedlab::policy
