#pragma once
/// What a run tells the code that watches it (docs/model.md, "Observers"). The engines (the fill
/// experiment and the timed replay) only ask the policy and apply its decisions; whatever is
/// computed from those decisions and not needed to run (the reward of the learned scheduler, and
/// any future output) is an observer, so it works the same for every policy (a heuristic, the
/// learned one, the logged one, an agent outside the process) and adding one never touches the
/// engine.
///
/// Order within a run: policyReset (at the start, and again when a fork switches policy), then
/// for every decision the engine asks for: decided (or roomDecided), and, when the decision is
/// written to the run's decision log, logged. Observers are called in the order given, on the
/// engine's thread; they must not change the cluster.

#include "decision_log.h"
#include "policy/placement_policy.h"

#include <functional>
#include <vector>

namespace schedlab::sim {

/// One placement decision, before the engine applies it.
struct DecidedEvent {
    const cluster::ClusterState& cluster; ///< as the policy saw it
    const policy::PlacementRequest& request;
    const policy::PlacementDecision& decision;
    /// Which of the unit's tasks it was within the current attempt (0 = its first task; the fill
    /// experiment's pods are always 0).
    int attempt = 0;
};

/// A room offer the policy decided (timed replay with migration or preemption, only for a policy
/// that decidesRoom()): taken (choice >= 0) or declined (-1).
struct RoomDecidedEvent {
    const cluster::ClusterState& cluster; ///< now, before the room is made
    const policy::PlacementRequest& request; ///< of the unit waiting for the room
    const policy::RoomOffer& offer;
    int choice = -1;
    /// The cluster once the room is made with destination i (Preempt: 0), before the waiting unit
    /// starts (as given to PlacementPolicy::decideRoom).
    const std::function<const cluster::ClusterState&(int)>& after;
};

class ReplayObserver {
public:
    virtual ~ReplayObserver() = default;
    /// The run's policy was reset on `cluster` (the run's start; a fork's switch of policy).
    virtual void policyReset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster)
    {
        (void)ctx;
        (void)cluster;
    }
    virtual void decided(const DecidedEvent& e) { (void)e; }
    virtual void roomDecided(const RoomDecidedEvent& e) { (void)e; }
    /// Entry `index` of `log` records decision `attempt` of the last attempt (see DecidedEvent).
    virtual void logged(DecisionLog& log, std::size_t index, int attempt)
    {
        (void)log;
        (void)index;
        (void)attempt;
    }
};

/// The observers of one run, not owned; called in this order.
using Observers = std::vector<ReplayObserver*>;

} // namespace schedlab::sim
