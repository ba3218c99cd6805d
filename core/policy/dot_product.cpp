// DotProduct (Tetris): alignment of the node's free vector and the request over (cpu, gpu), both
// divided by maxSpec, score = int(100 * (1 - dot / 2)), no normalisation. As the FGD authors ran
// it (dot_product_score.go with dimExtMethod "merge", normMethod "max", gpuSelMethod "best"): the
// GPU dimension is the node's total free gpu-milli against the request's total, for a GPU share
// too, and the GPU inside the node is chosen by best fit (tightest free share), not by the score.

#include "policy_factories.h"

namespace schedlab::policy {
namespace {
class DotProduct final : public ScoringPolicy {
public:
    std::string name() const override { return "dotproduct"; }
    void resetPolicy(const PolicyContext&, const cluster::ClusterState& cluster) override { m_spec = MaxSpec::of(cluster); }

protected:
    bool normalise() const override { return false; }
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        const double cpu = double(c.freeCpu(n)) / m_spec.cpu * double(r.cpuMilli) / m_spec.cpu;
        const double gpu = double(c.freeGpuMilli(n)) / m_spec.gpu * double(r.totalGpuMilli()) / m_spec.gpu;
        return int64_t(100.0 * (1.0 - (cpu + gpu) / 2.0));
    }

private:
    MaxSpec m_spec;
};
} // namespace
std::unique_ptr<PlacementPolicy> makeDotProduct() { return std::make_unique<DotProduct>(); }
} // namespace schedlab::policy
