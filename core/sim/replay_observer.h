#pragma once
/// What a run tells the code that watches it (docs/model.md §3, "Outputs: observers"). The
/// engines (the fill experiment and the timed replay) only ask the policy, apply its decisions and
/// emit these events; whatever is computed from them and not needed to run is an observer: the
/// reward of the learned scheduler (rl::RewardObserver), the per-node heat (NodeHeatRecorder),
/// the state journal (StateJournal), the state hashes (StateHashRecorder), and any future output.
/// So an output works the same for every policy (a heuristic, the learned one, the logged one, an
/// agent outside the process) and adding one never touches the engine. Only the decision log is
/// written by the engines themselves (Recording::decisions): which decisions it holds (a unit's
/// first wait, once) is part of the replay's semantics.
///
/// Order within a run: started (once, on the empty cluster), then policyReset (at the start, and
/// again when a fork switches policy), then for every decision the engine asks for: decided (or
/// roomDecided), and, when the decision is written to the run's decision log, logged. Every change
/// of the cluster is an allocated, released or undone event, in the order applied; the series
/// samples are sampled events; a run that ends (at its end, or at FillOptions::stopAt) ends with
/// finished (a failed or cancelled run ends without it). Observers are called in the order given,
/// on the engine's thread; they must not change the cluster.
///
/// State positions: the allocated and released events so far less the undone ones are the run's
/// state position; with Recording::journal each logged decision's Decision::statePos is the
/// position of the state it saw, so a journal recording every operation (and dropping an undone
/// one) rebuilds that state as stateAt(statePos).

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

/// The end of a run.
struct FinishedEvent {
    const cluster::ClusterState& cluster; ///< the final cluster (or the one the run stopped at)
    const DecisionLog& decisions; ///< the run's decision log (empty without Recording::decisions)
    /// Fill experiment stopped before this decision (FillOptions::stopAt); -1 = ran to its end.
    int64_t stoppedBefore = -1;
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
    /// The run starts on `cluster` (empty), before the first policyReset.
    virtual void started(const cluster::ClusterState& cluster) { (void)cluster; }
    /// Placement `p` was allocated; `after` is the cluster with it (tentative placements of a
    /// gang or an EASY check included: they are undone or released again).
    virtual void allocated(const cluster::Placement& p, const cluster::ClusterState& after)
    {
        (void)p;
        (void)after;
    }
    /// Placement `p` was released (a finish, an eviction, a move, a rollback a decision refers to).
    virtual void released(const cluster::Placement& p, const cluster::ClusterState& after)
    {
        (void)p;
        (void)after;
    }
    /// The last state operation, allocating `p`, was taken back: a tentative placement rolled back
    /// with no decision pointing into it (nothing happened between the two). `after` = as before it.
    virtual void undone(const cluster::Placement& p, const cluster::ClusterState& after)
    {
        (void)p;
        (void)after;
    }
    /// The run sampled its series at `x` (timed replay: each metrics tick and the end, seconds;
    /// fill experiment: each whole percent of arrived GPU workload reached).
    virtual void sampled(double x, const cluster::ClusterState& cluster)
    {
        (void)x;
        (void)cluster;
    }
    /// The run is over (after its summaries).
    virtual void finished(const FinishedEvent& e) { (void)e; }
};

/// The observers of one run, not owned; called in this order.
using Observers = std::vector<ReplayObserver*>;

} // namespace schedlab::sim
