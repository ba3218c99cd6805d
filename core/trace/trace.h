#pragma once
/// Value types of a workload (docs/model.md §1): nodes, jobs as gangs of tasks, task
/// requests, logged decisions, and the Trace that holds them.
///
/// Units are in the names. cpuMilli is 1/1000 of a core for SWF, openb and generated traces; for
/// Google 2011 traces (normalised to the largest machine) it is 1e-9 of the largest machine,
/// see Trace::cpuUnit and core/trace/README.md. Times are seconds from the trace start (double);
/// -1 means unknown wherever a time or duration may be missing.

#include "base/huge_page_allocator.h"
#include "ids.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

/// Power model of a node; idleW < 0 means no model.
struct PowerModel {
    double idleW = -1;
    double peakW = -1;
    bool operator==(const PowerModel&) const = default;
};

/// A machine. Each of its numGpu GPUs has 1000 gpu-milli.
struct Node {
    std::string name;
    int64_t cpuMilli = 0; ///< >= 0
    int64_t memMiB = 0; ///< >= 0; 0 = memory not modelled (SWF)
    int32_t numGpu = 0; ///< >= 0
    int16_t gpuModel = -1; ///< index into Trace::gpuModels, -1 = no GPU / unknown model
    PowerModel power;
    bool operator==(const Node&) const = default;
};

/// What one task asks for. gpuMilli is a share of ONE GPU when numGpu == 1 and gpuMilli < 1000;
/// otherwise the task takes numGpu whole GPUs (gpuMilli == 1000 per GPU, 0 when numGpu == 0).
struct TaskRequest {
    int64_t cpuMilli = 0;
    int64_t memMiB = 0;
    int32_t numGpu = 0;
    int32_t gpuMilli = 0; ///< per GPU, 0..1000
    uint32_t gpuModelMask = 0; ///< bit i = Trace::gpuModels[i] allowed; 0 = any model

    bool needsGpu() const { return numGpu > 0 && gpuMilli > 0; }
    bool isGpuShare() const { return numGpu == 1 && gpuMilli > 0 && gpuMilli < 1000; }
    /// Total gpu-milli asked for (numGpu * gpuMilli).
    int64_t totalGpuMilli() const { return int64_t(numGpu) * gpuMilli; }
    bool operator==(const TaskRequest&) const = default;
};

/// Where and when the source system actually ran a task (if the trace says).
struct LoggedPlacement {
    NodeId node; ///< -1 = not recorded
    double startTimeS = -1;
    double endTimeS = -1;
    bool operator==(const LoggedPlacement&) const = default;
};

/// One task of a job. In a gang job every task starts with the job and runs the job's run time.
/// In a non-gang job (Google) each task has its own submit offset and run time.
struct Task {
    TaskRequest request;
    double submitOffsetS = 0; ///< from the job's submit time, >= 0; 0 in gangs
    double runTimeS = -1; ///< -1 = the job's run time
    LoggedPlacement logged;
    bool operator==(const Task&) const = default;
};

/// A job: gang (all tasks start together) or a bag of independent tasks.
/// Its tasks are Trace::tasks[firstTask .. firstTask + taskCount).
struct Job {
    JobId id;
    uint32_t nameOffset = 0; ///< source name (openb pod name) in Trace::jobNames; see Trace::jobNameView
    uint32_t nameLength = 0; ///< 0 = no name (use the id)
    double submitTimeS = -1; ///< -1 = unknown (pod lists without times)
    double runTimeS = -1; ///< how long it runs once started; -1 = unknown (still running, pending)
    double requestedTimeS = -1; ///< user's estimate; -1 = unknown
    int32_t priority = 0; ///< larger = more important
    int16_t qos = -1; ///< index into Trace::qosClasses; -1 = none
    int32_t user = -1; ///< index into Trace::users if that table is non-empty, else the raw id
    int32_t group = -1;
    int16_t status = -1; ///< source status code (SWF 1 done, 0 failed, 5 cancelled); -1 unknown
    bool gang = true;
    uint32_t firstTask = 0;
    uint32_t taskCount = 0;
    bool operator==(const Job&) const = default;
};

/// What a scheduler logged it did with a task at one moment.
enum class LoggedOutcome : int8_t {
    Placed = 0, ///< bound to LoggedDecision::node
    Unschedulable = 1, ///< no node would take it (kube-scheduler FailedScheduling, "Unable to schedule")
    Waited = 2, ///< the scheduler chose to hold it (an RL agent's wait action)
};

/// A node a logged decision considered, with the score the scheduler gave it.
struct LoggedCandidate {
    int32_t node = -1; ///< index into Trace::nodes
    bool hasScore = false;
    double score = 0; ///< kube-scheduler's final (weighted) score, a Q-value, ...; when hasScore
    uint32_t firstTerm = 0, termCount = 0; ///< its terms in LoggedDecisions::terms (per plugin, per reward term)
    bool operator==(const LoggedCandidate&) const = default;
};

