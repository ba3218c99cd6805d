#pragma once
/// Double DQN on replayed history (docs/rl.md §4): the LearnedPolicy plays episodes (fill experiments
/// with fresh seeds, or timed replays of a trace window), every decision becomes a transition in
/// a replay buffer, and every `trainEvery` decisions a batch is drawn for one Adam step on the
/// Huber loss against r + gamma x Q_target(s', argmax_a Q_online(s', a)); the target network copies
/// the online one every `targetSyncSteps` gradient steps; gradients are clipped by norm.
/// Deterministic on CPU for a seed (torch seed, exploration and sampling streams, one thread).
/// A NaN / infinite loss or weight stops training with an error naming the episode and step.
/// With TrainOptions::teacherLoss the loss also keeps a teacher's ranking (DQfD-style).

#include "constraints.h"
#include "learned_policy.h"
#include "reward.h"

#include "base/progress.h"
#include "base/result.h"
#include "policy/queue_policy.h"
#include "sim/run_spec.h"
#include "trace/trace.h"

#include <functional>
#include <vector>

namespace schedlab::rl {

class QNetwork;

/// The replays a round trains and evaluates on when nothing else is said: the run spec's defaults,
/// except that a timed round backfills with EASY (the learned policy is meant for a backfilling
/// scheduler; a plain `replay` does not backfill unless asked). The one place that difference lives.
sim::RunSpec trainingRun(sim::RunMode mode);

struct TrainOptions {
    /// What every episode, validation and evaluation replays: the fill experiment or a timed replay
    /// with its options (queue, backfilling, making room, ratio, ...). The spec's policy and seed
    /// are not used (the learned policy plays; episode e uses seed + e). Fill: FillOptions::maxPods
    /// bounds a training episode only; validations and evaluations place every pod.
    sim::RunSpec run = trainingRun(sim::RunMode::Fill);
    sim::RunMode mode() const { return run.mode(); }
    /// With preemption or migration on (timed), the learned policy decides each offer.
    bool makesRoom() const;
    int episodes = 3;
    double learningRate = 1e-3;
    double gamma = 0.9;
    int batchSize = 64;
    int bufferSize = 20000;
    int trainEvery = 4;
    int targetSyncSteps = 250;
    double epsilonStart = 0.3; ///< first episode; linear to epsilonEnd at the last
    double epsilonEnd = 0.02;
    double gradClip = 10.0;
    uint64_t seed = 1; ///< episode e uses seed + e (fill shuffles, exploration)
    RewardConfig reward;
    LearnedOptions policy;
    /// `policy` with the wait features scaled to the reward's p99 target (what the policy of a
    /// round, its validations and evaluations decide with).
    LearnedOptions learnedOptions() const;
    /// Timed: budgets kept by Lagrange multipliers (constraints.h); slaS is also the replay's SLA
    /// (it overrides TimedOptions::defaultSlaS of `run`).
    Constraints constraints;
    /// DQN rounds: a heuristic (a name of the registry) whose choices among the same candidates a
    /// loss keeps in view while fine-tuning, as DQfD (Hester et al. 2018) does with
    /// demonstrations: every gradient step adds teacherLossWeight x the large-margin loss
    /// max_a (Q(a) + kTeacherMargin [a != teacher's]) - Q(teacher's) over a batch of the teacher's
    /// recent decisions (its row + up to kTeacherLossCandidates - 1 others drawn at random).
    /// Empty: plain Double DQN. Teacher rounds (RoundOptions::teacher) ignore it.
    std::string teacherLoss;
    double teacherLossWeight = 1.0;
    /// After each episode the greedy policy (no exploration, no learning) replays these seeds
    /// (keep them apart from the training seeds, seed + e, and the evaluation's); the episode's
    /// validation is, fill, the mean final GPU allocation (higher is better), timed, the mean p99
    /// wait over the training window (the evaluation's window stays unseen; lower is better), and
    /// training ends with the weights of the best episode (the first of equals),
    /// TrainReport::keptEpisode. The starting weights are validated
    /// first and count as episode 0: a round no episode of which beats them on those seeds keeps
    /// them (it cannot end worse on validation than it started). Empty: the last episode's weights.
    std::vector<uint64_t> validationSeeds;
    /// DQN rounds, WiSE-FT (Wortsman et al. 2022): the round ends with (1 - blend) x its starting
    /// weights + blend x the fine-tuned ones (QNetwork::mixWith); with validation seeds each
    /// episode is validated, and kept, blended so. 1 = off, the fine-tuned weights as they are.
    /// Fine-tuning on one workload and blending with the start keeps much of the gain there and
    /// much of the start's behaviour on workloads the round never saw.
    double blend = 1.0;
};

inline constexpr int kTeacherLossCandidates = 16;
inline constexpr double kTeacherMargin = 0.1; ///< in Q units (rewards are within [-1, 1] a step)

struct EpisodeStats {
    int episode = 0;
    double meanLoss = 0; ///< over the episode's gradient steps; -1 when none yet
    double minLoss = 0, maxLoss = 0;
    double episodeReturn = 0; ///< sum of rewards
    double epsilon = 0;
    int64_t decisions = 0;
    int64_t gradientSteps = 0;
    double seconds = 0;
    double stepsPerSecond = 0; ///< environment steps (decisions) per second, training included
    /// Timed with constraints: each one's value in this episode and the multiplier it trained with.
    ConstraintTrace constraints;
    double validation = -1; ///< with validation seeds: mean final GPU allocation % (fill) or p99 wait s (timed), else -1
};

struct TrainReport {
    std::vector<EpisodeStats> episodes;
    /// With validation seeds: the episode whose weights training ended with (1-based; 0 = the
    /// starting weights, no episode did better) and the starting weights' validation; else 0, -1.
    int keptEpisode = 0;
    double startValidation = -1;
    int64_t decisions = 0;
    double seconds = 0;
};

/// Replay options for a validation or an evaluation run of `o` with `seed`: `o.run`'s options with
/// that seed, every pod (fill), the constraints' SLA (timed).
sim::FillOptions fillOptionsFor(const TrainOptions& o, uint64_t seed);
sim::TimedOptions timedOptionsFor(const TrainOptions& o, uint64_t seed);
/// A training episode's fill options: fillOptionsFor() cut at `o.run`'s maxPods.
sim::FillOptions episodeFillOptions(const TrainOptions& o, uint64_t seed);
/// What training episodes, validations and evaluations record: no decision log, no heatmap.
sim::Recording trainingRecording();
/// An episode's validation (EpisodeStats::validation) as text: "95.40 % GPU allocated" (fill) or
/// "p99 wait 654 s" (timed).
std::string validationText(sim::RunMode mode, double validation);

/// Trains `net` in place. On error (cancel, divergence) `net` may hold partial updates: callers
/// train a copy and keep the parent (fine_tune.h does).
Result<TrainReport> train(QNetwork& net, const trace::Trace& trace, const TrainOptions& options,
    const std::function<void(const EpisodeStats&)>& onEpisode = {}, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::rl
