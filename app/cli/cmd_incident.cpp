// `schedlab-cli decisions` and `schedlab-cli fork`: incident decision replay of a stored run.
// The state a decision saw is rebuilt by replaying the run deterministically up to it (checked
// against the state hashes recorded during the run); its candidates are shown as scored by the
// run's policy and re-scored by others; a fork continues the run from there under another policy.
// Fill-experiment runs for now.

#include "cli_args.h"
#include "commands.h"

#include "metrics/fragmentation.h"
#include "rl/learned_policy.h"
#include "sim/fill_experiment.h"
#include "store/project.h"
#include "trace/trace_loader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <map>

namespace schedlab::cli {

namespace {

struct RunContext {
    std::unique_ptr<store::Project> project;
    store::RunRow row;
    trace::Trace trace;
    sim::FillOptions fill;
};

// The run, its trace (stored copy first, else the recorded files) and its fill options.
Result<RunContext> openRun(const Args& a, const char* command)
{
    auto path = a.value("project");
    auto runText = a.value("run");
    if (!path || !runText)
        return makeError(ErrorCode::Invalid, std::string(command) + ": give --project P --run R");
    RunContext c;
    auto p = store::Project::open(*path, store::Project::OpenMode::ReadOnly);
    if (!p)
        return p.error();
    c.project = std::move(p).value();
    std::string error;
    const int64_t runId = a.integer("run", -1, error);
    if (!error.empty())
        return makeError(ErrorCode::Invalid, std::string(command) + ": " + error);
    auto runs = c.project->runs();
    if (!runs)
        return runs.error();
    bool found = false;
    for (const store::RunRow& r : runs.value())
        if (r.id == runId) {
            c.row = r;
            found = true;
        }
    if (!found)
        return makeError(ErrorCode::Invalid, "no run " + std::to_string(runId) + " in " + *path);
    if (c.row.status != "finished")
        return makeError(ErrorCode::Invalid, "run " + std::to_string(runId) + " is " + c.row.status + "; it has no decisions");
    if (c.row.mode != "fill")
        return makeError(ErrorCode::Invalid,
            "run " + std::to_string(runId) + " is a timed replay; incident replay covers fill-experiment runs so far");
    if (auto stored = c.project->storedTrace(c.row.traceId)) {
        c.trace = std::move(stored).value();
    } else {
        auto files = c.project->traceFiles(c.row.traceId);
        if (!files)
            return files.error();
        auto loaded = trace::loadTrace(files.value());
        if (!loaded)
            return Error { ErrorCode::Io, "the run's trace could not be reopened (" + loaded.error().toString()
                    + "); import it into the project with schedlab-cli import", *path, -1, -1 };
        c.trace = std::move(loaded->trace);
    }
    const QJsonObject options = QJsonDocument::fromJson(QByteArray::fromStdString(c.row.optionsJson)).object();
    c.fill.seed = c.row.seed;
    c.fill.ratio = options.value("ratio").toDouble(1.3);
    c.fill.tieBreak = options.value("tieBreak").toString() == "first" ? policy::TieBreak::First : policy::TieBreak::Random;
    c.fill.recordDecisions = false;
    c.fill.recordHeat = false;
    return c;
}

QString requestText(const trace::TaskRequest& r)
{
    return QStringLiteral("cpu %1 m, mem %2 MiB, %3 GPU x %4 m").arg(r.cpuMilli).arg(r.memMiB).arg(r.numGpu).arg(r.gpuMilli);
}

QJsonArray candidatesJson(const policy::Candidate* c, int n, int chosen)
{
    QJsonArray out;
    for (int i = 0; i < n; ++i)
        out.append(QJsonObject { { "node", c[i].node }, { "score", c[i].score }, { "raw", c[i].raw },
            { "gpuMask", QString::number(qulonglong(c[i].gpuMask), 16) }, { "chosen", c[i].node == chosen } });
    return out;
}

} // namespace

int runDecisions(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, { "project", "run", "index", "at", "rescore" }, { "json" }); !e.empty())
        return fail("decisions: " + e, 2);
    auto ctx = openRun(a, "decisions");
    if (!ctx)
        return fail(ctx.error().toString(), ctx.error().code == ErrorCode::Invalid ? 2 : 1);
    RunContext& c = ctx.value();
    auto log = c.project->decisions(c.row.id);
    if (!log)
        return fail(log.error().toString());
    const auto& ds = log->decisions();
    std::string error;
    int64_t k = a.integer("index", a.integer("at", -1, error), error); // fill: time = pod number
    if (!error.empty())
        return fail("decisions: " + error, 2);
    const bool json = a.flag("json");
    if (k < 0) {
        // Overview: outcomes and bursts of failures (where to look first).
        int64_t failed = 0;
        std::vector<std::pair<int64_t, int64_t>> bursts; // start, length
        for (std::size_t i = 0; i < ds.size(); ++i) {
            if (ds[i].outcome != sim::Outcome::Failed)
                continue;
            ++failed;
            if (!bursts.empty() && bursts.back().first + bursts.back().second == int64_t(i))
                ++bursts.back().second;
            else
                bursts.push_back({ int64_t(i), 1 });
        }
        std::sort(bursts.begin(), bursts.end(), [](auto x, auto y) { return x.second != y.second ? x.second > y.second : x.first < y.first; });
        if (bursts.size() > 10)
            bursts.resize(10);
        if (json) {
            QJsonArray b;
            for (auto [s, n] : bursts)
                b.append(QJsonObject { { "index", double(s) }, { "failed", double(n) } });
            std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.decisions/1" }, { "run", double(c.row.id) },
                                         { "decisions", double(ds.size()) }, { "failed", double(failed) }, { "failureBursts", b } })
                           .toJson(QJsonDocument::Indented)
                           .constData(),
                stdout);
            return 0;
        }
        std::printf("run %lld (%s, seed %llu): %zu decisions, %lld failed\n", static_cast<long long>(c.row.id), c.row.policy.c_str(),
            static_cast<unsigned long long>(c.row.seed), ds.size(), static_cast<long long>(failed));
        for (auto [s, n] : bursts)
            std::printf("  failure burst at decision %lld: %lld in a row  (schedlab-cli decisions ... --index %lld)\n",
                static_cast<long long>(s), static_cast<long long>(n), static_cast<long long>(s));
        return 0;
    }
    if (k >= int64_t(ds.size()))
        return fail("decisions: --index " + std::to_string(k) + " is past the run's " + std::to_string(ds.size()) + " decisions", 2);

    // Rebuild the state decision k saw, and check it against the hashes recorded during the run.
    auto policy = rl::makeAnyPolicy(c.row.policy);
    if (!policy)
        return fail(policy.error().toString());
    auto stored = c.project->stateHashes(c.row.id);
    if (!stored)
        return fail(stored.error().toString());
    sim::FillOptions o = c.fill;
    o.stopAt = k;
    auto rebuilt = sim::runFillExperiment(c.trace, *policy.value(), o);
    if (!rebuilt)
        return fail(rebuilt.error().toString());
    if (!rebuilt->state)
        return fail("decisions: the replay ended before decision " + std::to_string(k));
    int verified = 0;
    std::map<int64_t, uint64_t> want(stored->begin(), stored->end());
    for (const auto& [idx, h] : rebuilt->stateHashes)
        if (auto it = want.find(idx); it != want.end()) {
            if (it->second != h)
                return fail("decisions: the rebuilt state differs from the recorded one at decision " + std::to_string(idx)
                    + " (hash " + std::to_string(h) + " vs " + std::to_string(it->second) + "): trace or build changed since the run");
            ++verified;
        }
    const sim::ClusterState& state = *rebuilt->state;
    const sim::Decision& d = ds[std::size_t(k)];
    const trace::TaskRequest& req = c.trace.tasks[std::size_t(rebuilt->podIndexStopped)].request;
    if (d.task != int32_t(rebuilt->podIndexStopped))
        return fail("decisions: the rebuilt replay reaches another pod at decision " + std::to_string(k));
    metrics::FragTracker frag(state, metrics::TypicalWorkload::fromTrace(c.trace));

    // Its candidates under the run's policy (as logged) and re-scored under others.
    const policy::Candidate* top = log->candidatesOf(d);
    int rank = -1;
    for (int i = 0; i < d.candidateCount; ++i)
        if (top[i].node == d.node)
            rank = i + 1;
    struct Rescore {
        std::string policy;
        policy::PlacementDecision decision;
        int rankOfChosen = -1;
    };
    std::vector<Rescore> rescored;
    for (const std::string& name : splitList(a.value("rescore").value_or(""))) {
        auto p = rl::makeAnyPolicy(name);
        if (!p)
            return fail("decisions: " + p.error().toString(), 2);
        p.value()->setTieBreak(c.fill.tieBreak);
        p.value()->reset(policy::PolicyContext { c.trace, &frag }, state);
        Rng rng(c.fill.seed ^ 0x9e3779b97f4a7c15ull);
        Rescore r { name, p.value()->place(state, policy::PlacementRequest { req, nullptr, nullptr, double(k) }, rng, 8), -1 };
        for (std::size_t i = 0; i < r.decision.top.size(); ++i)
            if (r.decision.top[i].node == d.node)
                r.rankOfChosen = int(i) + 1;
        rescored.push_back(std::move(r));
    }
    const double allocPct = 100.0 * double(state.allocGpuMilli()) / double(std::max<int64_t>(1, state.totalGpuMilli()));
    if (json) {
        QJsonArray rs;
        for (const Rescore& r : rescored)
            rs.append(QJsonObject { { "policy", QString::fromStdString(r.policy) }, { "choice", r.decision.node },
                { "feasible", r.decision.feasible }, { "rankOfLoggedChoice", r.rankOfChosen },
                { "candidates", candidatesJson(r.decision.top.data(), int(r.decision.top.size()), r.decision.node) } });
        const char* outcome = d.outcome == sim::Outcome::Placed ? "placed" : d.outcome == sim::Outcome::Failed ? "failed" : "waited";
        QJsonObject o { { "schema", "schedlab.decision/1" }, { "run", double(c.row.id) }, { "index", double(k) },
            { "time", d.timeS }, { "task", d.task }, { "request", requestText(req) }, { "outcome", outcome }, { "node", d.node },
            { "feasible", d.feasible }, { "rankOfChoice", rank }, { "stateHashesVerified", verified },
            { "cluster", QJsonObject { { "gpuAllocPct", allocPct }, { "gpuFragRatePct", 100.0 * frag.gpuFragRate() },
                             { "activeNodes", state.activeNodes() } } },
            { "candidates", candidatesJson(top, d.candidateCount, d.node) }, { "rescored", rs } };
        if (const float* t = log->rewardOf(d))
            o["reward"] = QJsonObject { { "balance", t[0] }, { "packing", t[1] }, { "success", t[2] }, { "custom", t[3] },
                { "tail", t[4] }, { "total", t[5] } };
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    std::printf("run %lld (%s, seed %llu), decision %lld of %zu: pod %d (%s)\n", static_cast<long long>(c.row.id),
        c.row.policy.c_str(), static_cast<unsigned long long>(c.row.seed), static_cast<long long>(k), ds.size(), d.task,
        qPrintable(requestText(req)));
    std::printf("  outcome: %s%s, %d feasible nodes%s\n",
        d.outcome == sim::Outcome::Placed ? "placed on node " : d.outcome == sim::Outcome::Failed ? "FAILED (fits nowhere)" : "waited",
        d.outcome == sim::Outcome::Placed ? std::to_string(d.node).c_str() : "", d.feasible,
        rank > 0 ? (", rank " + std::to_string(rank) + " of the logged candidates").c_str() : "");
    if (const float* t = log->rewardOf(d))
        std::printf("  reward: %.4f = balance %.3f, packing %.3f, success %.3f, custom %.3f (weighted) + tail %.3f\n", t[5], t[0], t[1],
            t[2], t[3], t[4]);
    std::printf("  cluster then: GPU allocation %.2f %%, GPU fragmentation rate %.2f %%, %d active nodes; %d state hash(es) verified\n",
        allocPct, 100.0 * frag.gpuFragRate(), state.activeNodes(), verified);
    auto printNode = [&](const policy::Candidate& cand, const char* mark) {
        const int n = cand.node;
        std::string gpus;
        for (int g = 0; g < state.numGpu(n); ++g)
            gpus += (g ? "," : "") + std::to_string(state.gpuFree(n, g));
        std::printf("    %s node %5d  score %10.4f  raw %8.2f  free cpu %7lld m, mem %8lld MiB, GPU free [%s]\n", mark, n, cand.score,
            cand.raw, static_cast<long long>(state.freeCpu(n)), static_cast<long long>(state.freeMem(n)), gpus.c_str());
    };
    std::printf("  candidates as %s scored them (best first):\n", c.row.policy.c_str());
    for (int i = 0; i < d.candidateCount; ++i)
        printNode(top[i], top[i].node == d.node ? "*" : " ");
    for (const Rescore& r : rescored) {
        std::printf("  re-scored by %s: would choose node %d%s\n", r.policy.c_str(), r.decision.node,
            r.rankOfChosen > 0 ? (" (the logged choice ranks " + std::to_string(r.rankOfChosen) + ")").c_str()
                               : " (the logged choice is not in its top 8)");
        for (const policy::Candidate& cand : r.decision.top)
            printNode(cand, cand.node == r.decision.node ? ">" : " ");
    }
    return 0;
}

