#pragma once
/// A fine-tune round (DESIGN §6): parent checkpoint (or a fresh network) + a training window +
/// episodes + learning rate + reward weights -> a new checkpoint (written atomically), training
/// curves, and an evaluation against baselines on held-out data:
///  - fill: training episodes use seeds `train.seed + e` (1000 + e by default); evaluation uses
///    `evalSeeds` (42..44 by default), which training never sees;
///  - timed: training replays [fromS, fromS + windowS) of the trace; evaluation replays the next
///    window [fromS + windowS, fromS + 2 windowS) (the training window when the trace ends first,
///    said in `evalNote`).
/// With a project, the round is stored with its parent, weights, curves and evaluation; a round
/// that fails or is cancelled is marked so and writes no checkpoint, leaving the parent as it was.

#include "dqn_trainer.h"

#include "base/progress.h"
#include "base/result.h"
#include "store/project.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace schedlab::rl {

struct RoundOptions {
    std::string parentCheckpoint; ///< empty = fresh network (seeded with train.seed)
    int64_t parentRound = -1; ///< for the lineage in the project
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

/// Mean of a metric over seeds for one policy, and the raw values.
struct EvalSummary {
    std::string policy;
    std::map<std::string, double> mean; ///< metric -> mean over seeds
    std::vector<store::EvalValue> values;
};

struct RoundResult {
    int64_t roundId = -1; ///< -1 without a project
    std::string checkpoint;
    std::string checkpointSha256;
    TrainReport training;
    std::vector<EvalSummary> eval; ///< "learned" first, then the baselines
    std::string evalNote;
    double seconds = 0;
    /// Constraints the evaluation ended over budget, e.g. "migrations 3.1/h > 2" (overBudget()).
    std::vector<std::string> overBudget;
};

/// The constraints of a stored round whose evaluation ("learned", mean over seeds) ended over
/// budget, as "NAME VALUE > BUDGET" texts; empty when within every budget or without budgets.
std::vector<std::string> overBudget(const std::vector<store::ConstraintPoint>& constraints, const std::vector<store::EvalValue>& eval);

/// Metrics reported per mode: fill "finalGpuAllocPct", "failedPods", "fragRatePct";
/// timed "waitP99S", "waitMeanS", "failed", "meanGpuUtilPct", "cpuFragPct" (time-weighted CPU
/// fragmentation rate, the source design's headline metric), and when the options make room or
/// set budgets also "slaViolationPct", "migrationsPerHour", "evictionsPerHour" (constraints.h), and
/// when they make room "gpuBlockedWithRoom" (TimedResult: GPU jobs held by placement, not capacity).
std::vector<std::string> evalMetrics(TrainMode mode, const TrainOptions& options = {});

/// Evaluates policies ("learned:PATH", "torchscript:PATH" or heuristic names) on `trace`: fill
/// mode over `seeds`, timed mode on the trace as given (one seed each). Each policy name is kept
/// as given in the result.
Result<std::vector<EvalSummary>> evaluate(const trace::Trace& trace, TrainMode mode, const std::vector<std::string>& policies,
    const std::vector<uint64_t>& seeds, const TrainOptions& options, ProgressFn progress = {}, CancelToken cancel = {});

/// Runs one round; `project` may be null (then nothing is stored).
Result<RoundResult> runRound(const trace::Trace& trace, const std::vector<std::string>& traceFiles, store::Project* project,
    const RoundOptions& options, const std::function<void(const EpisodeStats&)>& onEpisode = {}, ProgressFn progress = {},
    CancelToken cancel = {});

/// SHA-256 of a file, hex; empty when it cannot be read.
std::string fileSha256(const std::string& path);

} // namespace schedlab::rl