/// One named part of a candidate's score (a score plugin's score, a reward term).
struct LoggedTerm {
    int32_t name = -1; ///< index into LoggedDecisions::names
    double value = 0;
    bool operator==(const LoggedTerm&) const = default;
};

/// Why nodes could not take a task ("Insufficient cpu" on 3 nodes).
struct LoggedReason {
    int32_t name = -1; ///< index into LoggedDecisions::names
    int32_t nodes = -1; ///< how many nodes gave this reason; -1 = not said
    bool operator==(const LoggedReason&) const = default;
};

/// A scheduling decision as the source system logged it (Kubernetes events, kube-scheduler logs,
/// an external scheduler's decision log). Times in seconds from the trace start, like jobs'.
struct LoggedDecision {
    uint32_t task = 0; ///< index into Trace::tasks
    LoggedOutcome outcome = LoggedOutcome::Placed;
    double timeS = -1; ///< when (the first time, for an aggregated event)
    double lastTimeS = -1; ///< aggregated events: the last time; -1 = a single decision
    int32_t node = -1; ///< Placed: index into Trace::nodes (-1 = a node the trace does not have)
    int32_t count = 1; ///< how many times (aggregated events)
    int32_t evaluatedNodes = -1, feasibleNodes = -1; ///< -1 = not logged
    int32_t source = -1; ///< who decided, index into LoggedDecisions::names ("default-scheduler")
    uint32_t firstReason = 0, reasonCount = 0; ///< in LoggedDecisions::reasons
    uint32_t firstCandidate = 0, candidateCount = 0; ///< in LoggedDecisions::candidates
    uint32_t firstReward = 0, rewardCount = 0; ///< in LoggedDecisions::terms: the reward it earned, by term
    bool operator==(const LoggedDecision&) const = default;
};

/// Every logged decision of a trace, stored flat (a decision's candidates, terms and reasons are
/// ranges of the shared arrays, appended in decision order; an empty range starts at the array's
/// size when its decision was added), in the order they were logged.
struct LoggedDecisions {
    std::vector<LoggedDecision> decisions;
    std::vector<LoggedCandidate> candidates;
    std::vector<LoggedTerm> terms;
    std::vector<LoggedReason> reasons;
    std::vector<std::string> names; ///< reasons, plugins, reward terms and sources, interned
    bool empty() const { return decisions.empty(); }
    /// Index of `name` in names, adding it when new (a linear scan: the table stays small).
    int32_t internName(std::string_view name);
    bool operator==(const LoggedDecisions&) const = default;
};

/// Unit of cpuMilli / memMiB in a trace.
enum class ResourceUnit : int8_t {
    Absolute, ///< cpuMilli = milli-cores, memMiB = MiB
    NormalizedNano, ///< 1e-9 of the largest machine (Google 2011 requests and capacities)
};

/// A whole workload: cluster and jobs. A value type; copying is deep.
struct Trace {
    std::string sourceFormat; ///< "openb", "swf", "google2011", "generated"
    std::vector<std::string> sourceFiles; ///< file names (not paths) it was built from
    ResourceUnit cpuUnit = ResourceUnit::Absolute;
    std::map<std::string, std::string> metadata; ///< format-specific facts (MaxProcs, UnixStartTime...)

    std::vector<std::string> gpuModels; ///< at most 32 (bit per model in TaskRequest::gpuModelMask)
    std::vector<std::string> qosClasses;
    std::vector<std::string> users; ///< interned user names (Google hashes); empty = numeric ids
    /// All job names back to back (an arena: no allocation per job, 8 bytes per job instead of 32).
    std::string jobNames;

    std::vector<Node> nodes;
    std::vector<Job, HugePageAllocator<Job>> jobs; ///< in source order
    std::vector<Task, HugePageAllocator<Task>> tasks; ///< grouped by job, in job order
    LoggedDecisions logged; ///< what the source scheduler logged it decided (often empty)

    bool operator==(const Trace&) const = default;

    /// Index of a GPU model, adding it when new; -1 when the table is full (32 models).
    int internGpuModel(const std::string& model);
    int internQos(const std::string& qos);
    int internUser(const std::string& user);

    /// Run time of a task: its own if set, else its job's.
    double taskRunTimeS(const Job& job, const Task& task) const
    {
        return task.runTimeS >= 0 ? task.runTimeS : job.runTimeS;
    }
    /// Display name of a job: its name, else its id.
    std::string jobName(const Job& job) const;
    /// The job's source name; empty when it has none.
    std::string_view jobNameView(const Job& job) const
    {
        return std::string_view(jobNames).substr(job.nameOffset, job.nameLength);
    }
    /// Stores `name` in the arena and points the job at it. False when the arena would pass 4 GiB.
    bool setJobName(Job& job, std::string_view name);
    /// Total GPUs over all nodes.
    int64_t totalGpus() const;
};

/// Maximum number of distinct GPU models (bits in TaskRequest::gpuModelMask).
inline constexpr int kMaxGpuModels = 32;

} // namespace schedlab::trace
