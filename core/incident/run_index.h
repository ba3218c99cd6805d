#pragma once
/// Incident replay of one run: the run replayed once more with a StateJournal, checked decision by
/// decision against what was recorded, so the cluster any decision saw can be rebuilt in
/// milliseconds (snapshots + at most StateJournal::spacing() operations), inspected, and
/// re-scored under other policies.

#include "base/progress.h"
#include "base/result.h"
#include "metrics/fragmentation.h"
#include "sim/run_spec.h"
#include "store/project.h"
#include "sim/decision_log.h"
#include "sim/state_journal.h"
#include "trace/trace.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::incident {

/// Immutable once built; safe to read from several threads.
struct RunIndex {
    sim::RunSpec spec;
    std::shared_ptr<const trace::Trace> trace;
    metrics::TypicalWorkload workload; ///< of the trace, for fragmentation of rebuilt states
    sim::StateJournal journal;
    sim::DecisionLog decisions; ///< of the index replay, with statePos; equal to the recorded log
    std::shared_ptr<const sim::FillResult> fill; ///< the index replay's result (fill runs)
    std::shared_ptr<const sim::TimedResult> timed; ///< (timed runs)
    int hashesVerified = 0; ///< recorded state hashes the replay reproduced
    int64_t decisionsVerified = 0; ///< recorded decisions the replay reproduced (0 = no log given)
    bool fromStoredJournal = false; ///< built from the run's stored journal, not by a replay
    double buildSeconds = 0;
};

/// Replays `spec` on `trace` with a journal. With a non-empty `recorded`, every decision (task, outcome, node)
/// must equal the recorded one, and every recorded (k, hash) must match: a difference is an error
/// naming the first decision that departs (trace, options or build changed since the run).
Result<std::shared_ptr<const RunIndex>> buildRunIndex(std::shared_ptr<const trace::Trace> trace, const sim::RunSpec& spec,
    const sim::DecisionLog* recorded = nullptr, const std::vector<std::pair<int64_t, uint64_t>>* recordedHashes = nullptr,
    ProgressFn progress = {}, CancelToken cancel = {});

/// An index from a run's stored journal (store::Project::journal) instead of a replay: `log` and
/// `journal.statePos` must have the same length, every position must lie within the journal, the
/// journal must apply cleanly and end in the stored final hash, and each recorded (k, hash) (fill
/// runs) must be the hash of the state decision k saw. `fill` or `timed` is the stored result.
/// Any failure is an error naming the run's journal; callers fall back to buildRunIndex().
Result<std::shared_ptr<const RunIndex>> indexFromJournal(std::shared_ptr<const trace::Trace> trace, const sim::RunSpec& spec,
    sim::DecisionLog log, store::StoredJournal journal, std::shared_ptr<const sim::FillResult> fill,
    std::shared_ptr<const sim::TimedResult> timed, const std::vector<std::pair<int64_t, uint64_t>>& hashes);

/// Index of the decision nearest to time `x` (timed: seconds; fill: pod number), -1 if none.
/// Among decisions at the same time, the first.
int64_t nearestDecision(const RunIndex& index, double x);

struct Rescored {
    std::string policy;
    bool scored = true; ///< false: the policy's scores carry no preference (Random)
    policy::PlacementDecision decision;
    int rankOfLogged = -1; ///< 1-based rank of the logged choice among its top; -1 = not there
};

/// What the inspector shows for decision k.
struct Inspection {
    int64_t index = -1;
    sim::Decision decision;
    trace::TaskRequest request;
    std::string jobName; ///< empty when the trace has no job names
    double submitS = -1; ///< timed: the job's submit time
    std::shared_ptr<const cluster::ClusterState> state; ///< the cluster the decision saw
    std::vector<policy::Candidate> candidates; ///< as the run's policy scored them, best first
    int rankOfChoice = -1; ///< 1-based, among candidates; -1 = failed, waited or not listed
    std::optional<std::array<float, sim::kRewardTerms>> reward;
    double gpuAllocPct = 0, gpuFragRatePct = 0, cpuAllocPct = 0;
    int activeNodes = 0;
    /// Nodes by why they could not host the request then (index = cluster::Misfit; [0] = nodes that fit).
    std::array<int, cluster::kMisfitKinds> misfits {};
    std::vector<Rescored> rescored;
};

/// Rebuilds the state decision k saw and re-scores its request under each of `rescore` (policy
/// names or model specs) with `topK` candidates; k8s-default / k8s-sampling under
/// `schedulerConfig` when given, else the run's. Errors: k out of range, unknown policy.
Result<Inspection> inspect(const RunIndex& index, int64_t k, const std::vector<std::string>& rescore = {}, int topK = 8,
    const std::string* schedulerConfig = nullptr);

/// Text of an outcome: "placed", "failed", "waited", "evicted", "migrated".
const char* outcomeName(sim::Outcome o);

} // namespace schedlab::incident
