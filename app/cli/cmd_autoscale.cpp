// `schedlab-cli autoscale LOAD --policy hpa,forecast,static:N [--service FILE] [--from T] [--window T]
// [--interpolate] [--json]` and `bench autoscale`: the autoscaling replay (core/autoscale).

#include "command_table.h"
#include "cmd_autoscale.h"
#include "commands.h"

#include "autoscale/learned_scaler.h"
#include "workflow/run_args.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace schedlab::cli {

using namespace schedlab::autoscale;


QJsonObject autoscaleJson(const AutoscaleResult& r, bool series)
{
    QJsonObject o { { "policy", QString::fromStdString(r.policy) }, { "steps", double(r.steps) }, { "requests", r.requests },
        { "replicaHours", r.replicaHours }, { "cost", r.cost }, { "minutes", r.minutes }, { "sloViolationMinutes", r.sloViolationMinutes },
        { "missedShare", r.missedShare }, { "scalingActions", r.scalingActions }, { "meanUtilization", r.meanUtilization },
        { "maxBacklog", r.maxBacklog }, { "maxReplicas", r.maxReplicas }, { "scaleUpLags", int(r.scaleUpLagsS.size()) },
        { "scaleUpLagMedianS", lagQuantile(r.scaleUpLagsS, 0.5) }, { "scaleUpLagP90S", lagQuantile(r.scaleUpLagsS, 0.9) },
        { "burstLags", int(r.burstLagsS.size()) }, { "burstLagMedianS", lagQuantile(r.burstLagsS, 0.5) },
        { "burstLagP90S", lagQuantile(r.burstLagsS, 0.9) },
        { "simSeconds", r.simSeconds } };
    if (series) {
        QJsonArray s;
        for (const MinutePoint& p : r.series)
            s.append(QJsonArray { p.t, p.arrivalRate, p.ready, p.replicas, p.capacityRps, p.p99S, p.missedShare, p.backlog });
        o["seriesColumns"] = QJsonArray { "t", "arrivalRate", "ready", "replicas", "capacityRps", "p99S", "missedShare", "backlog" };
        o["series"] = s;
    }
    return o;
}

std::unique_ptr<ReplicaPolicy> autoscalePolicy(const std::string& spec, const AutoscaleSetup& s)
{
    // A record holds at least its start (replicaRecord); without one, "logged" is unknown.
    return spec == "logged" && !s.record.changes.empty() ? makeLoggedPolicy(s.record) : makeAnyReplicaPolicy(spec, s.service, nullptr);
}