int runFork(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, { "project", "run", "index", "policy" }, { "json" }); !e.empty())
        return fail("fork: " + e, 2);
    auto ctx = openRun(a, "fork");
    if (!ctx)
        return fail(ctx.error().toString(), ctx.error().code == ErrorCode::Invalid ? 2 : 1);
    RunContext& c = ctx.value();
    std::string error;
    const int64_t k = a.integer("index", -1, error);
    if (!error.empty() || k < 0 || !a.value("policy"))
        return fail("fork: give --index K (>= 0) and --policy B", 2);
    auto original = rl::makeAnyPolicy(c.row.policy);
    auto fork = rl::makeAnyPolicy(*a.value("policy"));
    if (!original)
        return fail(original.error().toString());
    if (!fork)
        return fail("fork: " + fork.error().toString(), 2);
    sim::FillOptions o = c.fill;
    o.forkAt = k;
    o.forkPolicy = fork.value().get();
    auto r = sim::runFillExperiment(c.trace, *original.value(), o);
    if (!r)
        return fail(r.error().toString());
    if (k >= r->pods)
        return fail("fork: --index " + std::to_string(k) + " is past the run's " + std::to_string(r->pods) + " decisions", 2);
    auto summary = c.project->summary(c.row.id);
    if (!summary)
        return fail(summary.error().toString());
    std::map<std::string, double> s(summary->begin(), summary->end());
    struct Row {
        const char* name;
        double original, fork;
    };
    const Row rows[] = { { "finalGpuAllocPct", s["finalGpuAllocPct"], r->finalGpuAllocPct },
        { "finalFragRatePct", s["finalFragRatePct"], r->finalFragRatePct }, { "failedPods", s["failed"], double(r->failed) },
        { "failedGpuMilli", s["failedGpuMilli"], double(r->failedGpuMilli) } };
    if (a.flag("json")) {
        QJsonObject m;
        for (const Row& row : rows)
            m[row.name] = QJsonObject { { "original", row.original }, { "fork", row.fork }, { "delta", row.fork - row.original } };
        QJsonArray curve;
        for (const sim::FillPoint& p : r->curve)
            curve.append(QJsonObject { { "arrivedPct", p.arrivedPct }, { "gpuAllocPct", p.gpuAllocPct }, { "fragRatePct", p.fragRatePct } });
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.fork/1" }, { "run", double(c.row.id) }, { "index", double(k) },
                                     { "from", QString::fromStdString(c.row.policy) }, { "to", QString::fromStdString(*a.value("policy")) },
                                     { "metrics", m }, { "curve", curve } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("fork of run %lld (%s, seed %llu) at decision %lld under %s:\n", static_cast<long long>(c.row.id), c.row.policy.c_str(),
        static_cast<unsigned long long>(c.row.seed), static_cast<long long>(k), a.value("policy")->c_str());
    std::printf("  %-18s %12s %12s %12s\n", "metric", "original", "fork", "delta");
    for (const Row& row : rows)
        std::printf("  %-18s %12.2f %12.2f %+12.2f\n", row.name, row.original, row.fork, row.fork - row.original);
    return 0;
}

} // namespace schedlab::cli
