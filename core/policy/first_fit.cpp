// FirstFit: the lowest-numbered feasible node (score = -index, so the first feasible node wins).

#include "policy_factories.h"

namespace schedlab::policy {
namespace {
class FirstFit final : public ScoringPolicy {
public:
    std::string name() const override { return "firstfit"; }

protected:
    int64_t rawScore(const sim::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        return -int64_t(n);
    }
};
} // namespace
std::unique_ptr<PlacementPolicy> makeFirstFit() { return std::make_unique<FirstFit>(); }
} // namespace schedlab::policy