namespace {

using Setup = AutoscaleSetup;

/// Service, load (or an instance log's record and its demand) and window from the common
/// options; an error text.
std::string setUp(const Args& a, Setup& s)
{
    if (auto f = a.value("service")) {
        auto c = readServiceConfig(*f);
        if (!c)
            return c.error().toString();
        s.service = std::move(c).value();
    }
    if (isInstanceLog(a.positional()[0])) {
        if (std::string e = setUpInstanceLog(a, a.positional()[0], s); !e.empty())
            return e;
    } else {
        if (a.value("app") || a.value("role"))
            return "autoscale: --app / --role select an app of an instance log (the DLRM trace); " + a.positional()[0] + " is a load";
        auto load = readLoadSeries(a.positional()[0], a.flag("interpolate") ? Resample::Interpolated : Resample::Stepped);
        if (!load)
            return load.error().toString();
        s.load = std::move(load).value();
    }
    for (const char* flag : { "from", "window" })
        if (auto v = a.value(flag)) {
            auto d = *v == "0" ? Result<double>(0.0) : workflow::parseDuration(*v);
            if (!d)
                return std::string("--") + flag + ": " + d.error().message;
            (std::string(flag) == "from" ? s.options.fromS : s.options.durationS) = *d;
        }
    return {};
}

/// `--fork-at T --fork-policy P`: the run of `base` against the same run switched to P at T, over
/// [T, T + fork-window).
int forkRun(const Args& a, Setup& s, const std::string& base)
{
    auto at = *a.value("fork-at") == "0" ? Result<double>(0.0) : workflow::parseDuration(*a.value("fork-at"));
    auto window = workflow::parseDuration(a.value("fork-window").value_or("1h"));
    if (!at || !window)
        return fail("autoscale: --fork-at / --fork-window: " + (!at ? at.error().message : window.error().message), 2);
    auto original = autoscalePolicy(base, s);
    auto switched = autoscalePolicy(base, s);
    auto other = autoscalePolicy(*a.value("fork-policy"), s);
    auto run = autoscale::runAutoscale(s.load, s.service, *original, s.options);
    AutoscaleOptions fork = s.options;
    fork.switchAtS = *at;
    fork.switchTo = other.get();
    auto forked = autoscale::runAutoscale(s.load, s.service, *switched, fork);
    if (!run || !forked)
        return fail("autoscale: " + (!run ? run.error() : forked.error()).toString());
    std::printf("from %.0f s for %.0f s (whole minutes):\n%-40s %10s %10s %8s %10s %8s\n", *at, *window, "run", "replica-h", "cost",
        "SLO min", "missed %", "peak");
    for (const AutoscaleResult* r : { &*run, &*forked }) {
        const AutoscaleResult w = sliceResult(*r, *at, *at + *window, s.service.costPerReplicaHour);
        std::printf("%-40s %10.2f %10.3f %8d %10.3f %8d\n", r->policy.c_str(), w.replicaHours, w.cost, w.sloViolationMinutes,
            w.missedShare * 100, w.maxReplicas);
    }
    return 0;
}

// Every policy (and the fork's) checked before any work. An error text, without the command's name.
std::string checkAutoscaleRequest(const Args& a, const std::vector<std::string>& specs, bool instanceLog)
{
    std::string error;
    for (const std::string& p : specs)
        if (!(p == "logged" && instanceLog) && !makeAnyReplicaPolicy(p, ServiceConfig {}, &error))
            return error;
    if (instanceLog && !a.value("app"))
        return a.positional()[0] + " is an instance log: choose --app APP (or --app all)";
    if (a.value("fork-at") || a.value("fork-policy")) {
        if (!a.value("fork-at") || !a.value("fork-policy"))
            return "a fork needs --fork-at T and --fork-policy P";
        if (!(*a.value("fork-policy") == "logged" && instanceLog) && !makeAnyReplicaPolicy(*a.value("fork-policy"), ServiceConfig {}, &error))
            return "--fork-policy: " + error;
    }
    return {};
}

// --project P: the run stored with its load and service files (absolute paths: the project may be
// opened from elsewhere). Its id.
Result<int64_t> storeRun(store::Project& project, const Args& a, const Setup& s, const AutoscaleResult& r)
{
    const std::string load = std::filesystem::absolute(a.positional()[0]).string() + (s.log ? " --app " + s.record.app : std::string());
    const std::string service = a.value("service") ? std::filesystem::absolute(*a.value("service")).string() : std::string();
    return project.addAutoscaleRun(autoscaleRecord(r, load, service, s.options));
}

QJsonObject runJson(const Args& a, const AutoscaleResult& r, int64_t storedAs)
{
    QJsonObject o = autoscaleJson(r, a.flag("series"));
    if (storedAs >= 0)
        o["storedAs"] = double(storedAs);
    if (a.flag("incidents")) {
        QJsonArray list;
        for (const AutoscaleIncident& i : findIncidents(r))
            list.append(QJsonObject { { "fromS", i.fromS }, { "toS", i.toS }, { "sloMinutes", i.sloMinutes }, { "worstP99S", i.worstP99S },
                { "missedRequests", i.missedRequests }, { "readyAtStart", i.readyAtStart } });
        o["incidents"] = list;
    }
    return o;
}

// --incidents: the 10 worst, and for the 3 worst the decision that met it: the state and what the
// policy weighed.
void printIncidentsText(const std::string& spec, const Setup& s, const AutoscaleResult& r)
{
    const auto incidents = findIncidents(r);
    std::printf("  %zu incidents%s\n", incidents.size(), incidents.size() > 10 ? ", the 10 worst:" : ":");
    for (std::size_t i = 0; i < incidents.size() && i < 10; ++i) {
        std::printf("    at %.0f s: %s\n", incidents[i].fromS, incidents[i].what().c_str());
        if (i >= 3)
            continue;
        auto again = autoscalePolicy(spec, s);
        auto d = decisionAt(s.load, s.service, *again, s.options, incidents[i].fromS);
        if (!d || d->t < 0)
            continue;
        std::printf("      decision at %.0f s: %s\n", d->t, d->what().c_str());
        if (!d->values.empty()) {
            std::printf("      Q:");
            for (const ActionValue& q : d->values)
                std::printf(" %+d%s %.3f%s", q.delta, q.allowed ? "" : " (masked)", double(q.q),
                    q.allowed && d->current + q.delta == d->desired ? " *" : "");
            std::printf("\n");
        }
    }
}

void printRunText(const Args& a, const std::string& spec, const Setup& s, const AutoscaleResult& r, int64_t storedAs)
{
    std::printf("%-16s %12.1f %10.2f %8d %10.3f %8d %10.0f %10.0f %7zu %10.0f %8.1f %8.3f\n", r.policy.c_str(), r.replicaHours, r.cost,
        r.sloViolationMinutes, r.missedShare * 100, r.scalingActions, lagQuantile(r.scaleUpLagsS, 0.5), lagQuantile(r.scaleUpLagsS, 0.9),
        r.burstLagsS.size(), lagQuantile(r.burstLagsS, 0.5), r.meanUtilization * 100, r.simSeconds);
    if (storedAs >= 0)
        std::printf("  stored in the project as autoscaling run %lld\n", (long long)storedAs);
    if (a.flag("incidents"))
        printIncidentsText(spec, s, r);
}

void printTableHeader(const Setup& s)
{
    std::printf("%s: %zu s of load (%s), %.0f requests; service %.0f ms, capacity %.2f req/s per replica at %.0f %%, start-up %.0f s, "
                "SLO p99 %.0f ms\n%-16s %12s %10s %8s %10s %8s %10s %10s %7s %10s %8s %8s\n",
        s.load.name.c_str(), s.load.requests.size(), s.load.source.c_str(), s.load.total(), s.service.serviceTimeS * 1000,
        s.service.capacityRps(), s.service.targetUtilization * 100, s.service.startupDelayS, s.service.sloP99S * 1000, "policy",
        "replica-h", "cost", "SLO min", "missed %", "actions", "lag p50 s", "lag p90 s", "bursts", "burst p50", "util %", "sim s");
}

// Each policy over the load, printed (or its JSON collected) as it ends, stored when `project`.
int replayPolicies(const Args& a, const Setup& s, const std::vector<std::string>& specs, store::Project* project)
{
    const bool json = a.flag("json");
    QJsonArray runs;
    if (!json)
        printTableHeader(s);
    for (const std::string& spec : specs) {
        auto policy = autoscalePolicy(spec, s);
        auto r = autoscale::runAutoscale(s.load, s.service, *policy, s.options);
        if (!r)
            return fail("autoscale: " + spec + ": " + r.error().toString());
        int64_t storedAs = -1;
        if (project) {
            auto id = storeRun(*project, a, s, *r);
            if (!id)
                return fail("autoscale: " + id.error().toString());
            storedAs = *id;
        }
        if (json)
            runs.append(runJson(a, *r, storedAs));
        else
            printRunText(a, spec, s, *r, storedAs);
    }
    if (json)
        std::printf("%s\n", QJsonDocument(QJsonObject { { "schema", "schedlab.autoscale/1" }, { "load", QString::fromStdString(s.load.name) },
                                              { "loadSource", QString::fromStdString(s.load.source) },
                                              { "steps", double(s.load.requests.size()) }, { "runs", runs } })
                                .toJson(QJsonDocument::Indented)
                                .constData());
    return 0;
}

} // namespace

