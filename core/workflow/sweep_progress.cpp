// Reading how far a sweep is from its shard files (sweep_progress.h).

#include "sweep_progress.h"

#include "rl/reward.h"
#include "store/project.h"
#include "store/run_spec_codec.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace schedlab::workflow {

const char* cellStatusName(CellStatus s)
{
    switch (s) {
    case CellStatus::Waiting:
        return "waiting";
    case CellStatus::Running:
        return "running";
    case CellStatus::Failed:
        return "failed";
    case CellStatus::Finished:
        return "finished";
    case CellStatus::Merged:
        return "merged";
    }
    return "?";
}

int SweepProgress::count(CellStatus s) const
{
    return int(std::count_if(cells.begin(), cells.end(), [s](const CellProgress& c) { return c.status == s; }));
}

std::vector<std::string> findShardFiles(const std::string& planPath)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path plan(planPath);
    const std::string name = plan.filename().string();
    std::set<std::string> out;
    auto scan = [&](const fs::path& dir, const std::string& prefix) {
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string f = it->path().filename().string();
            if (f.size() > prefix.size() + 9 && f.compare(0, prefix.size(), prefix) == 0 && f.ends_with(".schedlab")
                && it->is_regular_file(ec))
                out.insert(it->path().string());
        }
        ec.clear();
    };
    const fs::path dir = plan.has_parent_path() ? plan.parent_path() : fs::path(".");
    scan(dir, name + ".shard-");
    scan(fs::path(planPath + ".shards"), "shard-");
    scan(dir / "shards", "shard-");
    return { out.begin(), out.end() };
}

namespace {

std::map<std::string, double> summaryOf(store::Project& p, int64_t runId)
{
    std::map<std::string, double> out;
    if (auto s = p.summary(runId))
        for (const auto& [k, v] : *s)
            out[k] = v;
    return out;
}

/// A training cell's figures: its last round's evaluation of the learned policy, mean over seeds.
std::map<std::string, double> roundSummaryOf(store::Project& p, int64_t roundId)
{
    std::map<std::string, double> sum;
    std::map<std::string, int> n;
    if (auto eval = p.roundEval(roundId))
        for (const store::EvalValue& v : *eval)
            if (v.policy == "learned") {
                sum[v.metric] += v.value;
                ++n[v.metric];
            }
    for (auto& [k, v] : sum)
        v /= n[k];
    return sum;
}

/// The finished cell a key value names: a run ("12") or a training cell's last round ("round:7").
CellProgress finishedCell(store::Project& p, const std::string& key, CellStatus status)
{
    CellProgress c;
    c.status = status;
    c.file = p.path();
    if (key.rfind(store::kRoundKeyPrefix, 0) == 0) {
        c.runId = std::atoll(key.c_str() + std::strlen(store::kRoundKeyPrefix));
        c.summary = roundSummaryOf(p, c.runId);
    } else {
        c.runId = std::atoll(key.c_str());
        c.summary = summaryOf(p, c.runId);
    }
    return c;
}

/// A run row's identity as a cell's: policy, seed and the stored options (the spec's encoding).
std::string specKey(const std::string& policy, uint64_t seed, const std::string& mode, const std::string& options)
{
    return policy + '\n' + std::to_string(seed) + '\n' + mode + '\n' + options;
}

} // namespace

SweepProgress readSweepProgress(const store::SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project* merged)
{
    SweepProgress out;
    out.cells.resize(plan.cells.size());
    if (merged)
        for (const store::SweepCell& c : plan.cells)
            if (auto run = merged->setting(store::sweepCellKey(plan.id, c.index)); run && !run->empty())
                out.cells[std::size_t(c.index)] = finishedCell(*merged, *run, CellStatus::Merged);
    std::map<std::string, std::vector<int>> bySpec; // cells by identity, in index order
    std::map<std::string, std::vector<int>> byWeights; // training cells by mode and weights
    for (const store::SweepCell& c : plan.cells) {
        const store::RunInfo info = store::runInfoOf(c.spec, -1);
        if (!c.train) {
            bySpec[specKey(info.policy, info.seed, info.mode, info.optionsJson)].push_back(c.index);
        } else if (auto w = rl::RewardConfig::parse(c.train->weights)) {
            byWeights[std::string(store::roundKindName(store::roundKindOf(c.spec.mode()))) + '\n' + w->toString()].push_back(c.index);
        }
    }
    for (const std::string& file : shardFiles) {
        auto shard = store::Project::open(file, store::Project::OpenMode::ReadOnly);
        if (!shard) {
            out.problems.push_back(shard.error().toString());
            continue;
        }
        store::Project& p = *shard.value();
        auto owner = p.setting("sweep.plan");
        if (!owner || *owner != plan.id) {
            out.problems.push_back(file + ": not a shard of this sweep");
            continue;
        }
        out.shardFiles.push_back(file);
        for (const store::SweepCell& c : plan.cells) {
            CellProgress& cp = out.cells[std::size_t(c.index)];
            if (cp.status == CellStatus::Merged || cp.status == CellStatus::Finished)
                continue;
            if (auto run = p.setting(store::sweepCellKey(plan.id, c.index)); run && !run->empty())
                cp = finishedCell(p, *run, CellStatus::Finished);
        }
        // Attempts that did not finish (newest last): the first unfinished cell with that spec.
        auto rows = p.runs();
        if (!rows) {
            out.problems.push_back(rows.error().toString());
            continue;
        }
        std::vector<std::tuple<std::string, std::string, int64_t, const std::vector<int>*>> attempts; // status, error, id, cells
        for (const store::RunRow& r : *rows)
            if (r.status != "finished")
                if (const auto it = bySpec.find(specKey(r.policy, r.seed, r.mode, r.optionsJson)); it != bySpec.end())
                    attempts.emplace_back(r.status, r.error, r.id, &it->second);
        if (auto rounds = p.rounds())
            for (const store::RoundRow& r : *rounds)
                if (r.status != "finished")
                    if (const auto it = byWeights.find(std::string(store::roundKindName(r.kind)) + '\n' + r.weights); it != byWeights.end())
                        attempts.emplace_back(r.status, r.error, r.id, &it->second);
        for (const auto& [status, error, id, cells] : attempts) {
            for (int index : *cells) {
                CellProgress& cp = out.cells[std::size_t(index)];
                if (cp.status == CellStatus::Merged || cp.status == CellStatus::Finished)
                    continue;
                cp.status = status == "running" ? CellStatus::Running : CellStatus::Failed;
                cp.file = file;
                cp.runId = id;
                cp.error = error.empty() ? status : error;
                break;
            }
        }
    }
    return out;
}

} // namespace schedlab::workflow
