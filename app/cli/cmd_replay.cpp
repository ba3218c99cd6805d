// `schedlab-cli replay`: runs policies over a trace (fill experiment or timed replay) for a range of
// seeds and prints a comparison table (mean over seeds with min/max), or JSON (docs/cli-json.md).

#include "cli_args.h"
#include "run_option_args.h"
#include "commands.h"
#include "import_options.h"
#include "replay_json.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/placement_policy.h"
#include "rl/learned_policy.h"
#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "store/project.h"
#include "trace/trace_loader.h"
#include "workflow/run_args.h"
#include "workflow/run_recorder.h"

#include <thread>
#include <optional>
#include <atomic>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <sstream>

namespace schedlab::cli {

namespace {

struct Stat {
    double sum = 0, min = 1e300, max = -1e300;
    int n = 0;
    void add(double v)
    {
        sum += v;
        min = std::min(min, v);
        max = std::max(max, v);
        ++n;
    }
    double mean() const { return n ? sum / n : 0; }
};

} // namespace

int runPolicies(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, {}, { "json" }); !e.empty())
        return fail("policies: " + e, 2);
    const auto list = policy::placementPolicies();
    if (args.flag("json")) {
        QJsonArray ties;
        for (policy::TieBreak t : policy::kTieBreaks)
            ties.append(policy::tieBreakName(t));
        QJsonArray arr;
        for (const auto& p : list)
            arr.append(QJsonObject { { "name", QString::fromStdString(p.name) }, { "kind", QString::fromStdString(p.kind) },
                { "description", QString::fromStdString(p.description) } });
        QJsonArray queues;
        for (const std::string& n : policy::queueOrderNames())
            queues.append(QString::fromStdString(n));
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.policies/1" }, { "placement", arr },
                                     { "queue", queues }, { "backfill", QJsonArray { "none", "easy" } },
                                     { "tieBreak", ties } })
                       .toJson()
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("placement policies (--policy a,b,...):\n");
    for (const auto& p : list)
        std::printf("  %-14s %s\n", p.name.c_str(), p.description.c_str());
    std::printf("\nqueue orders (--queue, timed mode): %s\n", [] {
        std::string s;
        for (const std::string& n : policy::queueOrderNames())
            s += (s.empty() ? "" : ", ") + n;
        return s;
    }().c_str());
    std::printf("backfilling (--backfill, timed mode): none, easy\n");
    std::printf("queue head (--head, timed mode): resort (the queue's first by the order at every pass, default),\n"
                "  commit (a blocked head stays the head until it starts, as the RLScheduler simulator does)\n");
    std::printf("making room (timed mode): --preemption none|priority (Kubernetes default preemption: lower-priority\n"
                "  jobs evicted, queued again, their run so far lost), --migration none|defragment (move one running\n"
                "  task of the same or lower priority to free a node; --migration-restart 60s, --migrations-per-hour N)\n");
    std::printf("\nparameters: --seeds (RNG of tie-breaks, Random, inflation, trim and shuffle; a timed run that\n"
                "  draws nothing, e.g. FirstFit, reports \"seed\": null),\n"
                "  --tie-break random|first|order (equal best scores: random per decision, lowest node, or first in\n"
                "  a node order drawn once per run with the seed; default order for fill, random for timed),\n"
                "  fill: --ratio (default 1.3; a pod list asking for more loses random pods down to it, as the\n"
                "  FGD authors do; --no-trim replays every pod); timed: --sla CLASS=SECONDS,... (default= for jobs\n"
                "  without a class), --window (p99 window, 3600 s),\n"
                "  --tick (series period, default max(60 s, span/4000)), --power-off-idle\n");
    return 0;
}

namespace {
int defaultJobs() { return std::max(1, int(std::thread::hardware_concurrency())); }

// Calls fn(0..n-1) on `jobs` threads (this one included); each index exactly once.
void runParallel(std::size_t n, int jobs, const std::function<void(std::size_t)>& fn)
{
    std::atomic<std::size_t> next { 0 };
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < n;)
            fn(i);
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < std::min<int>(jobs, int(n)); ++k)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
}

// One cell of the comparison: without a project an unrecorded execute(), with one a recorded run
// (workflow::RunRecorder: inserted as running, results, decisions and journal stored after).
Result<workflow::RunOutcome> runCell(const sim::RunSpec& spec, const trace::Trace& trace, store::Project* project, int64_t traceId)
{
    if (project)
        return workflow::RunRecorder(*project, traceId).run(spec, trace);
    return workflow::execute(spec, trace, workflow::ExecuteOptions { false });
}

