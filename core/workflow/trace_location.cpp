#include "trace_location.h"

#include "trace/trace_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace schedlab::workflow {

namespace {
    bool exists(const std::string& path)
    {
        std::error_code ec;
        return std::filesystem::exists(std::filesystem::path(path), ec);
    }
} // namespace

Result<std::vector<MissingTrace>> missingTraces(store::Project& project)
{
    auto runs = project.runs();
    if (!runs)
        return runs.error();
    auto rounds = project.rounds();
    if (!rounds)
        return rounds.error();
    std::map<int64_t, MissingTrace> byTrace;
    for (const store::RunRow& r : runs.value())
        if (r.status == "finished" && r.traceId >= 0)
            byTrace[r.traceId].runs.push_back(r.id);
    for (const store::RoundRow& r : rounds.value())
        if (r.status == "finished" && r.traceId >= 0)
            byTrace[r.traceId].rounds.push_back(r.id);
    std::vector<MissingTrace> out;
    for (auto& [traceId, m] : byTrace) {
        auto stored = project.hasStoredTrace(traceId);
        if (!stored)
            return stored.error();
        if (stored.value())
            continue; // reopened from the project's own copy
        auto files = project.traceFiles(traceId);
        if (!files)
            return files.error();
        m.traceId = traceId;
        m.files = std::move(files).value();
        std::copy_if(m.files.begin(), m.files.end(), std::back_inserter(m.missing),
            [](const std::string& f) { return !exists(f); });
        if (!m.missing.empty())
            out.push_back(std::move(m));
    }
    return out;
}

Result<std::vector<std::string>> relocatedFiles(const std::vector<std::string>& recorded, const std::string& picked)
{
    const std::filesystem::path chosen(picked);
    if (recorded.size() <= 1)
        return std::vector<std::string> { picked };
    const std::filesystem::path folder = chosen.parent_path();
    bool named = false;
    std::string names;
    std::vector<std::string> out;
    for (const std::string& f : recorded) {
        const std::filesystem::path name = std::filesystem::path(f).filename();
        named = named || name == chosen.filename();
        names += (names.empty() ? "" : ", ") + name.string();
        out.push_back((folder / name).string());
    }
    if (!named)
        return makeError(ErrorCode::Invalid,
            "the trace is " + std::to_string(recorded.size()) + " files (" + names
                + "); pick one of them where they are now: the others are looked for beside it",
            picked);
    return out;
}

Result<std::vector<std::string>> relocateTrace(store::Project& project, int64_t traceId, const std::string& picked,
    Relocation how, ProgressFn progress, CancelToken cancel)
{
    auto recorded = project.traceFiles(traceId);
    if (!recorded)
        return recorded.error();
    auto files = relocatedFiles(recorded.value(), picked);
    if (!files)
        return files.error();
    for (const std::string& f : files.value())
        if (!exists(f))
            return makeError(ErrorCode::Io, "not found (the trace's files are looked for beside the one picked)", f);
    if (how == Relocation::Check) {
        if (Status s = project.checkTraceFiles(traceId, files.value()); !s)
            return s.error();
        return files;
    }
    if (Status s = project.relocateTrace(traceId, files.value()); !s)
        return s.error();
    if (how == Relocation::Import) {
        auto options = project.traceImportOptions(traceId);
        if (!options)
            return options.error();
        auto loaded = trace::loadTrace(files.value(), options.value(), std::move(progress), std::move(cancel));
        if (!loaded)
            return loaded.error();
        auto id = project.importTrace(loaded->trace, loaded->readPaths());
        if (!id)
            return id.error();
        // The same bytes read the same way hash to the same trace; anything else is a bug to report.
        if (id.value() != traceId)
            return makeError(ErrorCode::Internal,
                "the trace read back is trace " + std::to_string(id.value()) + " of the project, not trace "
                    + std::to_string(traceId),
                project.path());
    }
    return project.traceFiles(traceId);
}

} // namespace schedlab::workflow
