#pragma once
/// The reward of a run (docs/rl.md §2) as an observer of its decisions: the same for every policy
/// (a heuristic, the learned one, the logged one, an agent outside the process). It measures each
/// decision on the cluster the policy saw (the chosen node's balance, dominant share, idleness and
/// fragmentation delta after placing, the unit's wait) and books computeReward() of it:
///  - a placement: the placement's terms; past the SLA wait, less the SLA multiplier (CMDP);
///  - fill experiment, nothing placed: a failure (success -1), added to the previous decision's
///    reward (nothing was chosen, so the decision that led here pays);
///  - timed replay, nothing placed while the policy had a choice (a wait among feasible nodes, a
///    skip, or keeping a turn it was offered to skip): a wait (success 0, the tail);
///  - timed replay, nothing placed and nothing to choose: no reward (the unit waits for room);
///  - a room offer the policy decided: taken, the placement on the freed node less the room cost
///    and the migrations or evictions multiplier; declined, a wait.
/// Each booked reward becomes the pending transition's reward when training, is summed into the
/// episode's, and goes to the decision log with the decision (room offers are not logged).

#include "constraints.h"
#include "pending_transition.h"
#include "reward.h"

#include "sim/replay_observer.h"

#include <array>
#include <optional>
#include <vector>

namespace schedlab::rl {

class RewardObserver final : public sim::ReplayObserver {
public:
    /// `pending`: training's transition under construction (nullptr = none); not owned.
    explicit RewardObserver(RewardConfig config, PendingTransition* pending = nullptr);
    /// CMDP: the multipliers of the budgets (by ConstraintKind) and the SLA wait (constraints.h).
    void setMultipliers(const std::array<double, kConstraintKinds>& multipliers, double slaS);

    void policyReset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster) override;
    void decided(const sim::DecidedEvent& e) override;
    void roomDecided(const sim::RoomDecidedEvent& e) override;
    void logged(sim::DecisionLog& log, std::size_t index, int attempt) override;

    /// Sum of the rewards since the policy was last reset, and by term.
    const RewardBreakdown& episodeReward() const { return m_sum; }
    const RewardConfig& config() const { return m_config; }

private:
    using Terms = std::array<float, sim::kRewardTerms>;
    /// Whose transition a reward goes to: the decision's own (the one the policy just chose), or,
    /// when nothing was chosen (a failed fill pod), the previous decision's, added to it.
    enum class Charge { ThisDecision, PreviousDecision };
    /// Books a decision's reward less `penalty`: sums, the pending transition, and the reward of
    /// the attempt's decision `attempt` (-1: not logged).
    void book(const RewardBreakdown& r, double penalty, int attempt, Charge charge = Charge::ThisDecision);
    /// The inputs of a placement of `r` on node n of `c` with `gpuMask`.
    RewardInputs placementInputs(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, uint64_t gpuMask) const;
    /// The attempt's decision `attempt` (growing the list); cleared when attempt 0 comes again.
    std::optional<Terms>& slot(int attempt);

    RewardConfig m_config;
    PendingTransition* m_pending;
    std::optional<FeatureExtractor> m_features;
    RewardBreakdown m_sum;
    std::array<double, kConstraintKinds> m_multiplier { 0, 0, 0 };
    double m_slaS = 3600;
    std::vector<std::optional<Terms>> m_attempt; ///< by decision of the current attempt
};

} // namespace schedlab::rl
