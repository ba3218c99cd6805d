#pragma once
/// What `schedlab-cli info` reports about a loaded trace, as a value, as text and as JSON.
/// The JSON layout is documented in docs/cli-json.md and is stable (tests read it).

#include "base/stats.h"
#include "trace_loader.h"

#include <QJsonObject>

#include <map>
#include <string>

namespace schedlab::trace {

using schedlab::Distribution;
using schedlab::distributionOf;

struct TraceSummary {
    std::string format;
    std::string cpuUnit; ///< "milli-core" or "1e-9 of largest machine"
    std::vector<LoadedFile> files;
    double importSeconds = 0;

    int64_t nodes = 0, gpuNodes = 0;
    int64_t totalCpuMilli = 0, totalMemMiB = 0, totalGpus = 0;
    std::map<std::string, int64_t> gpusByModel; ///< GPUs per model name
    std::map<std::string, int64_t> nodesByModel;

    int64_t jobs = 0, tasks = 0, multiTaskJobs = 0;
    int64_t cpuOnlyTasks = 0, gpuShareTasks = 0, wholeGpuTasks = 0, modelConstrainedTasks = 0;
    int64_t tasksWithLoggedStart = 0, tasksWithLoggedNode = 0;
    int64_t jobsWithSubmitTime = 0;
    double firstSubmitS = -1, lastSubmitS = -1, lastEndS = -1; ///< -1 = no times

    std::map<int32_t, int64_t> tasksByNumGpu;
    std::map<std::string, int64_t> jobsByQos;
    Distribution cpuMilliPerTask, memMiBPerTask, gpuMilliPerTask, runTimeS, tasksPerJob;

    /// Trace::logged, counted: decisions by outcome (an aggregated event counts once as a
    /// decision and `count` times as attempts), the reasons nodes were unfit, who decided.
    struct LoggedReasonCount {
        std::string reason;
        int64_t attempts = 0; ///< unschedulable attempts that gave it
        int64_t tasks = 0; ///< distinct tasks
    };
    int64_t loggedDecisions = 0, loggedPlaced = 0, loggedUnschedulable = 0, loggedUnschedulableAttempts = 0,
            loggedWaited = 0, loggedWithCandidates = 0, tasksEverUnschedulable = 0;
    std::vector<LoggedReasonCount> loggedReasons; ///< most attempts first
    std::map<std::string, int64_t> loggedBySource;

    int64_t warnings = 0;
    std::map<std::string, int64_t> warningsByCategory;
    std::vector<Warning> firstWarnings; ///< at most 20
    std::map<std::string, int64_t> notes; ///< informational counts (not warnings)
    std::map<std::string, std::string> metadata;
};

TraceSummary summarize(const LoadedTrace& loaded);
QJsonObject toJson(const TraceSummary& summary);
std::string toText(const TraceSummary& summary);

} // namespace schedlab::trace
