#include "run_recorder.h"

#include "store/run_spec_codec.h"

namespace schedlab::workflow {

Status RunRecorder::finish(int64_t runId, const RunOutcome& outcome)
{
    const Status done = outcome.fill ? m_project.finishFillRun(runId, *outcome.fill) : m_project.finishTimedRun(runId, *outcome.timed);
    if (!done)
        return done;
    if (outcome.journal)
        return m_project.storeJournal(runId, *outcome.journal, outcome.decisions(), outcome.stateHash());
    return {};
}

Result<RunOutcome> RunRecorder::run(const sim::RunSpec& spec, const trace::Trace& trace, ProgressFn progress, CancelToken cancel)
{
    auto id = m_project.beginRun(store::runInfoOf(spec, m_traceId));
    if (!id)
        return id.error();
    m_lastId = id.value();
    Result<RunOutcome> r = execute(spec, trace, m_execute, std::move(progress), std::move(cancel));
    if (!r) {
        (void)m_project.endRun(id.value(), r.error().isCancelled() ? store::RunStatus::Cancelled : store::RunStatus::Failed,
            r.error().toString());
        return r;
    }
    if (Status st = finish(id.value(), r.value()); !st) {
        (void)m_project.endRun(id.value(), store::RunStatus::Failed, st.error().toString());
        return st.error();
    }
    return r;
}

Result<int64_t> RunRecorder::store(const RunOutcome& outcome)
{
    if (outcome.empty())
        return makeError(ErrorCode::Invalid, "run of " + outcome.spec.policy + " has no result to store");
    auto id = m_project.beginRun(store::runInfoOf(outcome.spec, m_traceId));
    if (!id)
        return id.error();
    m_lastId = id.value();
    if (Status st = finish(id.value(), outcome); !st) {
        (void)m_project.endRun(id.value(), store::RunStatus::Failed, st.error().toString());
        return st.error();
    }
    return id.value();
}

} // namespace schedlab::workflow
