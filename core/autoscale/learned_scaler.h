#pragma once
/// The learned replica policy (module README, "Learned scaler"): a Q-network (rl::QNetwork, the
/// same MLP as the placement agent, kScalerFeatures inputs) scores each action of
/// scaler_features.h; the best allowed one wins. Trained by Double DQN on replays of past load
/// (trainScaler), evaluated on later load like any other policy (`learned:F.slq`).
/// libtorch is loaded on first use (rl/torch_module.h); nothing here includes it.

#include "load_series.h"
#include "replica_policy.h"
#include "scaler_features.h"
#include "service.h"

#include "base/progress.h"
#include "base/result.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedlab::rl {
class QNetwork;
class Scorer;
}

namespace schedlab::autoscale {

struct ScalerTrainOptions {
    double fromS = 0, durationS = 0; ///< the training span of the load (0 = to the end)
    int episodes = 3;
    uint64_t seed = 1;
    double gamma = 0.9; ///< per sync period (15 s): about 2.5 minutes of horizon
    double learningRate = 1e-3, gradClip = 10;
    int batchSize = 64, bufferSize = 50000, trainEvery = 4, targetSyncSteps = 500;
    double epsilonStart = 0.3, epsilonEnd = 0.02; ///< linear over all decisions of all episodes
    ScalerReward reward;
};

struct ScalerEpisode {
    double meanReward = 0, replicaHours = 0, meanLoss = 0;
    int sloViolationMinutes = 0;
    int64_t decisions = 0;
};

struct ScalerTrainReport {
    std::vector<ScalerEpisode> episodes;
    int64_t gradientSteps = 0;
    double seconds = 0;
};

/// Trains `net` (kScalerFeatures inputs) in place. Deterministic for a seed. Cancel stops between
/// decisions and leaves `net` as it was when it stopped (the caller keeps or drops it).
Result<ScalerTrainReport> trainScaler(rl::QNetwork& net, const LoadSeries& load, const ServiceConfig& service,
    const ScalerTrainOptions& options, const std::function<void(const ScalerEpisode&)>& onEpisode = {}, ProgressFn progress = {},
    CancelToken cancel = {});

/// The greedy policy of a scorer with kScalerFeatures inputs (name "learned").
std::unique_ptr<ReplicaPolicy> makeLearnedScaler(std::unique_ptr<rl::Scorer> scorer, const ServiceConfig& service,
    std::string name = "learned");

/// `learned:F.slq`: loads the checkpoint; an error names the file (not a scaler checkpoint: its
/// feature count).
Result<std::unique_ptr<ReplicaPolicy>> loadLearnedScaler(const std::string& path, const ServiceConfig& service);

/// makeReplicaPolicy's names and `learned:F.slq` (loads libtorch then).
std::unique_ptr<ReplicaPolicy> makeAnyReplicaPolicy(const std::string& spec, const ServiceConfig& service, std::string* error);

} // namespace schedlab::autoscale
