#pragma once
/// Fine-tune rounds of the learned replica policy (core/autoscale/learned_scaler.h), kept in the
/// project like the placement agent's rounds (the same `rounds` table, store::RoundKind::Autoscale):
/// a round trains a parent checkpoint (or a fresh network) on a past span of the load and is
/// evaluated, with baselines, on a later span it never trained on. Recorded by the one round
/// lifecycle (round_recorder.h), as placement rounds are.
/// A session of N rounds continues each from the previous one, with the placement sessions' seed
/// rule (round i seeded base.seed + i x episodes; exploration starts at most 0.1 from a parent).

#include "autoscale/autoscale_replay.h"
#include "autoscale/learned_scaler.h"
#include "store/project.h"

#include <functional>
#include <string>
#include <vector>

namespace schedlab::workflow {

struct ScalerRoundOptions {
    std::string loadPath, servicePath; ///< recorded with the round (servicePath empty = defaults)
    std::string parentCheckpoint; ///< empty = a fresh network (seeded with train.seed)
    int64_t parentRound = -1;
    std::string outCheckpoint; ///< empty = checkpointDir/round-<id>.slq (needs a project)
    std::string checkpointDir;
    autoscale::ScalerTrainOptions train;
    double evalFromS = -1; ///< -1 = where the training span ends
    double evalDurationS = 0; ///< 0 = to the end of the load
    std::vector<std::string> baselines { "hpa", "forecast" };
};

/// The figures stored per evaluated policy (EvalValue::metric, seed 0).
std::vector<std::string> scalerEvalMetrics();
/// A run's value of one of scalerEvalMetrics().
double scalerMetric(const autoscale::AutoscaleResult& r, const std::string& metric);

struct ScalerRoundResult {
    int64_t roundId = -1; ///< -1 without a project
    std::string checkpoint, checkpointSha256;
    autoscale::ScalerTrainReport training;
    std::vector<autoscale::AutoscaleResult> eval; ///< policy "learned" first, then the baselines
    double trainFromS = 0, trainToS = 0, evalFromS = 0, evalToS = 0;
    double seconds = 0;
};

/// Checks what can be checked before any work: spans inside the load, an evaluation span after
/// training, known baselines, weights not all zero.
Status checkScalerRound(const autoscale::LoadSeries& load, const ScalerRoundOptions& options);

Result<ScalerRoundResult> runScalerRound(const autoscale::LoadSeries& load, const autoscale::ServiceConfig& service,
    store::Project* project, const ScalerRoundOptions& options,
    const std::function<void(const autoscale::ScalerEpisode&)>& onEpisode = {}, ProgressFn progress = {}, CancelToken cancel = {});

struct ScalerSessionCallbacks {
    std::function<void(int round, const autoscale::ScalerEpisode&)> episode; ///< round is 1-based
    std::function<void(int round, const ScalerRoundResult&)> roundFinished;
    std::function<void(double fraction)> progress; ///< over the whole session
};

/// `rounds` rounds in a row; stops at the first failed or cancelled one (its error returned,
/// earlier rounds kept). Without a project one round writes base.outCheckpoint, more write
/// "<out>.1", "<out>.2", ...
Result<std::vector<ScalerRoundResult>> runScalerSession(const autoscale::LoadSeries& load, const autoscale::ServiceConfig& service,
    store::Project* project, const ScalerRoundOptions& base, int rounds, const ScalerSessionCallbacks& callbacks = {},
    CancelToken cancel = {});

/// "3" (a finished autoscale round of the project) or a checkpoint file -> (path, round id or -1).
/// A placement round is refused by name.
Result<std::pair<std::string, int64_t>> resolveScalerParent(const std::string& parent, store::Project* project);

} // namespace schedlab::workflow
