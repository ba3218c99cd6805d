#include "open_run.h"

#include "store/run_spec_codec.h"
#include "trace/trace_loader.h"

namespace schedlab::workflow {

Result<std::shared_ptr<const trace::Trace>> traceOfRun(store::Project& project, const store::RunRow& row)
{
    if (auto stored = project.storedTrace(row.traceId))
        return std::shared_ptr<const trace::Trace>(std::make_shared<trace::Trace>(std::move(stored).value()));
    auto files = project.traceFiles(row.traceId);
    if (!files)
        return files.error();
    auto options = project.traceImportOptions(row.traceId);
    if (!options)
        return options.error();
    auto loaded = trace::loadTrace(files.value(), options.value());
    if (!loaded)
        return Error { ErrorCode::Io, "the trace of run " + std::to_string(row.id) + " could not be reopened (" + loaded.error().toString()
                + "); import it into the project with schedlab-cli import", project.path(), -1, -1 };
    return std::shared_ptr<const trace::Trace>(std::make_shared<trace::Trace>(std::move(loaded->trace)));
}

Result<OpenedRun> openStoredRun(store::Project& project, int64_t runId, std::shared_ptr<const trace::Trace> trace,
    const OpenRunOptions& options, ProgressFn progress, CancelToken cancel)
{
    auto runs = project.runs();
    if (!runs)
        return runs.error();
    OpenedRun out;
    const auto it = std::find_if(runs->begin(), runs->end(), [runId](const store::RunRow& r) { return r.id == runId; });
    if (it == runs->end())
        return makeError(ErrorCode::Invalid, "no run " + std::to_string(runId) + " in " + project.path());
    out.row = *it;
    if (out.row.status != "finished")
        return makeError(ErrorCode::Invalid, "run " + std::to_string(runId) + " is " + out.row.status + "; it has no decisions");
    auto spec = store::specFromRow(out.row);
    if (!spec)
        return spec.error();
    if (!trace) {
        auto t = traceOfRun(project, out.row);
        if (!t)
            return t.error();
        trace = std::move(t).value();
    }
    auto log = project.decisions(runId);
    if (!log)
        return log.error();
    auto hashes = project.stateHashes(runId);
    if (!hashes)
        return hashes.error();
    if (!options.forceReplay) {
        auto stored = project.journal(runId);
        if (!stored)
            return stored.error();
        if (stored.value()) {
            auto result = project.loadRun(runId);
            if (!result)
                return result.error();
            auto fill = result->fill ? std::make_shared<const sim::FillResult>(std::move(*result->fill)) : nullptr;
            auto timed = result->timed ? std::make_shared<const sim::TimedResult>(std::move(*result->timed)) : nullptr;
            auto index = incident::indexFromJournal(trace, spec.value(), log.value(), std::move(*stored.value()), fill, timed, hashes.value());
            if (index) {
                out.index = std::move(index).value();
                return out;
            }
            out.journalFallback = index.error().message;
        }
    }
    // Runs saved without their decisions have nothing to compare against.
    auto index = incident::buildRunIndex(trace, spec.value(), log->size() ? &log.value() : nullptr, &hashes.value(), std::move(progress),
        std::move(cancel));
    if (!index)
        return Error { index.error().code, "run " + std::to_string(runId) + ": " + index.error().message, project.path(), -1, -1 };
    out.index = std::move(index).value();
    return out;
}

Result<std::shared_ptr<const incident::RunIndex>> indexOutcome(const RunOutcome& outcome, std::shared_ptr<const trace::Trace> trace,
    ProgressFn progress, CancelToken cancel)
{
    if (outcome.journal) {
        store::StoredJournal j;
        j.ops = outcome.journal->ops();
        for (const sim::Decision& d : outcome.decisions().decisions())
            j.statePos.push_back(d.statePos);
        j.finalHash = outcome.stateHash();
        const auto& hashes = outcome.fill ? outcome.fill->stateHashes : outcome.timed->stateHashes;
        auto index = incident::indexFromJournal(trace, outcome.spec, outcome.decisions(), std::move(j), outcome.fill, outcome.timed, hashes);
        if (index)
            return index;
    }
    return incident::buildRunIndex(std::move(trace), outcome.spec, nullptr, nullptr, std::move(progress), std::move(cancel));
}

} // namespace schedlab::workflow
