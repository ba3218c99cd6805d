#include "policy_factories.h"

#include <algorithm>

namespace schedlab::policy {

MaxSpec MaxSpec::of(const sim::ClusterState& cluster)
{
    MaxSpec m;
    for (int n = 0; n < cluster.nodeCount(); ++n) {
        m.cpu = std::max(m.cpu, double(cluster.capCpu(n)));
        m.gpu = std::max(m.gpu, double(cluster.numGpu(n)) * sim::kGpuMilli);
    }
    return m;
}

std::vector<PolicyInfo> placementPolicies()
{
    return {
        { "firstfit", "lowest-numbered feasible node", "placement" },
        { "random", "uniformly random feasible node (seeded); random fitting GPU", "placement" },
        { "bestfit", "FGD's BestFit: least weighted free cpu+gpu left after placing (0.5/0.5)", "placement" },
        { "worstfit", "spread: most weighted free cpu+gpu left after placing", "placement" },
        { "mostallocated", "Kubernetes MostAllocated over cpu and memory", "placement" },
        { "k8s-default", "Kubernetes LeastAllocated + BalancedAllocation, every node scored", "placement" },
        { "k8s-sampling", "k8s-default with kube-scheduler's node sampling (>= 100 nodes)", "placement" },
        { "dotproduct", "Tetris alignment of free and requested (cpu, gpu)", "placement" },
        { "gpupacking", "prefer a partly used GPU, then a free GPU on a used node, then an idle node", "placement" },
        { "gpuclustering", "prefer nodes already hosting the same GPU request class", "placement" },
        { "fgd", "Fragmentation Gradient Descent (ATC'23): least growth of GPU fragmentation", "placement" },
        { "logged", "the node the trace recorded (replay as logged)", "placement" },
    };
}

std::unique_ptr<PlacementPolicy> makePlacementPolicy(const std::string& name)
{
    if (name == "firstfit")
        return makeFirstFit();
    if (name == "random")
        return makeRandomFit();
    if (name == "bestfit")
        return makeBestFit();
    if (name == "worstfit")
        return makeWorstFit();
    if (name == "mostallocated")
        return makeMostAllocated();
    if (name == "k8s-default")
        return makeKubernetesDefault(false);
    if (name == "k8s-sampling")
        return makeKubernetesDefault(true);
    if (name == "dotproduct")
        return makeDotProduct();
    if (name == "gpupacking")
        return makeGpuPacking();
    if (name == "gpuclustering")
        return makeGpuClustering();
    if (name == "fgd")
        return makeFgd();
    if (name == "logged")
        return makeLogged();
    return nullptr;
}

} // namespace schedlab::policy
