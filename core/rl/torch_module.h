#pragma once
/// The one place where libtorch enters a process. Everything that needs torch (the Q-network,
/// TorchScript scorers, DQN training) is built into a shared module, `libschedlab_torch.so`, that
/// no executable links; it is loaded with dlopen the first time a model is created, loaded or
/// trained. Loading costs ~0.8 s (Debian's libtorch brings OpenCV, ffmpeg and Qt 5 with it);
/// every other path (import, heuristic replay, the GUI until a learned policy is used) never pays.
///
/// Where the module is looked for, first found wins:
///   1. `$SCHEDLAB_TORCH_MODULE` (a file path), when set;
///   2. next to the running executable, then `<exe dir>/../lib/schedlab/`;
///   3. the build tree it was built in (so build/ binaries work where they are).
/// A missing or mismatched module is an error naming every path tried, never a crash.
///
/// Thread-safe: the first call loads (once), later calls return the same table.

#include "base/progress.h"
#include "base/result.h"
#include "q_network.h"

#include <functional>
#include <string>

namespace schedlab::trace {
struct Trace;
}

namespace schedlab::rl {

struct TrainOptions;
struct EpisodeStats;
struct TrainReport;

/// The module's entry points. `abi` must equal kTorchModuleAbi (built from this header's version
/// and the sizes of the types that cross the boundary), or the module is refused.
struct TorchModuleApi {
    uint64_t abi = 0;
    Result<std::unique_ptr<QNetwork>> (*createNetwork)(uint64_t seed, QNetwork::Shape shape) = nullptr;
    Result<std::unique_ptr<QNetwork>> (*loadNetwork)(const std::string& path) = nullptr;
    Result<std::unique_ptr<Scorer>> (*loadTorchScript)(const std::string& path, int features) = nullptr;
    Result<TrainReport> (*train)(QNetwork& net, const trace::Trace& trace, const TrainOptions& options,
        const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progress, CancelToken cancel)
        = nullptr;
    Result<std::unique_ptr<QLearner>> (*createLearner)(QNetwork& net, double learningRate, double gradClip) = nullptr;
};

/// Name of the C symbol the module exports: `const TorchModuleApi* schedlab_torch_module_api()`.
inline constexpr const char* kTorchModuleEntry = "schedlab_torch_module_api";

/// A value both sides compute; a module from another build (other struct layouts) differs.
uint64_t torchModuleAbi();

/// Loads the module on first call. The error names the paths tried and dlopen's reason.
Result<const TorchModuleApi*> torchModule();

} // namespace schedlab::rl