int runAutoscale(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("autoscale")); !e.empty())
        return fail("autoscale: " + e, 2);
    if (a.positional().empty() && a.value("project"))
        return listAutoscaleRuns(*a.value("project"), a.flag("json"));
    if (a.positional().size() != 1)
        return fail("autoscale: usage: autoscale LOAD --policy hpa,forecast,static:N [--service FILE] [--from T] [--window T] [--json]\n"
                    "       autoscale INSTANCE_LOG --app APP|all [--role R] --policy logged,hpa,...",
            2);
    const bool instanceLog = isInstanceLog(a.positional()[0]);
    const std::vector<std::string> specs = splitList(a.value("policy").value_or(instanceLog ? "logged,hpa" : "hpa,forecast"));
    if (std::string e = checkAutoscaleRequest(a, specs, instanceLog); !e.empty())
        return fail("autoscale: " + e, 2);
    Setup s;
    if (std::string e = setUp(a, s); !e.empty())
        return fail(e);
    if (s.allApps)
        return autoscaleAllApps(a, s, specs);
    // The project opened before any work: a bad path fails now, not after the runs.
    std::unique_ptr<store::Project> project;
    if (auto path = a.value("project")) {
        if (a.value("fork-at"))
            return fail("autoscale: --project stores runs, not forks", 2);
        auto p = store::Project::open(*path);
        if (!p)
            return fail("autoscale: " + p.error().toString());
        project = std::move(p).value();
    }
    if (a.value("fork-at"))
        return forkRun(a, s, specs.front());
    return replayPolicies(a, s, specs, project.get());
}