int runTimed(const Args& args, const trace::Trace& trace, const std::vector<std::string>& policies,
    const std::vector<uint64_t>& seeds, policy::TieBreak tie, int topK, store::Project* project, int64_t traceId,
    const std::optional<trace::TimeSpan>& window, const std::string& schedulerConfig)
{
    sim::TimedOptions o;
    if (window) {
        o.windowFromS = window->fromS;
        o.windowToS = window->toS;
    }
    o.tieBreak = tie;
    o.topK = topK;
    o.powerOffIdle = args.flag("power-off-idle");
    sim::RunSpec spec = sim::RunSpec::timed({}, o);
    if (std::string e = parseRunOptions(args, spec); !e.empty())
        return fail("replay: " + e, 2);
    o = *spec.timedOptions();
    const std::string backfill = o.backfill == sim::Backfill::Easy ? "easy" : "none";
    std::string error;
    o.p99WindowS = args.real("window", o.p99WindowS, error);
    o.tickS = args.real("tick", 0, error);
    if (!error.empty() || o.p99WindowS <= 0 || o.tickS < 0)
        return fail("replay: " + (error.empty() ? std::string("--window must be > 0, --tick >= 0") : error), 2);
    // --sla default=3600,LS=600,BE=7200
    for (const std::string& item : splitList(args.value("sla").value_or(""))) {
        const auto eq = item.find('=');
        double v = 0;
        try {
            v = std::stod(item.substr(eq + 1));
        } catch (...) {
            return fail("replay: --sla takes CLASS=SECONDS,...", 2);
        }
        if (eq == std::string::npos || v <= 0)
            return fail("replay: --sla takes CLASS=SECONDS,...", 2);
        if (item.substr(0, eq) == "default")
            o.defaultSlaS = v;
        else
            o.slaByQos[item.substr(0, eq)] = v;
    }
    QJsonArray runs;
    struct Row {
        Stat waitMean, waitP99, bsld, failed, cpu, gpu, frag, energy, sim, preempted, migrated, lostGpuH, blocked;
    };
    const bool roomMaking = o.preemption != sim::Preemption::None || o.migration != sim::Migration::None;
    std::vector<std::pair<std::string, Row>> rows;
    std::vector<std::string> seedless; // policies whose runs drew no random number
    int64_t outside = 0;                // jobs the window left out (the same for every run)
    int64_t skipped = 0;                // jobs without a run time (the same for every run)
    std::map<std::string, int64_t> divergences; // of the logged run (first seed)
    std::string firstDivergence;
    for (const std::string& name : policies) {
        Row row;
        bool seedUsed = false;
        for (uint64_t seed : seeds) {
            o.seed = seed;
            sim::RunSpec spec = sim::RunSpec::timed(name, o);
            spec.schedulerConfig = schedulerConfig;
            auto out = runCell(spec, trace, project, traceId);
            if (!out)
                return fail(out.error().toString());
            const sim::TimedResult* r = out->timed.get();
            outside = r->outsideWindow;
            skipped = r->skipped;
            if (seed == seeds.front() && !r->divergences.empty() && divergences.empty())
                divergences = r->divergences, firstDivergence = r->firstDivergence;
            if (args.flag("json"))
                runs.append(timedResultToJson(*r));
            row.waitMean.add(r->waitS.mean);
            row.waitP99.add(r->waitS.p99);
            row.bsld.add(r->boundedSlowdown.mean);
            row.failed.add(double(r->failed));
            row.cpu.add(r->meanCpuUtil * 100);
            row.gpu.add(r->meanGpuUtil * 100);
            row.frag.add(r->meanGpuFragRate * 100);
            row.energy.add(r->energyKWh);
            row.sim.add(r->simSeconds);
            row.preempted.add(double(r->preemptions));
            row.migrated.add(double(r->migrations));
            row.lostGpuH.add(r->workLostGpuHours);
            row.blocked.add(double(r->gpuBlockedWithRoom));
            seedUsed = seedUsed || r->seedUse == "schedule";
        }
        if (!seedUsed)
            seedless.push_back(name);
        rows.push_back({ name, row });
    }
    if (!args.flag("json")) {
        const std::string jobsText = o.hasWindow()
            ? std::to_string(trace.jobs.size() - size_t(outside)) + " of " + std::to_string(trace.jobs.size())
                + " jobs (submitted in the window)"
            : std::to_string(trace.jobs.size()) + " jobs";
        std::printf("timed replay: %zu nodes, %s, queue %s (head: %s), backfill %s, %zu seed(s); mean over "
                    "seeds [min, max]; waits in s, p99 by nearest rank\n",
            trace.nodes.size(), jobsText.c_str(), policy::queueOrderName(o.queue).c_str(), sim::headRuleName(o.head),
            backfill.c_str(), seeds.size());
        if (!seedless.empty()) {
            std::string names;
            for (const std::string& n : seedless)
                names += (names.empty() ? "" : ", ") + n;
            std::printf("no random numbers drawn for placements by %s (no random policy or ties): the seed changes no "
                        "start there (at most the order of equal candidates in the decision log)\n",
                names.c_str());
        }
        std::string slaText;
        for (const auto& [cls, limit] : o.slaByQos)
            slaText += ", " + cls + " " + std::to_string(int64_t(limit)) + " s";
        std::printf("SLA: wait above default %lld s%s counts as a violation\n", static_cast<long long>(o.defaultSlaS),
            slaText.c_str());
        std::printf("%-14s %26s %26s %9s %7s %7s %7s %7s %10s %8s\n", "policy", "wait mean [min,max]",
            "wait p99 [min,max]", "bsld", "failed", "cpu %", "gpu %", "frag %", "energy kWh", "sim s");
        for (const auto& [name, r] : rows)
            std::printf("%-14s %9.1f [%7.1f,%7.1f] %9.1f [%7.1f,%7.1f] %9.2f %7.0f %7.1f %7.1f %7.1f %10.1f %8.3f\n",
                name.c_str(), r.waitMean.mean(), r.waitMean.min, r.waitMean.max, r.waitP99.mean(), r.waitP99.min,
                r.waitP99.max, r.bsld.mean(), r.failed.mean(), r.cpu.mean(), r.gpu.mean(), r.frag.mean(),
                r.energy.mean(), r.sim.mean());
        if (roomMaking) {
            std::printf("making room: preemption %s, migration %s (restart %.0f s, %s); mean over seeds\n",
                sim::preemptionName(o.preemption), sim::migrationName(o.migration), o.migrationRestartS,
                o.migrationsPerHour > 0 ? (std::to_string(int64_t(o.migrationsPerHour)) + " a hour at most").c_str() : "no budget");
            std::printf("%-14s %12s %12s %16s %22s\n", "policy", "evictions", "migrations", "work lost GPU-h",
                "GPU jobs blocked, room");
            for (const auto& [name, r] : rows)
                std::printf("%-14s %12.1f %12.1f %16.2f %22.1f\n", name.c_str(), r.preempted.mean(), r.migrated.mean(),
                    r.lostGpuH.mean(), r.blocked.mean());
            std::printf("GPU jobs blocked, room: GPU jobs that headed the queue and did not start although the cluster's "
                        "free cpu, memory and GPU (summed over nodes) covered them\n");
        }
        if (skipped > 0)
            std::printf("%lld jobs have no run time in the trace (never started, or still running) and are not replayed\n",
                static_cast<long long>(skipped));
        if (divergences.empty() && std::find(policies.begin(), policies.end(), "logged") != policies.end())
            std::printf("logged: every logged decision was reproduced (no divergence from the log)\n");
        if (!divergences.empty()) {
            int64_t total = 0;
            std::string kinds;
            for (const auto& [kind, n] : divergences) {
                total += n;
                kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
            }
            std::printf("logged: %lld decisions of the log the model cannot reproduce (%s); the first: %s\n",
                static_cast<long long>(total), kinds.c_str(), firstDivergence.c_str());
        }
        return 0;
    }
    {
        QJsonObject out { { "schema", "schedlab.replay/1" }, { "mode", "timed" },
            { "queue", QString::fromStdString(policy::queueOrderName(o.queue)) },
            { "backfill", QString::fromStdString(backfill) }, { "head", sim::headRuleName(o.head) },
            { "preemption", sim::preemptionName(o.preemption) }, { "migration", sim::migrationName(o.migration) }, { "runs", runs } };
        std::fputs(QJsonDocument(out).toJson(QJsonDocument::Indented).constData(), stdout);
    }
    return 0;
}
} // namespace

