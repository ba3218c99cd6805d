// Logged: the node the trace recorded for the task, if it still fits; otherwise no placement (the
// decision log then shows why). Other policies ignore logged decisions.

#include "policy_factories.h"

namespace schedlab::policy {
namespace {
class Logged final : public PlacementPolicy {
public:
    std::string name() const override { return "logged"; }
    PlacementDecision place(const cluster::ClusterState& c, const PlacementRequest& req, Rng&, int topK) override
    {
        PlacementDecision d;
        if (!req.task || !req.task->logged.node.valid() || req.task->logged.node.value >= c.nodeCount())
            return d;
        const int n = req.task->logged.node.value;
        if (!c.fits(n, req.request))
            return d;
        d.node = n;
        d.gpuMask = c.bestFitGpus(n, req.request);
        d.feasible = 1;
        if (topK > 0)
            d.top.push_back(Candidate { n, 100, 100, d.gpuMask });
        return d;
    }
};
} // namespace
std::unique_ptr<PlacementPolicy> makeLogged() { return std::make_unique<Logged>(); }
} // namespace schedlab::policy
