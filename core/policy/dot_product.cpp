// DotProduct (Tetris): alignment of the node's free vector and the request over (cpu, gpu), both
// divided by maxSpec. As in the FGD authors' simulator, score = int(100 * (1 - dot / 2)) with the
// GPU dimension taken per candidate GPU for a GPU share (the best GPU wins), no normalisation.
// (Their dimension-extension variants are not reproduced; this is the plain two-dimension form.)

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
        const double cpu = double(c.freeCpu(n)) / m_spec.cpu * double(r.cpuMilli) / m_spec.cpu;
        if (!r.isGpuShare()) {
            mask = c.bestFitGpus(n, r);
            const double gpu = double(c.freeGpuMilli(n)) / m_spec.gpu * double(r.totalGpuMilli()) / m_spec.gpu;
            return int64_t(100.0 * (1.0 - (cpu + gpu) / 2.0));
        }
        int64_t best = -1;
        for (int g = 0; g < c.numGpu(n); ++g) {
            if (c.gpuFree(n, g) < r.gpuMilli)
                continue;
            const double gpu = double(c.gpuFree(n, g)) / cluster::kGpuMilli * double(r.gpuMilli) / cluster::kGpuMilli;
            const int64_t s = int64_t(100.0 * (1.0 - (cpu + gpu) / 2.0));
            if (s > best) {
                best = s;
                mask = uint64_t(1) << g;
            }
        }
        return best;
    }

private:
    MaxSpec m_spec;
};
} // namespace
std::unique_ptr<PlacementPolicy> makeDotProduct() { return std::make_unique<DotProduct>(); }
} // namespace schedlab::policy
