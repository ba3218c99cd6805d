// `schedlab-cli decisions` and `schedlab-cli fork`: incident decision replay of a stored run
// (fill or timed). The run is replayed once with a state journal and checked against its stored
// decision log and state hashes (core/incident); the state any decision saw is then rebuilt from
// the journal, its candidates shown as scored by the run's policy and re-scored by others; a fork
// continues the run from a decision under another policy.

#include "command_table.h"
#include "cli_args.h"
#include "commands.h"

#include "incident/fork.h"
#include "incident/incidents.h"
#include "incident/logged_view.h"
#include "incident/run_index.h"
#include "logged_text.h"
#include "policy/k8s_scheduler_config.h"
#include "workflow/open_run.h"
#include "workflow/run_args.h"
#include "store/project.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <random>

namespace schedlab::cli {

namespace {

struct RunContext {
    std::unique_ptr<store::Project> project;
    store::RunRow row;
    std::shared_ptr<const incident::RunIndex> index;
};

// The run, its trace (stored copy first, else the recorded files), replayed with a journal and
// checked against what the run recorded.
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
    auto opened = workflow::openStoredRun(*c.project, runId, nullptr, workflow::OpenRunOptions { a.flag("replay") });
    if (!opened)
        return opened.error();
    if (!opened->journalFallback.empty())
        std::fprintf(stderr, "%s: run %lld: %s; replaying the run instead\n", path->c_str(), static_cast<long long>(runId),
            opened->journalFallback.c_str());
    c.row = opened->row;
    c.index = opened->index;
    return c;
}

QString requestText(const trace::TaskRequest& r)
{
    return QStringLiteral("cpu %1 m, mem %2 MiB, %3 GPU x %4 m").arg(r.cpuMilli).arg(r.memMiB).arg(r.numGpu).arg(r.gpuMilli);
}

QJsonArray candidatesJson(const std::vector<policy::Candidate>& c, int chosen)
{
    QJsonArray out;
    for (const policy::Candidate& x : c)
        out.append(QJsonObject { { "node", x.node }, { "score", x.score }, { "raw", x.raw },
            { "gpuMask", QString::number(qulonglong(x.gpuMask), 16) }, { "chosen", x.node == chosen } });
    return out;
}

// --index K, or --at T (the decision nearest to T).
Result<int64_t> decisionIndexOf(const Args& a, const incident::RunIndex& index)
{
    std::string error;
    if (a.value("index")) {
        const int64_t k = a.integer("index", -1, error);
        if (!error.empty())
            return makeError(ErrorCode::Invalid, error);
        return k;
    }
    if (!a.value("at"))
        return int64_t(-1);
    auto x = workflow::parseRunTime(*a.value("at"), index.spec.mode());
    if (!x)
        return makeError(ErrorCode::Invalid, "--at: " + x.error().message);
    return incident::nearestDecision(index, x.value());
}

void printIncidents(const std::vector<incident::Incident>& list, bool fill)
{
    for (const incident::Incident& i : list)
        std::printf("  %-20s at %s %-10.0f decision %-7lld %s\n", incident::incidentKindName(i.kind), fill ? "pod" : "t=", i.startX,
            static_cast<long long>(i.decision), i.text.c_str());
}

// --list: the decision table, filtered by job (name substring or index), node, outcome and time.
int listDecisions(const Args& a, const incident::RunIndex& index)
{
    std::string error;
    const int64_t node = a.integer("node", -1, error);
    const int64_t limit = a.integer("limit", 50, error);
    const std::string job = a.value("job").value_or("");
    const std::string outcome = a.value("outcome").value_or("");
    if (!outcome.empty() && outcome != "placed" && outcome != "failed" && outcome != "waited" && outcome != "evicted"
        && outcome != "migrated")
        return fail("decisions: --outcome is placed, failed, waited, evicted or migrated", 2);
    auto timeOf = [&](const char* key, double fallback) -> Result<double> {
        if (!a.value(key))
            return fallback;
        return workflow::parseRunTime(*a.value(key), index.spec.mode());
    };
    auto from = timeOf("from", -1e300), to = timeOf("to", 1e300);
    if (!error.empty() || !from || !to)
        return fail("decisions: " + (!error.empty() ? error : "--from/--to: a duration (timed, e.g. 14h) or a pod number (fill)"), 2);
    const trace::Trace& tr = *index.trace;
    const auto& ds = index.decisions.decisions();
    QJsonArray rows;
    int64_t matched = 0, shown = 0;
    if (!a.flag("json"))
        std::printf("%8s %12s %-24s %8s %-7s %6s %8s %10s\n", "#", index.spec.isFill() ? "pod" : "time (s)", "job", "task", "outcome", "node",
            "feasible", "best score");
    for (std::size_t i = 0; i < ds.size(); ++i) {
        const sim::Decision& d = ds[i];
        if (node >= 0 && d.node != node)
            continue;
        if (!outcome.empty() && outcome != incident::outcomeName(d.outcome))
            continue;
        if (d.timeS < from.value() || d.timeS > to.value())
            continue;
        std::string name = d.job >= 0 ? std::string(tr.jobNameView(tr.jobs[std::size_t(d.job)])) : std::string();
        if (!job.empty()) {
            const bool isNumber = job.find_first_not_of("0123456789") == std::string::npos;
            if (isNumber ? (std::to_string(d.job) != job && std::to_string(d.task) != job) : name.find(job) == std::string::npos)
                continue;
        }
        ++matched;
        if (limit > 0 && shown >= limit)
            continue;
        ++shown;
        const policy::Candidate* top = index.decisions.candidatesOf(d);
        const double best = d.candidateCount ? top[0].score : 0;
        if (a.flag("json")) {
            rows.append(QJsonObject { { "index", double(i) }, { "time", d.timeS }, { "job", d.job },
                { "jobName", QString::fromStdString(name) }, { "task", d.task }, { "outcome", incident::outcomeName(d.outcome) },
                { "node", d.node }, { "feasible", d.feasible }, { "bestScore", d.candidateCount ? QJsonValue(best) : QJsonValue() } });
        } else {
            std::printf("%8zu %12.0f %-24.24s %8d %-7s %6d %8d %10.4g\n", i, d.timeS, name.empty() ? std::to_string(d.job).c_str() : name.c_str(),
                d.task, incident::outcomeName(d.outcome), d.node, d.feasible, best);
        }
    }
    if (a.flag("json")) {
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.decision-list/1" }, { "matched", double(matched) }, { "decisions", rows } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
    } else {
        std::printf("%lld of %zu decisions match", static_cast<long long>(matched), ds.size());
        if (shown < matched)
            std::printf(" (first %lld shown; --limit 0 for all)", static_cast<long long>(shown));
        std::printf("\n");
    }
    return 0;
}

// --agreement POLICY: how often a policy re-scoring the logged states picks what the scheduler logged.
int showAgreement(const incident::RunIndex& index, const std::string& policyName, const std::optional<std::string>& schedulerConfig, bool json)
{
    auto agreement = incident::compareWithLogged(index, policyName, {}, {}, schedulerConfig ? &*schedulerConfig : nullptr);
    if (!agreement)
        return fail("decisions: " + agreement.error().toString(), 2);
    // Which KubeSchedulerConfiguration the re-scoring ran under (k8s policies only).
    const std::string& configText = schedulerConfig ? *schedulerConfig : index.spec.schedulerConfig;
    std::string configSummary;
    if (!configText.empty() && policy::acceptsSchedulerConfig(policyName))
        if (auto c = policy::parseKubeSchedulerConfig(configText, "scheduler configuration"))
            configSummary = c->summary();
    if (json) {
        QJsonObject o = agreementJson(agreement.value());
        if (!configSummary.empty())
            o.insert("schedulerConfig", QString::fromStdString(configSummary));
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
    } else {
        printAgreement(agreement.value());
        if (!configSummary.empty())
            std::printf("  under the scheduler configuration %s: %s\n", schedulerConfig ? "given" : "of the run", configSummary.c_str());
    }
    return 0;
}

// The ten longest runs of failed decisions (start, length), longest first.
std::vector<std::pair<int64_t, int64_t>> failureBursts(const std::vector<sim::Decision>& ds, int64_t& failed)
{
    std::vector<std::pair<int64_t, int64_t>> bursts;
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
    return bursts;
}

// Without --index / --at: outcomes, incidents and the longest bursts of failures (where to look first).
int showOverview(const RunContext& c, bool json)
{
    const incident::RunIndex& index = *c.index;
    const auto& ds = index.decisions.decisions();
    int64_t failed = 0;
    const auto bursts = failureBursts(ds, failed);
    const auto incidents = incident::findIncidents(index);
    if (json) {
        QJsonArray b, inc;
        for (auto [s, n] : bursts)
            b.append(QJsonObject { { "index", double(s) }, { "failed", double(n) } });
        for (const incident::Incident& i : incidents)
            inc.append(QJsonObject { { "kind", incident::incidentKindName(i.kind) }, { "start", i.startX }, { "end", i.endX },
                { "peak", i.peak }, { "decision", double(i.decision) }, { "text", QString::fromStdString(i.text) } });
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.decisions/2" }, { "run", double(c.row.id) },
                                     { "mode", index.spec.isFill() ? "fill" : "timed" }, { "decisions", double(ds.size()) },
                                     { "failed", double(failed) }, { "failureBursts", b }, { "incidents", inc },
                                     { "stateHashesVerified", index.hashesVerified },
                                     { "decisionsVerified", double(index.decisionsVerified) },
                                     { "source", index.fromStoredJournal ? "stored journal" : "replay" } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("run %lld (%s %s, seed %llu): %zu decisions, %lld failed; %s (%d state hashes verified)\n",
        static_cast<long long>(c.row.id), c.row.mode.c_str(), c.row.policy.c_str(), static_cast<unsigned long long>(c.row.seed), ds.size(),
        static_cast<long long>(failed),
        index.fromStoredJournal         ? "rebuilt from the stored journal"
            : index.decisionsVerified ? "the replay matches the stored decision log"
                                      : "the run stored no decision log to compare",
        index.hashesVerified);
    std::printf("incidents (%zu):\n", incidents.size());
    printIncidents(incidents, index.spec.isFill());
    for (auto [s, n] : bursts)
        std::printf("  failure burst at decision %lld: %lld in a row  (schedlab-cli decisions ... --index %lld)\n", static_cast<long long>(s),
            static_cast<long long>(n), static_cast<long long>(s));
    return 0;
}

QJsonObject inspectionJson(const RunContext& c, int64_t k, const incident::Inspection& x)
{
    const incident::RunIndex& index = *c.index;
    const sim::Decision& d = x.decision;
    QJsonArray rs;
    for (const incident::Rescored& r : x.rescored)
        rs.append(QJsonObject { { "policy", QString::fromStdString(r.policy) }, { "choice", r.decision.node },
            { "feasible", r.decision.feasible }, { "rankOfLoggedChoice", r.rankOfLogged },
            { "candidates", candidatesJson(r.decision.top, r.decision.node) } });
    QJsonObject o { { "schema", "schedlab.decision/2" }, { "run", double(c.row.id) }, { "index", double(k) }, { "time", d.timeS },
        { "job", d.job }, { "jobName", QString::fromStdString(x.jobName) }, { "task", d.task }, { "request", requestText(x.request) },
        { "outcome", incident::outcomeName(d.outcome) }, { "node", d.node }, { "feasible", d.feasible },
        { "rankOfChoice", x.rankOfChoice }, { "stateHashesVerified", index.hashesVerified },
        { "cluster", QJsonObject { { "gpuAllocPct", x.gpuAllocPct }, { "cpuAllocPct", x.cpuAllocPct },
                         { "gpuFragRatePct", x.gpuFragRatePct }, { "activeNodes", x.activeNodes } } },
        { "candidates", candidatesJson(x.candidates, d.node) }, { "rescored", rs } };
    if (const auto logged = incident::loggedView(*index.trace, uint32_t(d.task), d.timeS))
        o["logged"] = loggedViewJson(*logged);
    QJsonObject nodes;
    for (int m = 0; m < cluster::kMisfitKinds; ++m)
        if (x.misfits[std::size_t(m)])
            nodes[cluster::misfitName(cluster::Misfit(m))] = x.misfits[std::size_t(m)];
    o["nodes"] = nodes;
    if (x.reward) {
        const auto& t = *x.reward;
        o["reward"] = QJsonObject { { "balance", t[0] }, { "packing", t[1] }, { "success", t[2] }, { "custom", t[3] }, { "tail", t[4] },
            { "total", t[5] } };
    }
    return o;
}

// The decision's header: what it was, what it did, the cluster then and why nodes did not fit.
void printDecisionSummary(const RunContext& c, int64_t k, const incident::Inspection& x)
{
    const incident::RunIndex& index = *c.index;
    const sim::Decision& d = x.decision;
    std::printf("run %lld (%s %s, seed %llu), decision %lld of %zu at %s %.0f: task %d%s%s (%s)\n", static_cast<long long>(c.row.id),
        c.row.mode.c_str(), c.row.policy.c_str(), static_cast<unsigned long long>(c.row.seed), static_cast<long long>(k),
        index.decisions.decisions().size(), index.spec.isFill() ? "pod" : "t =", d.timeS, d.task, x.jobName.empty() ? "" : " of job ",
        x.jobName.c_str(), qPrintable(requestText(x.request)));
    const char* what = d.outcome == sim::Outcome::Placed ? "placed on node "
        : d.outcome == sim::Outcome::Failed                ? "FAILED (fits nowhere)"
        : d.outcome == sim::Outcome::Evicted               ? "evicted to make room (queued again) from node "
        : d.outcome == sim::Outcome::Migrated              ? "migrated to make room, to node "
                                                           : "waited";
    const bool withNode = d.outcome == sim::Outcome::Placed || d.outcome == sim::Outcome::Evicted || d.outcome == sim::Outcome::Migrated;
    std::printf("  outcome: %s%s, %d feasible nodes%s\n", what, withNode ? std::to_string(d.node).c_str() : "", d.feasible,
        x.rankOfChoice > 0 ? (", rank " + std::to_string(x.rankOfChoice) + " of the logged candidates").c_str() : "");
    if (x.reward) {
        const auto& t = *x.reward;
        std::printf("  reward: %.4f with the default weights (0.4, 0.3, 0.2, 0.1) over balance %.3f, packing %.3f, success %.3f, custom %.3f; "
                    "tail penalty %.3f\n",
            t[5], t[0], t[1], t[2], t[3], t[4]);
    }
    std::printf("  cluster then: GPU allocation %.2f %%, CPU allocation %.2f %%, GPU fragmentation rate %.2f %%, %d active nodes; "
                "%lld logged decisions and %d state hash(es) verified\n",
        x.gpuAllocPct, x.cpuAllocPct, x.gpuFragRatePct, x.activeNodes, static_cast<long long>(index.decisionsVerified), index.hashesVerified);
    std::string why;
    for (int m = 0; m < cluster::kMisfitKinds; ++m)
        if (x.misfits[std::size_t(m)])
            why += (why.empty() ? "" : ", ") + std::to_string(x.misfits[std::size_t(m)]) + " " + cluster::misfitName(cluster::Misfit(m));
    std::printf("  nodes for this request: %s\n", why.c_str());
}

// The decision's candidates as the run's policy scored them, and as other policies re-score them.
void printCandidates(const RunContext& c, const incident::Inspection& x)
{
    const incident::RunIndex& index = *c.index;
    const sim::Decision& d = x.decision;
    const cluster::ClusterState& state = *x.state;
    auto printNode = [&](const policy::Candidate& cand, const char* mark) {
        const int n = cand.node;
        std::string gpus;
        for (int g = 0; g < state.numGpu(n); ++g)
            gpus += (g ? "," : "") + std::to_string(state.gpuFree(n, g));
        std::printf("    %s node %5d  score %10.4f  raw %8.2f  free cpu %7lld m, mem %8lld MiB, GPU free [%s]\n", mark, n, cand.score,
            cand.raw, static_cast<long long>(state.freeCpu(n)), static_cast<long long>(state.freeMem(n)), gpus.c_str());
    };
    if (const auto logged = incident::loggedView(*index.trace, uint32_t(d.task), d.timeS))
        printLoggedView(*logged, *index.trace);
    if (d.outcome == sim::Outcome::Migrated)
        std::printf("  where it could go (best first; raw: gpu-milli the node keeps free after it):\n");
    else
        std::printf("  candidates as %s scored them (best first):\n", c.row.policy.c_str());
    for (const policy::Candidate& cand : x.candidates)
        printNode(cand, cand.node == d.node ? "*" : " ");
    for (const incident::Rescored& r : x.rescored) {
        std::printf("  re-scored by %s: would choose node %d%s\n", r.policy.c_str(), r.decision.node,
            r.rankOfLogged > 0 ? (" (the logged choice ranks " + std::to_string(r.rankOfLogged) + ")").c_str()
                               : " (the logged choice is not in its top 8)");
        for (const policy::Candidate& cand : r.decision.top)
            printNode(cand, cand.node == r.decision.node ? ">" : " ");
    }
}

// --index K / --at T: the state decision K saw, rebuilt, with its candidates and re-scorings.
int showDecision(const Args& a, const RunContext& c, int64_t k, const std::optional<std::string>& schedulerConfig)
{
    const incident::RunIndex& index = *c.index;
    const auto& ds = index.decisions.decisions();
    if (k >= int64_t(ds.size()))
        return fail("decisions: --index " + std::to_string(k) + " is past the run's " + std::to_string(ds.size()) + " decisions", 2);
    auto in = incident::inspect(index, k, splitList(a.value("rescore").value_or("")), 8, schedulerConfig ? &*schedulerConfig : nullptr);
    if (!in)
        return fail("decisions: " + in.error().toString(), in.error().code == ErrorCode::Range ? 2 : 1);
    if (a.flag("json")) {
        std::fputs(QJsonDocument(inspectionJson(c, k, in.value())).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    printDecisionSummary(c, k, in.value());
    printCandidates(c, in.value());
    return 0;
}

} // namespace

int runDecisions(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("decisions")); !e.empty())
        return fail("decisions: " + e, 2);
    // --scheduler-config: re-score k8s-default / k8s-sampling under this KubeSchedulerConfiguration
    // (the one the logging scheduler ran with) instead of the run's.
    std::optional<std::string> schedulerConfig;
    if (auto path = a.value("scheduler-config")) {
        std::string text;
        auto config = policy::readKubeSchedulerConfig(*path, &text);
        if (!config)
            return fail("decisions: --scheduler-config: " + config.error().toString(), 2);
        schedulerConfig = std::move(text);
    }
    auto ctx = openRun(a, "decisions");
    if (!ctx)
        return fail(ctx.error().toString(), ctx.error().code == ErrorCode::Invalid ? 2 : 1);
    const RunContext& c = ctx.value();
    auto k = decisionIndexOf(a, *c.index);
    if (!k)
        return fail("decisions: " + k.error().message, 2);
    if (a.flag("list"))
        return listDecisions(a, *c.index);
    if (const auto policyName = a.value("agreement"))
        return showAgreement(*c.index, *policyName, schedulerConfig, a.flag("json"));
    if (k.value() < 0)
        return showOverview(c, a.flag("json"));
    return showDecision(a, c, k.value(), schedulerConfig);
}

int runFork(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("fork")); !e.empty())
        return fail("fork: " + e, 2);
    if (!a.value("policy") || (!a.value("index") && !a.value("at")))
        return fail("fork: give --index K (or --at T) and --policy B", 2);
    auto ctx = openRun(a, "fork");
    if (!ctx)
        return fail(ctx.error().toString(), ctx.error().code == ErrorCode::Invalid ? 2 : 1);
    RunContext& c = ctx.value();
    auto kr = decisionIndexOf(a, *c.index);
    if (!kr || kr.value() < 0)
        return fail("fork: " + (kr ? std::string("--index must be >= 0") : kr.error().message), 2);
    const int64_t k = kr.value();
    double window = 0;
    if (a.value("window")) {
        auto w = workflow::parseRunTime(*a.value("window"), c.index->spec.mode());
        if (!w || !(w.value() > 0))
            return fail("fork: --window is a positive duration (timed, e.g. 6h) or pod count (fill)", 2);
        window = w.value();
    }
    auto r = incident::forkRun(*c.index, k, *a.value("policy"), window);
    if (!r)
        return fail("fork: " + r.error().toString(), r.error().code == ErrorCode::Range || r.error().code == ErrorCode::Invalid ? 2 : 1);
    if (a.flag("json")) {
        QJsonObject m;
        for (const incident::ForkDelta& row : r->deltas)
            m[QString::fromStdString(row.id)] = QJsonObject { { "label", QString::fromStdString(row.metric) }, { "original", row.original },
                { "fork", row.fork }, { "delta", row.delta() } };
        QJsonArray curve;
        if (r->fill)
            for (const sim::FillPoint& p : r->fill->curve)
                curve.append(QJsonObject { { "arrivedPct", p.arrivedPct }, { "gpuAllocPct", p.gpuAllocPct }, { "fragRatePct", p.fragRatePct } });
        else
            for (const sim::SeriesPoint& p : r->timed->series)
                curve.append(QJsonObject { { "timeS", p.timeS }, { "p99WaitS", p.p99WaitS }, { "gpuUtilPct", 100.0 * p.gpuUtil },
                    { "gpuFragRatePct", 100.0 * p.gpuFragRate } });
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.fork/2" }, { "run", double(c.row.id) }, { "index", double(k) },
                                     { "at", r->forkX }, { "window", window }, { "from", QString::fromStdString(c.row.policy) },
                                     { "to", QString::fromStdString(r->policy) }, { "metrics", m }, { "curve", curve } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("fork of run %lld (%s %s, seed %llu) at decision %lld (%s %.0f) under %s%s:\n", static_cast<long long>(c.row.id),
        c.row.mode.c_str(), c.row.policy.c_str(), static_cast<unsigned long long>(c.row.seed), static_cast<long long>(k),
        c.index->spec.isFill() ? "pod" : "t =", r->forkX, r->policy.c_str(), window > 0 ? (", window " + QString::number(window).toStdString() + (c.index->spec.isFill() ? " pods" : " s")).c_str() : "");
    std::printf("  %-44s %12s %12s %12s\n", "metric", "original", "fork", "delta");
    for (const incident::ForkDelta& row : r->deltas)
        std::printf("  %-44s %12.2f %12.2f %+12.2f\n", row.metric.c_str(), row.original, row.fork, row.delta());
    return 0;
}

