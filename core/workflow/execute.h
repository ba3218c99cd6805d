#pragma once
/// Executing a run spec: the one place both front ends (schedlab-cli and the workbench) turn a
/// spec into a result. It makes the policy (heuristic or model), runs the spec's mode and keeps
/// what incident replay needs (decision log, state journal, state hashes) when asked, so a run
/// stored by either front end carries the same rows.

#include "base/progress.h"
#include "base/result.h"
#include "sim/run_spec.h"
#include "sim/state_journal.h"
#include "trace/trace.h"

#include <memory>

namespace schedlab::workflow {

/// What a run records besides its results, series and heatmap (sim::Recording; the spec holds
/// only what defines the experiment).
struct ExecuteOptions {
    /// Keep the decision log and a state journal (incident replay without a replay, and what a
    /// project stores with the run). Costs memory in proportion to the decisions.
    bool record = true;
    int topK = 8; ///< candidates kept per logged decision (`--top-k`)
};

/// A finished run: its spec and its immutable result (exactly one of fill / timed, by mode).
/// Cheap to copy; safe to read from several threads.
struct RunOutcome {
    sim::RunSpec spec;
    std::shared_ptr<const sim::FillResult> fill;
    std::shared_ptr<const sim::TimedResult> timed;
    std::shared_ptr<const sim::StateJournal> journal; ///< with ExecuteOptions::record; else null

    bool empty() const { return !fill && !timed; }
    const sim::DecisionLog& decisions() const;
    uint64_t stateHash() const;
    double simSeconds() const; ///< wall time of the replay loop
};

/// Runs `spec` on `trace`. A fork or stop in the spec is ignored (incident replay's business);
/// errors: unknown policy, unreadable model, the mode's own errors; cancellation is an error with
/// isCancelled().
Result<RunOutcome> execute(const sim::RunSpec& spec, const trace::Trace& trace, const ExecuteOptions& options = {},
    ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::workflow
