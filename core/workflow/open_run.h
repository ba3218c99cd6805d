#pragma once
/// Opening a run for incident replay, for both front ends: a stored run of a project (its trace
/// from the project or its recorded files, its stored journal when it fits, else a replay
/// checked decision by decision against the stored log and state hashes), or a run of the
/// session that kept its journal (no replay at all).

#include "execute.h"

#include "incident/run_index.h"
#include "store/project.h"

#include <memory>
#include <string>

namespace schedlab::workflow {

struct OpenRunOptions {
    bool forceReplay = false; ///< ignore a stored journal and replay
};

struct OpenedRun {
    store::RunRow row;
    std::shared_ptr<const incident::RunIndex> index;
    /// Why a stored journal was not used (empty when it was, or there was none).
    std::string journalFallback;
};

/// The trace of stored run `row`: the project's stored copy, else its recorded files reloaded.
Result<std::shared_ptr<const trace::Trace>> traceOfRun(store::Project& project, const store::RunRow& row);

/// Opens run `runId` of `project` for incident replay. `trace` is the run's trace when the
/// caller has it (else traceOfRun). Errors name the run: unknown, not finished, unreadable
/// rows, a replay that departs from the stored log. Reads the project on the calling thread:
/// a worker thread opens its own connection (store::Project::open ReadOnly).
Result<OpenedRun> openStoredRun(store::Project& project, int64_t runId, std::shared_ptr<const trace::Trace> trace = nullptr,
    const OpenRunOptions& options = {}, ProgressFn progress = {}, CancelToken cancel = {});

/// The index of a run of this session: from its journal when it kept one, else a replay.
Result<std::shared_ptr<const incident::RunIndex>> indexOutcome(const RunOutcome& outcome, std::shared_ptr<const trace::Trace> trace,
    ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::workflow
