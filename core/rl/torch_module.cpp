#include "torch_module.h"

#include "checkpoint_check.h"
#include "dqn_trainer.h"
#include "learned_policy.h"
#include "trace/trace.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <unistd.h>
#include <vector>

namespace schedlab::rl {

namespace {

constexpr uint64_t kAbiVersion = 6; // 2: createLearner; 3: QLearner::rankStep; 4: room decisions, constraints; 5: preselection kept; 6: skip kept

std::string executableDir()
{
    std::vector<char> buf(4096);
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0)
        return {};
    std::string p(buf.data(), std::size_t(n));
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

std::vector<std::string> candidatePaths()
{
    std::vector<std::string> paths;
    if (const char* env = std::getenv("SCHEDLAB_TORCH_MODULE"); env && *env) {
        paths.emplace_back(env);
        return paths; // an explicit choice is not second-guessed
    }
    const std::string dir = executableDir();
    if (!dir.empty()) {
        paths.push_back(dir + "/libschedlab_torch.so");
        paths.push_back(dir + "/../lib/schedlab/libschedlab_torch.so");
    }
#ifdef SCHEDLAB_TORCH_MODULE_BUILD_PATH
    paths.emplace_back(SCHEDLAB_TORCH_MODULE_BUILD_PATH);
#endif
    return paths;
}

struct Loaded {
    const TorchModuleApi* api = nullptr;
    std::string error;
};

Loaded load()
{
    Loaded out;
    std::string tried;
    for (const std::string& p : candidatePaths()) {
        if (::access(p.c_str(), R_OK) != 0) {
            tried += "\n  " + p + ": not found";
            continue;
        }
        void* h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* why = ::dlerror();
            tried += "\n  " + p + ": " + (why ? why : "dlopen failed");
            continue;
        }
        using Entry = const TorchModuleApi* (*)();
        auto entry = reinterpret_cast<Entry>(::dlsym(h, kTorchModuleEntry));
        const TorchModuleApi* api = entry ? entry() : nullptr;
        if (!api) {
            tried += "\n  " + p + ": not a schedlab torch module (no " + kTorchModuleEntry + ")";
            continue; // never dlclose: a module may have registered static state with libtorch
        }
        if (api->abi != torchModuleAbi() || !api->createNetwork || !api->loadNetwork || !api->loadTorchScript
            || !api->train || !api->createLearner) {
            tried += "\n  " + p + ": built from another version of schedlab (rebuild it)";
            continue;
        }
        out.api = api;
        return out;
    }
    out.error = "the learned-policy module (libschedlab_torch.so, libtorch) could not be loaded; tried:" + tried
        + "\n(set SCHEDLAB_TORCH_MODULE to its path, or install libtorch)";
    return out;
}

std::once_flag g_once;
Loaded g_loaded; // written once under g_once, read-only afterwards

} // namespace

uint64_t torchModuleAbi()
{
    uint64_t h = kAbiVersion;
    for (uint64_t s : { sizeof(TrainOptions), sizeof(EpisodeStats), sizeof(TrainReport), sizeof(trace::Trace),
             sizeof(Error), sizeof(LearnedOptions), sizeof(RewardConfig), sizeof(QNetwork::Shape) })
        h = h * 1000003u + s;
    return h;
}

Result<const TorchModuleApi*> torchModule()
{
    std::call_once(g_once, [] { g_loaded = load(); });
    if (!g_loaded.api)
        return makeError(ErrorCode::Io, g_loaded.error);
    return g_loaded.api;
}

// ---- the forwarding functions the rest of the code calls ----------------------------------

Result<std::unique_ptr<QNetwork>> QNetwork::create(uint64_t seed, Shape shape)
{
    auto m = torchModule();
    if (!m)
        return m.error();
    return m.value()->createNetwork(seed, shape);
}

Result<std::unique_ptr<QLearner>> QNetwork::learner(double learningRate, double gradClip)
{
    auto m = torchModule();
    if (!m)
        return m.error();
    return m.value()->createLearner(*this, learningRate, gradClip);
}

Result<std::unique_ptr<QNetwork>> QNetwork::load(const std::string& path)
{
    auto m = torchModule(); // first: a missing module is the user's first problem, whatever the file
    if (!m)
        return m.error();
    // libtorch reads only checkpoints that pass the check (checkpoint_check.h): its reader
    // compiles the archive's code and trusts its sizes.
    if (Status st = checkCheckpointFile(path); !st)
        return st.error();
    return m.value()->loadNetwork(path);
}

Result<std::unique_ptr<Scorer>> loadTorchScript(const std::string& path, int features)
{
    auto m = torchModule();
    if (!m)
        return m.error();
    return m.value()->loadTorchScript(path, features);
}

Result<TrainReport> train(QNetwork& net, const trace::Trace& trace, const TrainOptions& options,
    const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progress, CancelToken cancel)
{
    auto m = torchModule();
    if (!m)
        return m.error();
    return m.value()->train(net, trace, options, onEpisode, std::move(progress), std::move(cancel));
}

} // namespace schedlab::rl
