#pragma once
/// Timed replay (docs/metrics.md, docs/policies.md §1): jobs arrive at their submit time, wait in a queue ordered by a
/// queue policy, start when the placement policy finds room for all their tasks at once (gang),
/// run for their run time and release. Optional EASY backfilling. Jobs of non-gang traces
/// (Google) are scheduled task by task. Metrics are sampled on a periodic tick. What the replay
/// records besides its summary and series (decision log, heat, journal, state hashes) is a
/// Recording (recording.h), not an option of the experiment.

#include "base/progress.h"
#include "base/result.h"
#include "base/stats.h"
#include "decision_log.h"
#include "recording.h"
#include "replay_observer.h"
#include "room_options.h"
#include "policy/placement_policy.h"
#include "policy/queue_policy.h"
#include "trace/trace.h"

#include <map>
#include <string>
#include <vector>

namespace schedlab::sim {

enum class Backfill { None, Easy };

/// Which unit a scheduling pass starts from. Resort: the queue's first by the order at every pass
/// (as a real scheduler does). Commit: a unit that became the blocked head stays the head until it
/// starts, even if later arrivals sort before it (the RLScheduler simulator's rule).
enum class HeadRule { Resort, Commit };
const char* headRuleName(HeadRule h);
bool parseHeadRule(const std::string& s, HeadRule& out);

/// The experiment: everything that decides the schedule (a RunSpec stores it).
struct TimedOptions {
    policy::QueueOrder queue = policy::QueueOrder::Fcfs;
    Backfill backfill = Backfill::None;
    HeadRule head = HeadRule::Resort;
    uint64_t seed = 42;
    policy::TieBreak tieBreak = policy::TieBreak::Random; ///< as upstream kube-scheduler
    double tickS = 0; ///< metrics period; 0 = max(60 s, span / 4000)
    double p99WindowS = 3600; ///< window of the p99-wait series
    double defaultSlaS = 3600; ///< wait above which a job violates its SLA
    std::map<std::string, double> slaByQos; ///< per QoS class name
    bool powerOffIdle = false;
    Preemption preemption = Preemption::None;
    Migration migration = Migration::None;
    double migrationRestartS = 60; ///< a migrated unit restarts elsewhere: its end moves this much later
    double migrationsPerHour = 0; ///< at most this many migrations per clock hour of the replay; 0 = no limit
    /// The replay window in trace seconds: units submitted outside [windowFromS, windowToS) are
    /// left out (TimedResult::outsideWindow) and the cluster starts empty; -1 = open at that end.
    /// Job and task indices stay those of the whole trace.
    double windowFromS = -1, windowToS = -1;
    bool hasWindow() const { return windowFromS >= 0 || windowToS >= 0; }
    /// Counterfactual fork (incident replay): from the first scheduling pass at or after `atS`
    /// on, `policy` places (reset on the cluster of that moment; same RNG stream). Not owned;
    /// nullptr = no fork. Never stored with a RunSpec: incident replay sets it on a copy.
    struct Fork {
        double atS = -1;
        policy::PlacementPolicy* policy = nullptr;
    } fork;
};

/// One scheduling unit: a gang job, or one task of a non-gang job.
struct UnitResult {
    int32_t job = -1;
    int32_t firstTask = -1;
    int32_t taskCount = 0;
    double submitS = -1;
    double startS = -1; ///< -1 = never started (failed)
    double finishS = -1;
    double runS = 0;
    bool failed = false; ///< can never fit the cluster
};

/// Sampled state at one tick.
struct SeriesPoint {
    double timeS = 0;
    double cpuUtil = 0, memUtil = 0, gpuUtil = 0; ///< allocated / capacity, 0..1
    int32_t activeNodes = 0;
    double gpuFragRate = 0, cpuFragRate = 0, gpuFragAmount = 0;
    double p99WaitS = -1; ///< of jobs started in the window ending here; -1 none
    int32_t queued = 0, running = 0;
    double powerW = 0;
};

struct TimedResult {
    std::string policy;
    std::string queue;
    std::string backfill;
    std::string head; ///< "resort" or "commit"
    double windowFromS = -1, windowToS = -1; ///< TimedOptions' window (-1 = open)
    uint64_t seed = 0;
    /// What the seed changed: "schedule" (a random policy or random ties drew for placements),
    /// "candidates" (only the order of equal candidates in the decision log), "none".
    std::string seedUse = "none";
    std::map<std::string, double> slaS; ///< the SLA (max wait, s) applied per class ("default" = no class)
    int64_t units = 0; ///< scheduled units (jobs, or tasks of non-gang jobs)
    int64_t completed = 0;
    int64_t failed = 0; ///< could never run
    int64_t skipped = 0; ///< no submit or run time in the trace
    int64_t outsideWindow = 0; ///< submitted outside TimedOptions' window
    int64_t backfilled = 0; ///< units started by EASY backfilling
    /// GPU units that headed the queue and did not start although the cluster's free cpu, memory
    /// and gpu-milli, each summed over the nodes, covered their request: "GPUs free but scheduling
    /// fails" (placement, not capacity, held them; making room exists for them). Each unit once.
    int64_t gpuBlockedWithRoom = 0;
    std::string preemption = "none", migration = "none"; ///< TimedOptions' choices
    int64_t preemptions = 0; ///< evictions of running units to make room (a unit may count more than once)
    int64_t migrations = 0; ///< running units moved to make room
    /// Work thrown away: each evicted unit's time run so far, each migration's restart cost, times
    /// the unit's GPUs (whole GPUs' worth) and cores.
    double workLostGpuHours = 0, workLostCpuHours = 0;
    /// Logged replay: decisions of the log our model cannot reproduce, by kind: "no-logged-start"
    /// (the log has no start for a job it ran), "no-logged-node", "unknown-node", "overcommitted"
    /// (the logged node lacks room by our request accounting; the unit does not start),
    /// "start-before-submit" (started at its submit instead). Empty for other policies.
    std::map<std::string, int64_t> divergences;
    std::string firstDivergence; ///< the first, with job, node, resource and amounts
    Distribution waitS, jctS, boundedSlowdown; ///< over completed units
    double meanCpuUtil = 0, meanMemUtil = 0, meanGpuUtil = 0; ///< time-weighted, 0..1
    double meanGpuFragRate = 0; ///< time-weighted
    double meanCpuFragRate = 0; ///< time-weighted CPU fragmentation rate (cores no typical task can use / free cores)
    double energyKWh = -1;
    std::map<std::string, int64_t> slaViolations; ///< per QoS class ("default" = no class)
    double makespanS = 0; ///< last finish - first submit
    double simSeconds = 0; ///< wall time of the event loop
    uint64_t stateHash = 0; ///< of the final cluster (empty again once every unit finished)
    /// Order-dependent hash of every start: unit, start time, node and GPUs of each task, in the
    /// order units started. Two runs with the same schedule have the same hash.
    uint64_t scheduleHash = 0;
    std::vector<UnitResult> units_;
    std::vector<SeriesPoint> series;
    NodeHeat heat; ///< per-node utilization, sampled at the ticks (empty unless Recording::heat)
    StateHashes stateHashes; ///< (k, hash of the state decision k saw); needs Recording::journal
    DecisionLog decisions;
};

/// Runs the replay, recording what `recording` asks for and telling `observers`
/// (replay_observer.h) as it goes.
Result<TimedResult> runTimedReplay(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const TimedOptions& options, const Recording& recording, const Observers& observers = {}, ProgressFn progress = {},
    CancelToken cancel = {});
/// The same with the default Recording (decisions with 8 candidates, heat; no journal).
Result<TimedResult> runTimedReplay(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const TimedOptions& options, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::sim
