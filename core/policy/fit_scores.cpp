// BestFit (FGD's variant, docs/policies.md §3) and WorstFit. With free and request summed over the node's
// GPUs: fit = sum_r w_r (free_r - req_r) / maxSpec_r over cpu and gpu, weights 0.5/0.5.
// BestFit raw score = int((1 - fit) * 100), min-max normalised; WorstFit raw = int(fit * 100).

#include "policy_factories.h"

namespace schedlab::policy {
namespace {
double fitOf(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, const MaxSpec& spec)
{
    const double cpu = double(c.freeCpu(n) - r.cpuMilli) / spec.cpu;
    const double gpu = double(c.freeGpuMilli(n) - r.totalGpuMilli()) / spec.gpu;
    return 0.5 * cpu + 0.5 * gpu;
}

class BestFit final : public ScoringPolicy {
public:
    explicit BestFit(bool worst)
        : m_worst(worst)
    {
    }
    std::string name() const override { return m_worst ? "worstfit" : "bestfit"; }
    void resetPolicy(const PolicyContext&, const cluster::ClusterState& cluster) override { m_spec = MaxSpec::of(cluster); }

protected:
    bool scoresByShape() const override { return true; } // free cpu and total free gpu-milli
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        const double fit = fitOf(c, n, r, m_spec);
        return int64_t(m_worst ? fit * 100.0 : (1.0 - fit) * 100.0);
    }

private:
    bool m_worst;
    MaxSpec m_spec;
};
} // namespace
std::unique_ptr<PlacementPolicy> makeBestFit() { return std::make_unique<BestFit>(false); }
std::unique_ptr<PlacementPolicy> makeWorstFit() { return std::make_unique<BestFit>(true); }
} // namespace schedlab::policy
