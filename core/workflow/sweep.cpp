// Running a sweep's shards and merging them (sweep.h); plans are store/sweep_plan.h.

#include "sweep.h"

#include "fine_tune_session.h"
#include "run_recorder.h"
#include "sweep_progress.h"

#include "store/project.h"
#include "trace/trace_loader.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <cstring>
#include <set>

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

/// A training cell's fine-tune session, into `project` with its checkpoints in "<project>.models";
/// the last round's id.
Result<int64_t> runTrainingCell(const SweepCell& c, const trace::Trace& trace, const std::vector<std::string>& files,
    store::Project& project, CancelToken cancel)
{
    const store::SweepTraining& t = *c.train;
    auto reward = rl::RewardConfig::parse(t.weights);
    if (!reward)
        return makeError(ErrorCode::Invalid, "weights '" + t.weights + "': " + reward.error().message);
    SessionOptions s;
    s.rounds = t.rounds;
    rl::TrainOptions& o = s.base.train;
    // The cell's run spec is what every episode and evaluation replays; the plan's pods per
    // episode bound the training episodes only.
    o.run = c.spec;
    if (sim::FillOptions* f = o.run.fillOptions())
        f->maxPods = t.maxPods;
    o.reward = reward.value();
    o.episodes = t.episodes;
    o.learningRate = t.learningRate;
    o.gamma = t.gamma;
    o.batchSize = t.batchSize;
    o.seed = c.spec.seed();
    s.base.fromS = t.fromS;
    s.base.windowS = t.windowS;
    s.base.evalSeeds = t.evalSeeds;
    s.base.baselines = t.baselines;
    std::error_code ec;
    s.base.checkpointDir = std::filesystem::absolute(project.path() + ".models", ec).lexically_normal().string();
    std::filesystem::create_directories(s.base.checkpointDir, ec);
    if (ec)
        return makeError(ErrorCode::Io, "cannot create the checkpoint folder: " + ec.message(), s.base.checkpointDir);
    auto rounds = runSession(trace, files, &project, s, {}, cancel);
    if (!rounds)
        return rounds.error();
    if (rounds->empty() || rounds->back().roundId < 0)
        return makeError(ErrorCode::Invalid, "the session stored no round");
    return rounds->back().roundId;
}

/// The rounds of a project: id -> (status, parent).
Result<std::map<int64_t, std::pair<std::string, int64_t>>> roundsOf(store::Project& project)
{
    auto rows = project.rounds();
    if (!rows)
        return rows.error();
    std::map<int64_t, std::pair<std::string, int64_t>> out;
    for (const store::RoundRow& r : *rows)
        out[r.id] = { r.status, r.parentId };
    return out;
}

bool isRoundKey(const std::string& v) { return v.rfind(store::kRoundKeyPrefix, 0) == 0; }
int64_t roundOfKey(const std::string& v) { return std::atoll(v.c_str() + std::strlen(store::kRoundKeyPrefix)); }

} // namespace