int runBenchSeek(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("bench seek")); !e.empty())
        return fail("bench seek: " + e, 2);
    const auto t0 = std::chrono::steady_clock::now();
    auto ctx = openRun(a, "bench seek");
    if (!ctx)
        return fail(ctx.error().toString(), ctx.error().code == ErrorCode::Invalid ? 2 : 1);
    const double openS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const incident::RunIndex& index = *ctx->index;
    std::string error;
    const int64_t seeks = a.integer("seeks", 200, error);
    const uint64_t seed = uint64_t(a.integer("seed", 1, error));
    if (!error.empty() || seeks <= 0)
        return fail("bench seek: --seeks is a positive count", 2);
    const int64_t n = int64_t(index.decisions.size());
    if (n == 0)
        return fail("bench seek: the run has no decisions", 2);
    std::mt19937_64 rng(seed);
    std::vector<double> ms;
    for (int64_t i = 0; i < seeks; ++i) {
        const int64_t k = int64_t(rng() % uint64_t(n));
        const auto s0 = std::chrono::steady_clock::now();
        auto in = incident::inspect(index, k);
        if (!in)
            return fail(in.error().toString());
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2], p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], worst = ms.back();
    if (a.flag("json")) {
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.bench-seek/1" }, { "decisions", double(n) },
                                     { "source", index.fromStoredJournal ? "stored journal" : "replay" },
                                     { "openAndIndexS", openS }, { "indexReplayS", index.buildSeconds },
                                     { "journalOps", double(index.journal.position()) }, { "snapshots", double(index.journal.snapshotCount()) },
                                     { "spacing", double(index.journal.spacing()) }, { "journalMiB", double(index.journal.memoryBytes()) / 1048576.0 },
                                     { "seeks", double(seeks) }, { "seekMedianMs", median }, { "seekP99Ms", p99 }, { "seekMaxMs", worst } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("run %lld: %lld decisions; open + %s + verify %.2f s (index %.2f s), journal %lld ops, %zu snapshots every %lld ops, %.1f MiB\n",
        static_cast<long long>(ctx->row.id), static_cast<long long>(n), index.fromStoredJournal ? "read stored journal" : "replay", openS,
        index.buildSeconds,
        static_cast<long long>(index.journal.position()), index.journal.snapshotCount(), static_cast<long long>(index.journal.spacing()),
        double(index.journal.memoryBytes()) / 1048576.0);
    std::printf("seek to a random decision (state + candidates), %lld seeks: median %.3f ms, p99 %.3f ms, max %.3f ms\n",
        static_cast<long long>(seeks), median, p99, worst);
    return 0;
}

} // namespace schedlab::cli