int benchAutoscale(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("bench autoscale")); !e.empty())
        return fail("bench autoscale: " + e, 2);
    if (a.positional().size() != 1)
        return fail("bench autoscale: usage: bench autoscale LOAD [--runs 100] [--jobs N] [--service FILE]", 2);
    Setup s;
    const auto t0 = std::chrono::steady_clock::now();
    if (std::string e = setUp(a, s); !e.empty())
        return fail(e);
    const double readS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string error;
    const int runs = int(a.integer("runs", 100, error));
    const int jobs = int(a.integer("jobs", std::max(1u, std::thread::hardware_concurrency()), error));
    if (!error.empty() || runs < 1 || jobs < 1)
        return fail("bench autoscale: --runs >= 1, --jobs >= 1", 2);
    std::printf("%s: %zu steps read in %.3f s (%s)\n", s.load.name.c_str(), s.load.requests.size(), readS, s.load.source.c_str());
    auto policy = makeAnyReplicaPolicy("hpa", s.service, nullptr);
    auto one = autoscale::runAutoscale(s.load, s.service, *policy, s.options);
    if (!one)
        return fail(one.error().toString());
    std::printf("one HPA run: %.3f s (%.1f ns per step), %d minutes, %d SLO-violation minutes, %.1f replica-hours\n", one->simSeconds,
        one->simSeconds * 1e9 / double(one->steps), one->minutes, one->sloViolationMinutes, one->replicaHours);
    // Many runs: policies x static sizes (as a weight or seed sweep would be), on `jobs` threads.
    const std::vector<std::string> kinds = { "hpa", "forecast", "forecast:naive" };
    std::atomic<int> next { 0 }, failed { 0 };
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int j = 0; j < jobs; ++j)
        pool.emplace_back([&] {
            for (int i; (i = next++) < runs;) {
                const std::string spec = i % 4 == 3 ? "static:" + std::to_string(1 + i % 17) : kinds[std::size_t(i % 4)];
                auto p = makeAnyReplicaPolicy(spec, s.service, nullptr);
                if (!autoscale::runAutoscale(s.load, s.service, *p, s.options))
                    ++failed;
            }
        });
    for (std::thread& t : pool)
        t.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    std::printf("%d runs (hpa, forecast, forecast:naive, static:N in turn) on %d threads: %.2f s wall\n", runs, jobs, wall);
    return failed ? 1 : 0;
}

} // namespace schedlab::cli
