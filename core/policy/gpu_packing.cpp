// GpuPacking (the FGD authors' baseline): from best to worst
//   1. only partly used GPUs are needed: 100 - (sum of their free share in %) / 10, at least 50
//   2. some fully free GPUs on a used node: 50 - (fully free GPUs used), at least 33
//   3. an idle node: 33 - (its free GPUs), at least its free GPUs
// GPUs are taken least-free first. CPU-only tasks score 0 everywhere (random tie-break).

#include "policy_factories.h"

#include <algorithm>
#include <array>

namespace schedlab::policy {
namespace {
class GpuPacking final : public ScoringPolicy {
public:
    std::string name() const override { return "gpupacking"; }

protected:
    bool normalise() const override { return false; }
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        if (!r.needsGpu())
            return 0;
        const int gpus = c.numGpu(n);
        const int fullyFree = c.fullyFreeGpus(n);
        if (fullyFree == gpus) // idle node
            return std::max<int64_t>(33 - fullyFree, fullyFree);
        std::array<int, cluster::kMaxGpusPerNode> order {};
        for (int g = 0; g < gpus; ++g)
            order[std::size_t(g)] = g;
        std::stable_sort(order.begin(), order.begin() + gpus,
            [&](int a, int b) { return c.gpuFree(n, a) < c.gpuFree(n, b); });
        const int32_t perGpu = r.isGpuShare() ? r.gpuMilli : cluster::kGpuMilli;
        int need = r.numGpu, fullyFreeUsed = 0;
        int64_t freePctOnUsed = 0;
        uint64_t use = 0;
        for (int i = 0; i < gpus && need > 0; ++i) {
            const int g = order[std::size_t(i)];
            const int32_t left = c.gpuFree(n, g);
            if (perGpu <= left) {
                --need;
                use |= uint64_t(1) << g;
                fullyFreeUsed += left == cluster::kGpuMilli;
                freePctOnUsed += int64_t(left) * 100 / cluster::kGpuMilli;
            }
        }
        mask = use;
        if (fullyFreeUsed > 0)
            return std::max<int64_t>(50 - fullyFreeUsed, 33);
        return std::max<int64_t>(100 - freePctOnUsed / 10, 50);
    }
};
} // namespace
std::unique_ptr<PlacementPolicy> makeGpuPacking() { return std::make_unique<GpuPacking>(); }
} // namespace schedlab::policy