int runRuns(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, { "project" }, { "json" }); !e.empty())
        return fail("runs: " + e, 2);
    auto path = args.value("project");
    if (!path)
        return fail("runs: --project FILE is required", 2);
    // A listing never writes: stale runs are shown as interrupted, not repaired here.
    auto opened = store::Project::open(*path, store::Project::OpenMode::ReadOnly);
    if (!opened)
        return fail(opened.error().toString());
    store::Project& project = *opened.value();
    auto rows = project.runs();
    if (!rows)
        return fail(rows.error().toString());
    if (args.flag("json")) {
        QJsonArray arr;
        for (const store::RunRow& r : rows.value()) {
            QJsonObject sum;
            if (auto s = project.summary(r.id))
                for (const auto& [k, v] : s.value())
                    sum.insert(QString::fromStdString(k), v);
            arr.append(QJsonObject { { "id", double(r.id) }, { "traceId", double(r.traceId) },
                { "mode", QString::fromStdString(r.mode) }, { "policy", QString::fromStdString(r.policy) },
                { "queue", QString::fromStdString(r.queue) }, { "backfill", QString::fromStdString(r.backfill) },
                { "seed", double(r.seed) }, { "status", QString::fromStdString(r.status) },
                { "error", QString::fromStdString(r.error) }, { "startedAt", QString::fromStdString(r.startedAt) },
                { "wallSeconds", r.wallSeconds }, { "summary", sum } });
        }
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.runs/1" }, { "runs", arr } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("%-5s %-6s %-14s %-6s %-6s %6s %-10s %s\n", "id", "mode", "policy", "queue", "bf", "seed", "status",
        "started");
    for (const store::RunRow& r : rows.value())
        std::printf("%-5lld %-6s %-14s %-6s %-6s %6llu %-10s %s %s\n", static_cast<long long>(r.id), r.mode.c_str(),
            r.policy.c_str(), r.queue.c_str(), r.backfill.c_str(), static_cast<unsigned long long>(r.seed),
            r.status.c_str(), r.startedAt.c_str(), r.error.c_str());
    return 0;
}

