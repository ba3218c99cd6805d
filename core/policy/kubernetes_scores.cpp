// Kubernetes scoring as kube-scheduler computes it (integer arithmetic, docs/policies.md §3):
// - LeastAllocated: per resource (capacity - requested) * 100 / capacity, averaged over cpu and mem
// - BalancedAllocation: (1 - std of the requested fractions) * 100
// - MostAllocated: requested * 100 / capacity, averaged
// "requested" includes the task being placed. k8s-default = LeastAllocated + BalancedAllocation,
// weight 1 each; optional node sampling: with N >= 100 nodes, stop after
// max(100, N * pct / 100) feasible nodes, pct = max(5, 50 - N / 125), starting where the last
// cycle stopped (kube-scheduler's rotating start index).

#include "k8s_scheduler_config.h"
#include "kubernetes_plugins.h"
#include "policy_factories.h"

#include <algorithm>
#include <cmath>

namespace schedlab::policy {
namespace {

int64_t leastRequested(int64_t requested, int64_t capacity)
{
    if (capacity <= 0 || requested > capacity)
        return 0;
    return (capacity - requested) * 100 / capacity;
}
int64_t mostRequested(int64_t requested, int64_t capacity)
{
    if (capacity <= 0)
        return 0;
    return std::min(requested, capacity) * 100 / capacity;
}

} // namespace

KubernetesPluginScores kubernetesPluginScores(const cluster::ClusterState& c, int n, const trace::TaskRequest& r)
{
    KubernetesPluginScores s;
    const int64_t cpuReq = c.capCpu(n) - c.freeCpu(n) + r.cpuMilli;
    const int64_t memReq = c.capMem(n) - c.freeMem(n) + r.memMiB;
    s.mostAllocated = (mostRequested(cpuReq, c.capCpu(n)) + mostRequested(memReq, c.capMem(n))) / 2;
    s.leastAllocated = (leastRequested(cpuReq, c.capCpu(n)) + leastRequested(memReq, c.capMem(n))) / 2;
    const double fc = c.capCpu(n) > 0 ? std::min(1.0, double(cpuReq) / double(c.capCpu(n))) : 0.0;
    const double fm = c.capMem(n) > 0 ? std::min(1.0, double(memReq) / double(c.capMem(n))) : 0.0;
    const double sd = std::abs((fc - fm) / 2); // the standard deviation of two, as kube-scheduler computes it
    s.balancedAllocation = int64_t((1.0 - sd) * 100.0);
    return s;
}

namespace {

class KubernetesScore final : public ScoringPolicy {
public:
    enum class Kind { Default, Sampling, MostAllocated };
    explicit KubernetesScore(Kind kind)
        : m_kind(kind)
    {
    }
    std::string name() const override
    {
        return m_kind == Kind::MostAllocated ? "mostallocated" : m_kind == Kind::Sampling ? "k8s-sampling" : "k8s-default";
    }
    void resetPolicy(const PolicyContext&, const cluster::ClusterState&) override { m_nextStart = 0; }

protected:
    bool normalise() const override { return false; }

    // Sampling moves its start node on every call, failed ones too.
    bool failsOnlyWhenInfeasible() const override { return m_kind != Kind::Sampling; }
    // Capacities and free cpu / memory; sampling looks at nodes by position, so it scans.
    bool scoresByShape() const override { return m_kind != Kind::Sampling; }

    void candidateNodes(const cluster::ClusterState& c, const trace::TaskRequest& r, std::vector<int>& out) override
    {
        const int n = c.nodeCount();
        out.clear();
        if (m_kind != Kind::Sampling || n < 100) {
            for (int i = 0; i < n; ++i)
                out.push_back(i);
            return;
        }
        const int pct = std::max(5, 50 - n / 125);
        const int want = std::max(100, n * pct / 100);
        int found = 0, i = 0;
        for (; i < n && found < want; ++i) {
            const int node = (m_nextStart + i) % n;
            out.push_back(node);
            found += c.fits(node, r);
        }
        m_nextStart = (m_nextStart + i) % n;
    }

    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        const KubernetesPluginScores s = kubernetesPluginScores(c, n, r);
        return m_kind == Kind::MostAllocated ? s.mostAllocated : s.leastAllocated + s.balancedAllocation;
    }

private:
    Kind m_kind;
    int m_nextStart = 0;
};

/// k8s-default under a KubeSchedulerConfiguration (k8s_scheduler_config.h).
class ConfiguredKubernetesScore final : public ScoringPolicy {
public:
    ConfiguredKubernetesScore(std::string name, KubeSchedulerConfig config)
        : m_name(std::move(name))
        , m_config(std::move(config))
    {
    }
    std::string name() const override { return m_name; }
    void resetPolicy(const PolicyContext&, const cluster::ClusterState&) override { m_nextStart = 0; }

protected:
    bool normalise() const override { return false; }
    bool failsOnlyWhenInfeasible() const override { return m_config.percentageOfNodesToScore < 0; }
    // Capacities and free cpu / memory / gpu-milli of the node; with a percentage, by position.
    bool scoresByShape() const override { return m_config.percentageOfNodesToScore < 0; }

    // kube-scheduler's findNodesThatFitPod: from where the last cycle stopped, until enough
    // feasible nodes are found; every node examined moves the next start on.
    void candidateNodes(const cluster::ClusterState& c, const trace::TaskRequest& r, std::vector<int>& out) override
    {
        const int n = c.nodeCount();
        out.clear();
        const int want = feasibleNodesToFind(m_config, n);
        if (m_config.percentageOfNodesToScore < 0) {
            for (int i = 0; i < n; ++i)
                out.push_back(i);
            return;
        }
        int found = 0, i = 0;
        for (; i < n && found < want; ++i) {
            const int node = (m_nextStart + i) % n;
            out.push_back(node);
            found += c.fits(node, r);
        }
        m_nextStart = n > 0 ? (m_nextStart + i) % n : 0;
    }

    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        return kubernetesConfiguredScore(m_config, c, n, r).total;
    }

private:
    std::string m_name;
    KubeSchedulerConfig m_config;
    int m_nextStart = 0;
};
} // namespace

bool acceptsSchedulerConfig(const std::string& policyName) { return policyName == "k8s-default" || policyName == "k8s-sampling"; }

std::unique_ptr<PlacementPolicy> makeConfiguredKubernetes(const std::string& policyName, const KubeSchedulerConfig& config)
{
    if (!acceptsSchedulerConfig(policyName))
        return nullptr;
    return std::make_unique<ConfiguredKubernetesScore>(policyName, config);
}
std::unique_ptr<PlacementPolicy> makeKubernetesDefault(bool sampling)
{
    return std::make_unique<KubernetesScore>(sampling ? KubernetesScore::Kind::Sampling : KubernetesScore::Kind::Default);
}
std::unique_ptr<PlacementPolicy> makeMostAllocated()
{
    return std::make_unique<KubernetesScore>(KubernetesScore::Kind::MostAllocated);
}
} // namespace schedlab::policy
