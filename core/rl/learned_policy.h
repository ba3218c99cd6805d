#pragma once
/// The learned placement policy (docs/rl.md §1): a Scorer gives every candidate node a Q-value from its
/// feature row and the best one wins. It implements the same PlacementPolicy interface as the
/// heuristics, so replays, the decision log and the GUI treat it alike; decision.top holds the
/// candidates' Q-values as scores (raw = the preselection heuristic's score).
///
/// Candidates: every feasible node the heuristic (BestFit by default) scores; above
/// `preselectAbove` feasible nodes only its best `preselectTop`. Infeasible nodes are never
/// candidates (masking), so the agent cannot oversubscribe.
///
/// Training: with a Learner attached, choices are epsilon-greedy and each decision becomes a
/// transition (chosen row, reward, next decision's candidate rows) handed to the learner. The
/// policy only decides: the reward of its choice is the run's RewardObserver's
/// (reward_observer.h), which fills in the pending transition's reward.
/// Not thread-safe; one instance per run.

#include "features.h"
#include "pending_transition.h"
#include "scorer.h"

#include "policy/placement_policy.h"

#include <memory>
#include <optional>
#include <vector>

namespace schedlab::rl {

struct LearnedOptions {
    /// 0 = the model's (QNetwork::preselection, as it was trained), else 500 and 50.
    int preselectAbove = 0;
    int preselectTop = 0;
    std::string heuristic = "bestfit";
    /// Scale of the wait features (s): the p99 target of the reward it is trained for
    /// (RewardConfig::p99TargetS).
    double waitTargetS = 600;
    /// Next-state rows kept per transition (the heuristic's best); bounds replay-buffer memory.
    int maxNextRows = 64;
    /// Timed replays: a "wait" action competes with the nodes (its row has every node feature 0
    /// and heuristic_score -1). After maxConsecutiveWaits waits in a row it is masked out, so a
    /// job that fits is never held forever.
    bool allowWait = false;
    int maxConsecutiveWaits = 8;
    /// Timed replays: the wait action skips instead of holding: the unit that fits stays queued
    /// and the pass goes on to the next one (PlacementDecision::skip), at most
    /// maxConsecutiveWaits units a pass; a unit that fits nowhere may be skipped too (not
    /// made the head). A teacher skips a unit while one behind it requests less time (shortest
    /// job first expressed as skips). Recorded in the
    /// checkpoint (QNetwork::skipWaits), so replays of it skip as it was trained to.
    bool skip = false;
};

/// The default budget of waits (or skips) in a row: a skipping policy passes over at most 16 units
/// a pass, a waiting one holds the head at most 8 decisions. One home for the CLI and the workbench.
inline constexpr int defaultMaxWaits(bool skip) { return skip ? 16 : 8; }

inline constexpr int kDefaultPreselectAbove = 500, kDefaultPreselectTop = 50;
/// `o` with preselectAbove / preselectTop of 0 taken from `model` (when it records them), else the
/// defaults above.
LearnedOptions resolvePreselection(LearnedOptions o, int modelAbove = 0, int modelTop = 0);

/// The wait action's feature row for a decision context (see LearnedOptions::allowWait).
FeatureRow waitRow(const DecisionContext& ctx, double clusterAlloc);

/// heuristic_score (feature 10) of the rows that stand for actions rather than nodes: waiting
/// (-1), making room by a migration (-0.5) or by evictions (-0.75), and, for a skipping policy,
/// keeping the unit's turn (-0.25; against the wait row, which then stands for skipping it).
/// Nodes score >= 0.
inline constexpr float kWaitMarker = -1.0f, kMigrateMarker = -0.5f, kPreemptMarker = -0.75f, kTurnMarker = -0.25f;

/// Receives transitions while training (dqn_trainer.h).
class Learner {
public:
    virtual ~Learner() = default;
    /// `next` holds nextCount rows (0 with done).
    virtual void addTransition(const FeatureRow& chosen, float reward, const FeatureRow* next, int nextCount, bool done) = 0;
    /// Exploration rate for the coming decision.
    virtual double epsilon() const = 0;
};

/// Receives a teacher's choices while pre-training (imitation.h).
class ImitationSink {
public:
    virtual ~ImitationSink() = default;
    /// One decision: `n` candidate rows (row-major, kFeatureCount floats each) and the row the
    /// teacher chose among them.
    virtual void addChoice(const float* rows, int n, int chosen) = 0;
};

class LearnedPolicy final : public policy::PlacementPolicy {
public:
    explicit LearnedPolicy(std::unique_ptr<Scorer> scorer, LearnedOptions options = {});
    std::string name() const override { return "learned"; }
    void reset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster) override;
    policy::PlacementDecision place(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, Rng& rng,
        int topK) override;
    void onAllocated(const cluster::Placement& p, const trace::TaskRequest& r) override;
    void onReleased(const cluster::Placement& p, const trace::TaskRequest& r) override;
    /// The two-level room decision (timed replays with migration or preemption): level 1 takes
    /// the room or waits (Q of the room row: the waiting task on the freed node, against the wait
    /// row), level 2 sends the moved task to the destination of highest Q (its placement rows).
    /// Training: both actions are explored and the choice is a transition like any placement
    /// (the reward observer prices the room). A round whose teacher decides takes every offer as
    /// the heuristics do (decidesRoom() false).
    bool decidesRoom() const override { return !(m_teacher && m_teacherDecides); }
    int skips() const override { return m_opt.skip ? m_opt.maxConsecutiveWaits : 0; }
    int decideRoom(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, const policy::RoomOffer& offer,
        const std::function<const cluster::ClusterState&(int)>& after) override;
    /// Training: attach a learner (nullptr = greedy evaluation) and its exploration seed.
    void setLearner(Learner* learner, uint64_t explorationSeed);
    /// Pre-training: `teacher` (a heuristic) decides among this policy's own candidates (the node
    /// it would choose, else the candidate it ranks best) and each decision goes to `sink`; the
    /// network is not asked. With `decides` false (the teacher loss of DQN rounds) the network
    /// decides as usual and the teacher's choice among the same candidates only goes to `sink`.
    /// nullptr ends it.
    void setTeacher(std::unique_ptr<policy::PlacementPolicy> teacher, ImitationSink* sink, bool decides = true);
    /// Ends an episode: the last transition is handed over as terminal.
    void finishEpisode();
    /// The transition being built (its reward set by the run's RewardObserver).
    PendingTransition& pending() { return m_pending; }
    int64_t decisions() const { return m_decisions; }
    /// First scorer failure of the run (the decision then fell back to the heuristic's choice).
    const std::optional<Error>& error() const { return m_error; }
    Scorer& scorer() { return *m_scorer; }

private:
    std::unique_ptr<Scorer> m_scorer;
    LearnedOptions m_opt;
    std::unique_ptr<policy::PlacementPolicy> m_heuristic;
    std::optional<FeatureExtractor> m_features;
    Learner* m_learner = nullptr;
    std::unique_ptr<policy::PlacementPolicy> m_teacher;
    ImitationSink* m_sink = nullptr;
    bool m_teacherDecides = true;
    Rng m_teacherRng { 1 };
    /// The index among h's candidates the teacher picks.
    int teacherChoice(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, const policy::PlacementDecision& h);
    Rng m_explore { 1 };
    std::vector<float> m_rows;
    std::vector<float> m_q;
    std::vector<policy::Candidate> m_cands;
    PendingTransition m_pending;
    int m_consecutiveWaits = 0;
    int64_t m_decisions = 0;
    DecisionContext contextOf(const policy::PlacementRequest& req) const;
    /// Level 1 of a skipping policy's decision: skip the unit (the wait row) or keep its turn (the
    /// turn row: placed if it fits, else the head of the queue); the teacher skips while a
    /// shorter unit waits behind it. True when `d` is final (a skip, or a unit that fits nowhere).
    bool decideSkip(const cluster::ClusterState& cluster, const DecisionContext& ctx, bool fits, policy::PlacementDecision& d);
    double clusterAlloc(const cluster::ClusterState& cluster) const;
    /// The decision chose `chosen`: the previous transition was handed over, this one is pending
    /// (its reward comes from the run's reward observer).
    void choose(const FeatureRow& chosen);
    std::optional<Error> m_error;
};

/// "learned:CHECKPOINT.slq" or "torchscript:MODEL.pt" -> a LearnedPolicy (other names: nullptr
/// result with no error, so callers fall back to the heuristics registry).
Result<std::unique_ptr<policy::PlacementPolicy>> makeModelPolicy(const std::string& spec, const LearnedOptions& options = {});
/// True when `spec` names a model policy.
bool isModelPolicy(const std::string& spec);
/// Any placement policy by name: a model ("learned:…", "torchscript:…") or a heuristic of the
/// registry. Unknown names and unloadable models are errors naming them. `schedulerConfig`: a
/// KubeSchedulerConfiguration (YAML) for k8s-default / k8s-sampling, ignored by other policies.
Result<std::unique_ptr<policy::PlacementPolicy>> makeAnyPolicy(const std::string& name, const LearnedOptions& options = {},
    const std::string& schedulerConfig = {});

} // namespace schedlab::rl
