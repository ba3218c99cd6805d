#pragma once
/// Recording runs in a project, the same way for every front end: a run row (store/
/// run_spec_codec.h), its results, decision log, state hashes and state journal. The CLI records
/// as it runs (the row exists while the run does, so an interrupted run is visible as such); the
/// workbench runs first and stores on Save. Both write identical rows for the same spec.

#include "execute.h"

#include "store/project.h"

namespace schedlab::workflow {

class RunRecorder {
public:
    /// Runs go into `project` (not owned, must outlive the recorder) under trace `traceId`.
    RunRecorder(store::Project& project, int64_t traceId)
        : m_project(project)
        , m_traceId(traceId)
    {
    }

    /// Inserts the run as running, executes it (recording decisions and journal), stores the
    /// results; a failed or cancelled run is marked so and its error returned.
    Result<RunOutcome> run(const sim::RunSpec& spec, const trace::Trace& trace, ProgressFn progress = {}, CancelToken cancel = {});

    /// Stores a run executed earlier; returns its run id. Rows equal those of run() but for the
    /// id and the clock columns. An outcome without a journal is stored without one.
    Result<int64_t> store(const RunOutcome& outcome);

    /// Id of the last run inserted by run() or store(); -1 before.
    int64_t lastRunId() const { return m_lastId; }
    /// run() keeps the decision log and state journal (the default) or only results, series and
    /// summaries (a sweep's cells: a fraction of the bytes; incident replay then replays the run).
    void setRecordDecisions(bool on) { m_execute.record = on; }
    /// Candidates run() keeps per logged decision (default 8).
    void setTopK(int topK) { m_execute.topK = topK; }

private:
    Status finish(int64_t runId, const RunOutcome& outcome);
    store::Project& m_project;
    int64_t m_traceId;
    int64_t m_lastId = -1;
    ExecuteOptions m_execute; ///< what run() records
};

} // namespace schedlab::workflow
