// Running a sweep's shards and merging them (sweep.h); plans are store/sweep_plan.h.

#include "sweep.h"

#include "run_recorder.h"

#include "store/project.h"
#include "trace/trace_loader.h"

#include <cstdlib>
#include <memory>

namespace schedlab::workflow {

namespace {

Result<trace::Trace> loadPlannedTrace(const SweepTrace& t, const std::string& what)
{
    for (std::size_t i = 0; i < t.files.size(); ++i) {
        auto sha = store::sweepFileSha256(t.files[i]);
        if (!sha)
            return sha.error();
        if (i < t.sha256.size() && *sha != t.sha256[i])
            return makeError(ErrorCode::Invalid, what + ": the file changed since the sweep was planned (its SHA-256 differs)", t.files[i]);
    }
    auto loaded = trace::loadTrace(t.files, trace::importOptionsFromMetadata(t.importOptions));
    if (!loaded)
        return loaded.error();
    return std::move(loaded->trace);
}

} // namespace

Result<ShardReport> runSweepShard(const SweepPlan& plan, int shard, store::Project& project, ProgressFn progress, CancelToken cancel)
{
    if (shard < 0 || shard >= plan.shards)
        return makeError(ErrorCode::Invalid, "shard " + std::to_string(shard) + " is not one of the plan's 0.." + std::to_string(plan.shards - 1));
    // A shard file holds one plan's cells: another plan's is refused, not mixed in.
    auto owner = project.setting("sweep.plan");
    if (!owner)
        return owner.error();
    if (!owner->empty() && *owner != plan.id)
        return makeError(ErrorCode::Invalid, "holds cells of sweep " + *owner + ", not of this one (" + plan.id + ")", project.path());
    if (owner->empty())
        if (Status s = project.setSetting("sweep.plan", plan.id); !s)
            return s.error();
    std::map<int64_t, std::string> finished; // run id -> status, of this project
    auto rows = project.runs();
    if (!rows)
        return rows.error();
    for (const store::RunRow& r : *rows)
        finished[r.id] = r.status;

    ShardReport report;
    const std::vector<const SweepCell*> cells = plan.cellsOf(shard);
    std::map<int, std::pair<std::shared_ptr<trace::Trace>, int64_t>> traces; // plan trace -> (trace, id here)
    for (std::size_t k = 0; k < cells.size(); ++k) {
        const SweepCell& c = *cells[k];
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, "sweep shard cancelled");
        const std::string key = sweepCellKey(plan.id, c.index);
        auto done = project.setting(key);
        if (!done)
            return done.error();
        if (!done->empty() && finished[std::atoll(done->c_str())] == "finished") {
            ++report.skipped;
            continue;
        }
        auto& t = traces[c.trace];
        if (!t.first) {
            auto loaded = loadPlannedTrace(plan.traces[std::size_t(c.trace)], "trace " + std::to_string(c.trace));
            if (!loaded)
                return loaded.error();
            t.first = std::make_shared<trace::Trace>(std::move(loaded).value());
            auto id = project.addTrace(*t.first, plan.traces[std::size_t(c.trace)].files);
            if (!id)
                return id.error();
            t.second = *id;
        }
        RunRecorder recorder(project, t.second);
        recorder.setRecordDecisions(plan.recordDecisions);
        auto out = recorder.run(c.spec, *t.first, {}, cancel);
        if (!out) {
            if (out.error().isCancelled())
                return out.error();
            ++report.failed;
            report.errors.push_back("cell " + std::to_string(c.index) + ": " + out.error().toString());
        } else {
            if (Status s = project.setSetting(key, std::to_string(recorder.lastRunId())); !s)
                return s.error();
            ++report.ran;
        }
        if (progress)
            progress(double(k + 1) / double(cells.size()));
    }
    return report;
}

Result<MergeReport> mergeSweep(const SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project& project)
{
    MergeReport report;
    std::vector<char> have(plan.cells.size(), 0);
    for (const SweepCell& c : plan.cells) {
        auto done = project.setting(sweepCellKey(plan.id, c.index));
        if (!done)
            return done.error();
        if (!done->empty()) {
            have[std::size_t(c.index)] = 1;
            ++report.already;
        }
    }
    for (const std::string& file : shardFiles) {
        auto shard = store::Project::open(file, store::Project::OpenMode::ReadOnly);
        if (!shard) {
            report.refused.push_back(shard.error().toString());
            continue;
        }
        auto owner = shard.value()->setting("sweep.plan");
        if (!owner || *owner != plan.id) {
            report.refused.push_back(file + ": holds cells of sweep " + (owner && !owner->empty() ? *owner : std::string("(none)"))
                + ", not of this one (" + plan.id + ")");
            continue;
        }
        if (shard.value()->schemaVersion() != project.schemaVersion()) {
            report.refused.push_back(file + ": schema " + std::to_string(shard.value()->schemaVersion()) + ", the project's is "
                + std::to_string(project.schemaVersion()) + " (open both with the same schedlab first)");
            continue;
        }
        std::vector<std::pair<int, int64_t>> runs; // cell, run id in the shard
        for (const SweepCell& c : plan.cells) {
            if (have[std::size_t(c.index)])
                continue;
            auto run = shard.value()->setting(sweepCellKey(plan.id, c.index));
            if (run && !run->empty())
                runs.emplace_back(c.index, std::atoll(run->c_str()));
        }
        shard.value().reset(); // closed before it is attached
        if (runs.empty())
            continue;
        std::vector<std::pair<int64_t, std::string>> keyed;
        for (const auto& [cell, runId] : runs)
            keyed.emplace_back(runId, sweepCellKey(plan.id, cell));
        auto copied = project.copyRunsFrom(file, keyed);
        if (!copied) {
            report.refused.push_back(file + ": " + copied.error().message);
            continue;
        }
        for (std::size_t k = 0; k < runs.size(); ++k) {
            have[std::size_t(runs[k].first)] = 1;
            if ((*copied)[k].second)
                ++report.merged;
            else
                ++report.already;
        }
    }
    for (const SweepCell& c : plan.cells)
        if (!have[std::size_t(c.index)])
            report.missing.push_back(c.index);
    return report;
}

} // namespace schedlab::workflow