namespace {

/// Runs `cells` of `plan` into `project` (a shard file), skipping those finished there.
Result<ShardReport> runCells(const SweepPlan& plan, const std::vector<const SweepCell*>& cells, store::Project& project, ProgressFn progress,
    CancelToken cancel)
{
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
    auto rounds = roundsOf(project);
    if (!rounds)
        return rounds.error();

    ShardReport report;
    std::map<int, std::pair<std::shared_ptr<trace::Trace>, int64_t>> traces; // plan trace -> (trace, id here)
    for (std::size_t k = 0; k < cells.size(); ++k) {
        const SweepCell& c = *cells[k];
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, "sweep shard cancelled");
        const std::string key = sweepCellKey(plan.id, c.index);
        auto done = project.setting(key);
        if (!done)
            return done.error();
        const bool cellDone = isRoundKey(*done) ? (rounds->count(roundOfKey(*done)) && rounds->at(roundOfKey(*done)).first == "finished")
                                                : (!done->empty() && finished[std::atoll(done->c_str())] == "finished");
        if (cellDone) {
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
        // A training cell: a fine-tune session (restarted whole if interrupted); else one run.
        Result<std::string> doneAs = std::string();
        if (c.train) {
            auto last = runTrainingCell(c, *t.first, plan.traces[std::size_t(c.trace)].files, project, cancel);
            doneAs = last ? Result<std::string>(store::kRoundKeyPrefix + std::to_string(*last)) : Result<std::string>(last.error());
        } else {
            RunRecorder recorder(project, t.second);
            recorder.setRecordDecisions(plan.recordDecisions);
            auto out = recorder.run(c.spec, *t.first, {}, cancel);
            doneAs = out ? Result<std::string>(std::to_string(recorder.lastRunId())) : Result<std::string>(out.error());
        }
        if (!doneAs) {
            if (doneAs.error().isCancelled())
                return doneAs.error();
            ++report.failed;
            report.errors.push_back("cell " + std::to_string(c.index) + ": " + doneAs.error().toString());
        } else {
            if (Status s = project.setSetting(key, *doneAs); !s)
                return s.error();
            ++report.ran;
        }
        if (progress)
            progress(double(k + 1) / double(cells.size()));
    }
    return report;
}

} // namespace

Result<ShardReport> runSweepShard(const SweepPlan& plan, int shard, store::Project& project, ProgressFn progress, CancelToken cancel)
{
    if (shard < 0 || shard >= plan.shards)
        return makeError(ErrorCode::Invalid, "shard " + std::to_string(shard) + " is not one of the plan's 0.." + std::to_string(plan.shards - 1));
    return runCells(plan, plan.cellsOf(shard), project, std::move(progress), cancel);
}

Result<ShardReport> runMissingCells(const SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project* merged,
    store::Project& project, ProgressFn progress, CancelToken cancel)
{
    std::vector<std::string> others;
    for (const std::string& f : shardFiles) {
        std::error_code ec;
        if (!std::filesystem::equivalent(f, project.path(), ec))
            others.push_back(f);
    }
    const SweepProgress done = readSweepProgress(plan, others, merged);
    std::vector<const SweepCell*> cells;
    for (const SweepCell& c : plan.cells)
        if (done.cells[std::size_t(c.index)].status != CellStatus::Finished && done.cells[std::size_t(c.index)].status != CellStatus::Merged)
            cells.push_back(&c);
    return runCells(plan, cells, project, std::move(progress), cancel);
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
        std::vector<int> chainCells;
        std::vector<store::Project::RoundChain> chains; // training cells: their rounds, oldest first
        auto rounds = roundsOf(*shard.value());
        if (!rounds) {
            report.refused.push_back(file + ": " + rounds.error().message);
            continue;
        }
        for (const SweepCell& c : plan.cells) {
            if (have[std::size_t(c.index)])
                continue;
            auto run = shard.value()->setting(sweepCellKey(plan.id, c.index));
            if (!run || run->empty())
                continue;
            if (!isRoundKey(*run)) {
                runs.emplace_back(c.index, std::atoll(run->c_str()));
                continue;
            }
            store::Project::RoundChain chain { {}, sweepCellKey(plan.id, c.index) };
            std::set<int64_t> seen; // a parent loop in a damaged file ends the walk
            for (int64_t r = roundOfKey(*run); r >= 0 && rounds->count(r) && seen.insert(r).second; r = rounds->at(r).second)
                chain.rounds.insert(chain.rounds.begin(), r);
            chains.push_back(std::move(chain));
            chainCells.push_back(c.index);
        }
        shard.value().reset(); // closed before it is attached
        if (!chains.empty()) {
            auto copied = project.copyRoundsFrom(file, chains, project.path() + ".models");
            if (!copied) {
                report.refused.push_back(file + ": " + copied.error().message);
            } else {
                for (std::size_t k = 0; k < chains.size(); ++k) {
                    have[std::size_t(chainCells[k])] = 1;
                    ++((*copied)[k].second ? report.merged : report.already);
                }
            }
        }
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
