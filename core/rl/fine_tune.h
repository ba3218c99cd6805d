#pragma once
/// A fine-tune round (docs/rl.md): parent checkpoint (or a fresh network) + a training window +
/// episodes + learning rate + reward weights -> a trained checkpoint, training curves, and an
/// evaluation against baselines on held-out data:
///  - fill: training episodes use seeds `train.seed + e` (1000 + e by default); evaluation uses
///    `evalSeeds` (42..44 by default), which training never sees;
///  - timed: training replays [fromS, fromS + windowS) of the trace; evaluation replays the next
///    window [fromS + windowS, fromS + 2 windowS) (the training window when the trace ends first,
///    said in `evalNote`).
/// This module only learns and measures: it returns values. Recording a round in a project (its
/// row, the ".partial" checkpoint renamed as the row commits, failure and cancel marks) is the
/// workflow layer's (workflow/round_recorder.h, workflow::runRound).

#include "dqn_trainer.h"

#include "base/progress.h"
#include "base/result.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace schedlab::rl {

struct RoundOptions {
    std::string parentCheckpoint; ///< empty = fresh network (seeded with train.seed)
    int64_t parentRound = -1; ///< the parent's round id in a project (lineage), -1 = none
    std::string outCheckpoint; ///< where the new checkpoint goes; empty = checkpointDir/round-<id>.slq
    std::string checkpointDir; ///< used when outCheckpoint is empty (needs a project for the id)
    TrainOptions train;
    double fromS = 0; ///< timed: training window start, after the first submit
    double windowS = 4 * 3600.0; ///< timed: window length
    std::vector<std::string> baselines; ///< default: bestfit, fgd (fill); firstfit, bestfit (timed)
    std::vector<uint64_t> evalSeeds { 42, 43, 44 };
    /// Non-empty: a pre-training round instead of DQN: the network imitates this heuristic
    /// (imitation.h) over train.episodes episodes; stored and evaluated like any round, its
    /// window says "teacher NAME".
    std::string teacher;
};

/// One evaluated figure: a policy's metric in the run with `seed`.
struct EvalValue {
    std::string policy;
    uint64_t seed = 0;
    std::string metric;
    double value = 0;
};

/// Mean of a metric over seeds for one policy, and the raw values.
struct EvalSummary {
    std::string policy;
    std::map<std::string, double> mean; ///< metric -> mean over seeds
    std::vector<EvalValue> values;
};

/// One constraint of a training episode: its value (-1 when unmeasured), budget and the Lagrange
/// multiplier the episode trained with.
struct ConstraintSample {
    int episode = 0;
    std::string name; ///< constraintName()
    double value = -1, budget = 0, multiplier = 0;
};

struct RoundResult {
    int64_t roundId = -1; ///< set when a project records the round; -1 without one
    std::string checkpoint; ///< where the round's checkpoint ended up
    std::string checkpointSha256;
    TrainReport training;
    std::vector<EvalSummary> eval; ///< "learned" first, then the baselines
    std::string evalNote;
    double seconds = 0;
    /// Timed DQN rounds with budgets: every episode's constraints.
    std::vector<ConstraintSample> constraints;
    /// Constraints the evaluation ended over budget, e.g. "migrations 3.1/h > 2" (overBudget()).
    std::vector<std::string> overBudget;
};

/// The constraints whose evaluation ("learned", mean over seeds) ended over budget, as
/// "NAME VALUE > BUDGET" texts; empty when within every budget or without budgets.
std::vector<std::string> overBudget(const std::vector<ConstraintSample>& constraints, const std::vector<EvalValue>& eval);

/// Metrics reported per mode: fill "finalGpuAllocPct", "failedPods", "fragRatePct";
/// timed "waitP99S", "waitMeanS", "failed", "meanGpuUtilPct", "cpuFragPct" (time-weighted CPU
/// fragmentation rate, the headline metric of timed rounds), and when the options make room or
/// set budgets also "slaViolationPct", "migrationsPerHour", "evictionsPerHour" (constraints.h), and
/// when they make room "gpuBlockedWithRoom" (TimedResult: GPU jobs held by placement, not capacity).
std::vector<std::string> evalMetrics(sim::RunMode mode, const TrainOptions& options = {});

/// Evaluates policies ("learned:PATH", "torchscript:PATH" or heuristic names) on `trace` in the
/// mode of `options.run`: fill over `seeds`, timed on the trace as given (one seed each). Each
/// policy name is kept as given in the result.
Result<std::vector<EvalSummary>> evaluate(const trace::Trace& trace, const std::vector<std::string>& policies,
    const std::vector<uint64_t>& seeds, const TrainOptions& options, ProgressFn progress = {}, CancelToken cancel = {});

/// What a round trained on, for its lineage: "teacher fgd; all pods, ratio 1.3", "4 h from 0 s; ...".
std::string roundWindowText(const RoundOptions& options);
/// The round's options beyond the rounds table's columns (making room, budgets) as JSON; "{}" when none.
std::string roundOptionsJson(const TrainOptions& options);

/// Trains one round and evaluates it: the trained network is written to `checkpointPath` (the
/// caller's choice: workflow::runRound passes a ".partial" name) and evaluated from there as
/// "learned". On an error after the file was written it is removed again; the parent is only read.
Result<RoundResult> trainRound(const trace::Trace& trace, const RoundOptions& options, const std::string& checkpointPath,
    const std::function<void(const EpisodeStats&)>& onEpisode = {}, ProgressFn progress = {}, CancelToken cancel = {});

/// SHA-256 of a file, hex; empty when it cannot be read.
std::string fileSha256(const std::string& path);

} // namespace schedlab::rl