int runReplay(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, { "policy", "mode", "ratio", "seeds", "procs-per-node", "timezone", "sacct-fields", "log-year", "max-tasks", "top-k", "tie-break", "queue", "backfill", "head", "sla",
               "window", "tick", "preemption", "migration", "migration-restart", "migrations-per-hour", "migration-budget", "project", "jobs", "from", "to", "scheduler-config" },
            { "json", "strict", "power-off-idle", "no-trim" });
        !e.empty())
        return fail("replay: " + e, 2);
    if (args.positional().empty())
        return fail("replay: give trace files", 2);
    trace::ImportOptions importOptions;
    if (std::string e = importOptionsFrom(args, importOptions); !e.empty())
        return fail("replay: " + e, 2);
    const std::string modeArg = args.value("mode").value_or("auto");
    if (modeArg != "fill" && modeArg != "timed" && modeArg != "auto")
        return fail("replay: --mode is auto (the trace decides, the default), fill or timed", 2);
    // --from / --to: the replay window, from the first submit ("12d", "295h", seconds).
    std::optional<double> fromArg, toArg;
    for (const char* key : { "from", "to" })
        if (auto text = args.value(key)) {
            auto v = workflow::parseRunTime(*text, sim::RunMode::Timed);
            if (!v)
                return fail(std::string("replay: --") + key + ": " + v.error().message, 2);
            (std::string(key) == "from" ? fromArg : toArg) = v.value();
        }
    if ((fromArg || toArg) && modeArg == "fill")
        return fail("replay: --from and --to cut a timed replay; the fill experiment replays the whole pod list", 2);
    if (fromArg && toArg && *toArg <= *fromArg)
        return fail("replay: --to must be after --from", 2);
    std::string error;
    sim::FillOptions fill;
    fill.ratio = args.real("ratio", fill.ratio, error);
    fill.trimAboveRatio = !args.flag("no-trim");
    fill.topK = int(args.integer("top-k", 8, error));
    // Default: the reference each mode follows; fill the FGD authors' simulator (a seeded node
    // order), timed upstream kube-scheduler (random per decision).
    if (auto t = args.value("tie-break"); t && !policy::parseTieBreak(*t, fill.tieBreak))
        return fail("replay: --tie-break is random, first or order", 2);
    auto parsedSeeds = workflow::parseSeeds(args.value("seeds").value_or("42"));
    if (!parsedSeeds)
        return fail("replay: --" + parsedSeeds.error().message, 2);
    const std::vector<uint64_t>& seeds = parsedSeeds.value();
    const std::vector<std::string> policies = splitList(args.value("policy").value_or("bestfit,fgd,random"));
    const int parallelJobs = int(args.integer("jobs", defaultJobs(), error));
    if (!error.empty() || parallelJobs < 1 || parallelJobs > 256)
        return fail("replay: --jobs takes a number of threads from 1 to 256", 2);
    for (const std::string& p : policies)
        if (!rl::isModelPolicy(p) && !policy::makePlacementPolicy(p))
            return fail("replay: unknown policy '" + p + "' (see schedlab-cli policies; models: learned:FILE.slq, torchscript:FILE.pt)", 2);
    // --scheduler-config: a KubeSchedulerConfiguration for k8s-default / k8s-sampling, kept whole
    // with each run so that it replays the same later.
    std::string schedulerConfig;
    if (auto path = args.value("scheduler-config")) {
        auto config = policy::readKubeSchedulerConfig(*path, &schedulerConfig);
        if (!config)
            return fail("replay: --scheduler-config: " + config.error().toString(), 2);
        // A logged run keeps it too: its decisions are then re-scored under it (decisions --agreement).
        if (std::none_of(policies.begin(), policies.end(), [](const std::string& p) { return policy::acceptsSchedulerConfig(p) || p == "logged"; }))
            return fail("replay: --scheduler-config applies to k8s-default, k8s-sampling and logged runs; --policy names none", 2);
        std::fprintf(stderr, "schedlab-cli: scheduler configuration (profile %s): %s\n", config->profile.c_str(), config->summary().c_str());
        if (!config->unmodelled.empty()) {
            std::string list;
            for (const std::string& u : config->unmodelled)
                list += (list.empty() ? "" : ", ") + u;
            std::fprintf(stderr, "schedlab-cli: not modelled (they score every node alike here): %s\n", list.c_str());
        }
    }

    auto loaded = trace::loadTrace(args.positional(), importOptions);
    if (!loaded)
        return fail(loaded.error().toString());
    const trace::Trace& trace = loaded->trace;
    std::string mode = modeArg;
    if (modeArg == "auto") {
        const workflow::ModeChoice choice = workflow::chooseMode(trace);
        mode = sim::runModeName(choice.mode);
        std::fprintf(stderr, "schedlab-cli: auto mode: %s (--mode fill|timed to choose)\n", choice.reason.c_str());
        if (mode == "fill" && (fromArg || toArg))
            return fail("replay: --from and --to cut a timed replay; auto chose the fill experiment (give --mode timed)", 2);
    }
    if (!args.value("tie-break"))
        policy::parseTieBreak(mode == "fill" ? "order" : "random", fill.tieBreak);
    if (mode == "fill") {
        sim::RunSpec fillSpec = sim::RunSpec::fill({}, fill);
        if (std::string e = parseRoomOptions(args, fillSpec); !e.empty())
            return fail("replay: " + e, 2);
        fill = *fillSpec.fillOptions();
    }
    std::optional<trace::TimeSpan> window;
    if (mode == "timed" && (fromArg || toArg)) {
        const trace::LoadProfile profile = trace::loadProfile(trace, 1);
        window = trace::TimeSpan { profile.startS + fromArg.value_or(0), toArg ? profile.startS + *toArg : -1 };
    } else if (mode == "timed" && modeArg == "auto") {
        window = workflow::defaultReplayWindow(trace);
        if (window) {
            const double first = trace::loadProfile(trace, 1).startS;
            std::fprintf(stderr, "schedlab-cli: replaying the busiest %s of the trace: --from %s --to %s (--from 0 for all of it)\n",
                workflow::formatDuration(window->lengthS()).c_str(), workflow::formatDuration(window->fromS - first).c_str(),
                workflow::formatDuration(window->toS - first).c_str());
        }
    }
    std::unique_ptr<store::Project> project;
    int64_t traceId = -1;
    if (auto path = args.value("project")) {
        auto opened = store::Project::open(*path);
        if (!opened)
            return fail(opened.error().toString());
        project = std::move(opened).value();
        if (project->readOnly())
            return fail(*path + ": project is read-only; runs cannot be stored");
        if (project->recoveredRuns() > 0)
            std::fprintf(stderr, "schedlab-cli: %d interrupted run(s) in %s marked failed\n", project->recoveredRuns(),
                path->c_str());
        auto id = project->addTrace(trace, loaded->readPaths()); // a stream's bytes: its copy
        if (!id)
            return fail(id.error().toString());
        traceId = id.value();
    }
    if (mode == "timed")
        return runTimed(args, trace, policies, seeds, fill.tieBreak, fill.topK, project.get(), traceId, window, schedulerConfig);

    QJsonArray runs;
    struct Row {
        std::string policy;
        Stat alloc, frag, failed, seconds, migrations;
    };
    std::vector<Row> rows;
    // Every (policy, seed) cell is independent: without a project they run on --jobs threads (each
    // with its own policy), results kept in cell order, so the output equals a sequential run.
    // With a project the cells run one after the other, each recorded as it starts and ends.
    const int jobs = project ? 1 : parallelJobs;
    const std::size_t cells = policies.size() * seeds.size();
    std::vector<std::optional<Result<workflow::RunOutcome>>> results(cells);
    auto cell = [&](std::size_t c) {
        sim::FillOptions o = fill;
        o.seed = seeds[c % seeds.size()];
        sim::RunSpec spec = sim::RunSpec::fill(policies[c / seeds.size()], o);
        spec.schedulerConfig = schedulerConfig;
        results[c] = runCell(spec, trace, project.get(), traceId);
    };
    runParallel(cells, jobs, cell);
    for (std::size_t pi = 0; pi < policies.size(); ++pi) {
        Row row { policies[pi], {}, {}, {}, {}, {} };
        for (std::size_t si = 0; si < seeds.size(); ++si) {
            const Result<workflow::RunOutcome>& out = *results[pi * seeds.size() + si];
            if (!out)
                return fail(out.error().toString());
            const sim::FillResult* r = out->fill.get();
            row.alloc.add(r->finalGpuAllocPct);
            row.frag.add(r->finalFragRatePct);
            row.failed.add(double(r->failed));
            row.seconds.add(r->seconds);
            row.migrations.add(double(r->migrations));
            if (args.flag("json"))
                runs.append(fillResultToJson(*r));
        }
        rows.push_back(row);
    }
    if (args.flag("json")) {
        QJsonObject o { { "schema", "schedlab.replay/1" }, { "mode", "fill" }, { "ratio", fill.ratio },
            { "tieBreak", policy::tieBreakName(fill.tieBreak) }, { "trimAboveRatio", fill.trimAboveRatio },
            { "runs", runs } };
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    std::printf("fill experiment: %zu nodes, %lld GPUs, %zu pods, ratio %.2f, %zu seed(s), ties: %s\n",
        trace.nodes.size(), static_cast<long long>(trace.totalGpus()), trace.tasks.size(), fill.ratio, seeds.size(),
        policy::tieBreakName(fill.tieBreak));
    if (!results.empty() && *results[0]) {
        const sim::FillResult& first = *(*results[0])->fill;
        if (first.podsRemoved > 0)
            std::printf("the pod list asks for %.1f %% of GPU capacity: %lld pods removed at random (per seed) down to "
                        "ratio %.2f, as the FGD authors do (--no-trim replays every pod)\n",
                first.originalRequestPct, static_cast<long long>(first.podsRemoved), fill.ratio);
        else if (first.originalRequestPct > 100.0 * fill.ratio)
            std::printf("the pod list asks for %.1f %% of GPU capacity, above ratio %.2f: every pod replayed (--no-trim)\n",
                first.originalRequestPct, fill.ratio);
    }
    std::printf("%-14s %26s %26s %22s %10s\n", "policy", "GPU alloc % mean [min,max]", "frag rate % mean [min,max]",
        "failed pods [min,max]", "s/run");
    for (const Row& r : rows)
        std::printf("%-14s %8.2f [%6.2f,%6.2f] %8.2f [%6.2f,%6.2f] %8.1f [%5.0f,%5.0f] %10.3f\n", r.policy.c_str(),
            r.alloc.mean(), r.alloc.min, r.alloc.max, r.frag.mean(), r.frag.min, r.frag.max, r.failed.mean(),
            r.failed.min, r.failed.max, r.seconds.mean());
    if (fill.migration != sim::Migration::None) {
        std::printf("defragment on failure (%s): pods moved, mean over seeds:", fill.migrationBudget > 0
                ? ("at most " + std::to_string(fill.migrationBudget) + " a run").c_str() : "no budget");
        for (const Row& r : rows)
            std::printf(" %s %.1f", r.policy.c_str(), r.migrations.mean());
        std::printf("\n");
    }
    return 0;
}

} // namespace schedlab::cli
