// FirstFit: the lowest-numbered feasible node (score = -index, so the first feasible node wins).

#include "policy_factories.h"

namespace schedlab::policy {
namespace {
class FirstFit final : public ScoringPolicy {
public:
    std::string name() const override { return "firstfit"; }
    // Without candidates to report, stop at the first feasible node instead of scoring them all.
    PlacementDecision place(const cluster::ClusterState& c, const PlacementRequest& req, Rng& rng, int topK) override
    {
        if (topK > 0)
            return ScoringPolicy::place(c, req, rng, topK);
        PlacementDecision d;
        for (int n = 0; n < c.nodeCount(); ++n)
            if (c.fits(n, req.request)) {
                d.node = n;
                d.gpuMask = c.bestFitGpus(n, req.request);
                d.feasible = 1; // at least; the scan stopped here
                break;
            }
        return d;
    }

    // Without candidates it scans and stops, drawing nothing; with them the normalised scores of
    // ScoringPolicy can tie.
    bool drawsRandomly(int topK) const override { return topK > 0 && ScoringPolicy::drawsRandomly(topK); }

protected:
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        return -int64_t(n);
    }
};
} // namespace
std::unique_ptr<PlacementPolicy> makeFirstFit() { return std::make_unique<FirstFit>(); }
} // namespace schedlab::policy
