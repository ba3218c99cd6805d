// Random: a uniformly random feasible node (all scores equal, so the seeded tie-break decides) and a
// uniformly random fitting GPU inside it for a GPU share.

#include "policy_factories.h"

#include <bit>

namespace schedlab::policy {
namespace {
class RandomFit final : public ScoringPolicy {
public:
    std::string name() const override { return "random"; }
    // Random is its tie-break: every feasible node scores the same, so the choice must stay random
    // whatever tie-break rule the run asks for.
    PlacementDecision place(const cluster::ClusterState& c, const PlacementRequest& req, Rng& rng, int topK) override
    {
        m_tieBreak = TieBreak::Random;
        return ScoringPolicy::place(c, req, rng, topK);
    }

protected:
    bool cacheable() const override { return false; } // draws a random GPU on every call
    bool scoresCandidates() const override { return false; }
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng& rng, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        if (r.isGpuShare()) {
            uint64_t fitting = 0;
            for (int g = 0; g < c.numGpu(n); ++g)
                if (c.gpuFree(n, g) >= r.gpuMilli)
                    fitting |= uint64_t(1) << g;
            // k-th set bit, k uniform
            uint64_t k = rng.below(uint64_t(std::popcount(fitting)));
            while (k--)
                fitting &= fitting - 1;
            mask = fitting & (~fitting + 1);
        }
        return 0;
    }
};
} // namespace
std::unique_ptr<PlacementPolicy> makeRandomFit() { return std::make_unique<RandomFit>(); }
} // namespace schedlab::policy
