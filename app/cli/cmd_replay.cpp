// `schedlab-cli replay`: runs policies over a trace (fill experiment or timed replay) for a range of
// seeds and prints a comparison table (mean over seeds with min/max), or JSON (docs/cli-json.md).

#include "command_table.h"
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
Result<workflow::RunOutcome> runCell(
    const sim::RunSpec& spec, const trace::Trace& trace, store::Project* project, int64_t traceId, int topK)
{
    if (!project)
        return workflow::execute(spec, trace, workflow::ExecuteOptions { false, topK });
    workflow::RunRecorder recorder(*project, traceId);
    recorder.setTopK(topK);
    return recorder.run(spec, trace);
}

// What every cell of a replay shares.
struct ReplayRun {
    const trace::Trace& trace;
    std::vector<std::string> policies;
    std::vector<uint64_t> seeds;
    sim::FillOptions fill; ///< the fill experiment's options; tieBreak serves timed runs too
    int topK = 8; ///< candidates kept per decision in the project's log
    std::string schedulerConfig; ///< a KubeSchedulerConfiguration's text, kept with each run
    store::Project* project = nullptr; ///< null: runs are not recorded
    int64_t traceId = -1;
};

// --window, --tick and --sla of a timed replay. Returns an error text.
std::string parseTimedReport(const Args& args, sim::TimedOptions& o)
{
    std::string error;
    o.p99WindowS = args.real("window", o.p99WindowS, error);
    o.tickS = args.real("tick", 0, error);
    if (!error.empty() || o.p99WindowS <= 0 || o.tickS < 0)
        return error.empty() ? std::string("--window must be > 0, --tick >= 0") : error;
    // --sla default=3600,LS=600,BE=7200
    for (const std::string& item : splitList(args.value("sla").value_or(""))) {
        const auto eq = item.find('=');
        double v = 0;
        try {
            v = std::stod(item.substr(eq + 1));
        } catch (...) {
            return "--sla takes CLASS=SECONDS,...";
        }
        if (eq == std::string::npos || v <= 0)
            return "--sla takes CLASS=SECONDS,...";
        if (item.substr(0, eq) == "default")
            o.defaultSlaS = v;
        else
            o.slaByQos[item.substr(0, eq)] = v;
    }
    return {};
}

// One policy's timed runs over the seeds, and what the runs have in common.
struct TimedRow {
    std::string policy;
    Stat waitMean, waitP99, bsld, failed, cpu, gpu, frag, energy, sim, preempted, migrated, lostGpuH, blocked;
    bool seedUsed = false;
    void add(const sim::TimedResult& r)
    {
        waitMean.add(r.waitS.mean);
        waitP99.add(r.waitS.p99);
        bsld.add(r.boundedSlowdown.mean);
        failed.add(double(r.failed));
        cpu.add(r.meanCpuUtil * 100);
        gpu.add(r.meanGpuUtil * 100);
        frag.add(r.meanGpuFragRate * 100);
        energy.add(r.energyKWh);
        sim.add(r.simSeconds);
        preempted.add(double(r.preemptions));
        migrated.add(double(r.migrations));
        lostGpuH.add(r.workLostGpuHours);
        blocked.add(double(r.gpuBlockedWithRoom));
        seedUsed = seedUsed || r.seedUse == "schedule";
    }
};
struct TimedTable {
    std::vector<TimedRow> rows;
    QJsonArray runs; ///< every run's JSON (with --json)
    int64_t outside = 0; ///< jobs the window left out (the same for every run)
    int64_t skipped = 0; ///< jobs without a run time (the same for every run)
    std::map<std::string, int64_t> divergences; ///< of the logged run (first seed)
    std::string firstDivergence;
};

// Every (policy, seed) run, one after the other. An error from the first that fails.
Result<TimedTable> runTimedCells(const ReplayRun& run, sim::TimedOptions o, bool json)
{
    TimedTable t;
    for (const std::string& name : run.policies) {
        TimedRow row;
        row.policy = name;
        for (uint64_t seed : run.seeds) {
            o.seed = seed;
            sim::RunSpec spec = sim::RunSpec::timed(name, o);
            spec.schedulerConfig = run.schedulerConfig;
            auto out = runCell(spec, run.trace, run.project, run.traceId, run.topK);
            if (!out)
                return out.error();
            const sim::TimedResult* r = out->timed.get();
            t.outside = r->outsideWindow;
            t.skipped = r->skipped;
            if (seed == run.seeds.front() && !r->divergences.empty() && t.divergences.empty())
                t.divergences = r->divergences, t.firstDivergence = r->firstDivergence;
            if (json)
                t.runs.append(timedResultToJson(*r));
            row.add(*r);
        }
        t.rows.push_back(row);
    }
    return t;
}

void printTimedHeader(const ReplayRun& run, const sim::TimedOptions& o, const TimedTable& t)
{
    const trace::Trace& trace = run.trace;
    const std::string jobsText = o.hasWindow()
        ? std::to_string(trace.jobs.size() - size_t(t.outside)) + " of " + std::to_string(trace.jobs.size()) + " jobs (submitted in the window)"
        : std::to_string(trace.jobs.size()) + " jobs";
    std::printf("timed replay: %zu nodes, %s, queue %s (head: %s), backfill %s, %zu seed(s); mean over "
                "seeds [min, max]; waits in s, p99 by nearest rank\n",
        trace.nodes.size(), jobsText.c_str(), policy::queueOrderName(o.queue).c_str(), sim::headRuleName(o.head),
        o.backfill == sim::Backfill::Easy ? "easy" : "none", run.seeds.size());
    std::string seedless; // policies whose runs drew no random number
    for (const TimedRow& r : t.rows)
        if (!r.seedUsed)
            seedless += (seedless.empty() ? "" : ", ") + r.policy;
    if (!seedless.empty())
        std::printf("no random numbers drawn for placements by %s (no random policy or ties): the seed changes no "
                    "start there (at most the order of equal candidates in the decision log)\n",
            seedless.c_str());
    std::string slaText;
    for (const auto& [cls, limit] : o.slaByQos)
        slaText += ", " + cls + " " + std::to_string(int64_t(limit)) + " s";
    std::printf("SLA: wait above default %lld s%s counts as a violation\n", static_cast<long long>(o.defaultSlaS), slaText.c_str());
}

void printRoomMaking(const sim::TimedOptions& o, const TimedTable& t)
{
    std::printf("making room: preemption %s, migration %s (restart %.0f s, %s); mean over seeds\n", sim::preemptionName(o.preemption),
        sim::migrationName(o.migration), o.migrationRestartS,
        o.migrationsPerHour > 0 ? (std::to_string(int64_t(o.migrationsPerHour)) + " a hour at most").c_str() : "no budget");
    std::printf("%-14s %12s %12s %16s %22s\n", "policy", "evictions", "migrations", "work lost GPU-h", "GPU jobs blocked, room");
    for (const TimedRow& r : t.rows)
        std::printf("%-14s %12.1f %12.1f %16.2f %22.1f\n", r.policy.c_str(), r.preempted.mean(), r.migrated.mean(), r.lostGpuH.mean(),
            r.blocked.mean());
    std::printf("GPU jobs blocked, room: GPU jobs that headed the queue and did not start although the cluster's "
                "free cpu, memory and GPU (summed over nodes) covered them\n");
}

void printLoggedDivergences(const std::vector<std::string>& policies, const TimedTable& t)
{
    if (t.divergences.empty() && std::find(policies.begin(), policies.end(), "logged") != policies.end())
        std::printf("logged: every logged decision was reproduced (no divergence from the log)\n");
    if (t.divergences.empty())
        return;
    int64_t total = 0;
    std::string kinds;
    for (const auto& [kind, n] : t.divergences) {
        total += n;
        kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
    }
    std::printf("logged: %lld decisions of the log the model cannot reproduce (%s); the first: %s\n", static_cast<long long>(total),
        kinds.c_str(), t.firstDivergence.c_str());
}

void printTimedText(const ReplayRun& run, const sim::TimedOptions& o, const TimedTable& t)
{
    printTimedHeader(run, o, t);
    std::printf("%-14s %26s %26s %9s %7s %7s %7s %7s %10s %8s\n", "policy", "wait mean [min,max]", "wait p99 [min,max]", "bsld",
        "failed", "cpu %", "gpu %", "frag %", "energy kWh", "sim s");
    for (const TimedRow& r : t.rows)
        std::printf("%-14s %9.1f [%7.1f,%7.1f] %9.1f [%7.1f,%7.1f] %9.2f %7.0f %7.1f %7.1f %7.1f %10.1f %8.3f\n", r.policy.c_str(),
            r.waitMean.mean(), r.waitMean.min, r.waitMean.max, r.waitP99.mean(), r.waitP99.min, r.waitP99.max, r.bsld.mean(),
            r.failed.mean(), r.cpu.mean(), r.gpu.mean(), r.frag.mean(), r.energy.mean(), r.sim.mean());
    if (o.preemption != sim::Preemption::None || o.migration != sim::Migration::None)
        printRoomMaking(o, t);
    if (t.skipped > 0)
        std::printf("%lld jobs have no run time in the trace (never started, or still running) and are not replayed\n",
            static_cast<long long>(t.skipped));
    printLoggedDivergences(run.policies, t);
}

int runTimed(const Args& args, const ReplayRun& run, const std::optional<trace::TimeSpan>& window)
{
    sim::TimedOptions o;
    if (window) {
        o.windowFromS = window->fromS;
        o.windowToS = window->toS;
    }
    o.tieBreak = run.fill.tieBreak;
    o.powerOffIdle = args.flag("power-off-idle");
    sim::RunSpec spec = sim::RunSpec::timed({}, o);
    if (std::string e = parseRunOptions(args, spec); !e.empty())
        return fail("replay: " + e, 2);
    o = *spec.timedOptions();
    if (std::string e = parseTimedReport(args, o); !e.empty())
        return fail("replay: " + e, 2);
    auto table = runTimedCells(run, o, args.flag("json"));
    if (!table)
        return fail(table.error().toString());
    if (!args.flag("json")) {
        printTimedText(run, o, *table);
        return 0;
    }
    QJsonObject out { { "schema", "schedlab.replay/1" }, { "mode", "timed" },
        { "queue", QString::fromStdString(policy::queueOrderName(o.queue)) },
        { "backfill", o.backfill == sim::Backfill::Easy ? "easy" : "none" }, { "head", sim::headRuleName(o.head) },
        { "preemption", sim::preemptionName(o.preemption) }, { "migration", sim::migrationName(o.migration) }, { "runs", table->runs } };
    std::fputs(QJsonDocument(out).toJson(QJsonDocument::Indented).constData(), stdout);
    return 0;
}
} // namespace

int runRuns(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("runs")); !e.empty())
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
    std::printf("%-5s %-6s %-14s %-6s %-6s %6s %-11s %s\n", "id", "mode", "policy", "queue", "bf", "seed", "status",
        "started");
    for (const store::RunRow& r : rows.value())
        std::printf("%-5lld %-6s %-14s %-6s %-6s %6llu %-11s %s %s\n", static_cast<long long>(r.id), r.mode.c_str(),
            r.policy.c_str(), r.queue.c_str(), r.backfill.c_str(), static_cast<unsigned long long>(r.seed),
            r.status.c_str(), r.startedAt.c_str(), r.error.c_str());
    return 0;
}

namespace {

// What the command line asks of a replay, checked before the trace is read.
struct ReplayRequest {
    std::optional<sim::RunMode> mode; ///< none = auto (the trace decides)
    std::optional<double> fromS, toS; ///< the timed replay's window from the first submit
    sim::FillOptions fill;
    int topK = 8;
    std::vector<uint64_t> seeds;
    std::vector<std::string> policies;
    int jobs = 1;
    std::string schedulerConfig;
    trace::ImportOptions import;
};

// --from / --to: the replay window, from the first submit ("12d", "295h", seconds).
std::string parseWindow(const Args& args, ReplayRequest& r)
{
    for (const char* key : { "from", "to" })
        if (auto text = args.value(key)) {
            auto v = workflow::parseRunTime(*text, sim::RunMode::Timed);
            if (!v)
                return std::string("--") + key + ": " + v.error().message;
            (std::string(key) == "from" ? r.fromS : r.toS) = v.value();
        }
    if ((r.fromS || r.toS) && r.mode == sim::RunMode::Fill)
        return "--from and --to cut a timed replay; the fill experiment replays the whole pod list";
    if (r.fromS && r.toS && *r.toS <= *r.fromS)
        return "--to must be after --from";
    return {};
}

// --scheduler-config: a KubeSchedulerConfiguration for k8s-default / k8s-sampling, kept whole
// with each run so that it replays the same later. What it sets is said on stderr.
std::string readSchedulerConfig(const Args& args, ReplayRequest& r)
{
    auto path = args.value("scheduler-config");
    if (!path)
        return {};
    auto config = policy::readKubeSchedulerConfig(*path, &r.schedulerConfig);
    if (!config)
        return "--scheduler-config: " + config.error().toString();
    // A logged run keeps it too: its decisions are then re-scored under it (decisions --agreement).
    if (std::none_of(r.policies.begin(), r.policies.end(), [](const std::string& p) { return policy::acceptsSchedulerConfig(p) || p == "logged"; }))
        return "--scheduler-config applies to k8s-default, k8s-sampling and logged runs; --policy names none";
    std::fprintf(stderr, "schedlab-cli: scheduler configuration (profile %s): %s\n", config->profile.c_str(), config->summary().c_str());
    if (!config->unmodelled.empty()) {
        std::string list;
        for (const std::string& u : config->unmodelled)
            list += (list.empty() ? "" : ", ") + u;
        std::fprintf(stderr, "schedlab-cli: not modelled (they score every node alike here): %s\n", list.c_str());
    }
    return {};
}

std::string parseReplayRequest(const Args& args, ReplayRequest& r)
{
    if (std::string e = importOptionsFrom(args, r.import); !e.empty())
        return e;
    if (const std::string mode = args.value("mode").value_or("auto"); mode != "auto") {
        sim::RunMode m;
        if (!sim::parseRunMode(mode, m))
            return "--mode is auto (the trace decides, the default), fill or timed";
        r.mode = m;
    }
    if (std::string e = parseWindow(args, r); !e.empty())
        return e;
    std::string error;
    r.fill.ratio = args.real("ratio", r.fill.ratio, error);
    r.fill.trimAboveRatio = !args.flag("no-trim");
    r.topK = int(args.integer("top-k", 8, error));
    // Default: the reference each mode follows; fill the FGD authors' simulator (a seeded node
    // order), timed upstream kube-scheduler (random per decision).
    if (auto t = args.value("tie-break"); t && !policy::parseTieBreak(*t, r.fill.tieBreak))
        return "--tie-break is random, first or order";
    auto seeds = workflow::parseSeeds(args.value("seeds").value_or("42"));
    if (!seeds)
        return "--" + seeds.error().message;
    r.seeds = seeds.value();
    r.policies = splitList(args.value("policy").value_or("bestfit,fgd,random"));
    r.jobs = int(args.integer("jobs", defaultJobs(), error));
    if (!error.empty() || r.jobs < 1 || r.jobs > 256)
        return "--jobs takes a number of threads from 1 to 256";
    for (const std::string& p : r.policies)
        if (!rl::isModelPolicy(p) && !policy::makePlacementPolicy(p))
            return "unknown policy '" + p + "' (see schedlab-cli policies; models: learned:FILE.slq, torchscript:FILE.pt)";
    return readSchedulerConfig(args, r);
}

// Once the trace is read: the mode auto picks (said on stderr), the default tie-break, the fill
// experiment's making room, and the timed window (auto: the busiest stretch). An error text.
std::string settleMode(const Args& args, const trace::Trace& trace, ReplayRequest& r, std::optional<trace::TimeSpan>& window)
{
    const bool autoMode = !r.mode;
    if (autoMode) {
        const workflow::ModeChoice choice = workflow::chooseMode(trace);
        r.mode = choice.mode;
        std::fprintf(stderr, "schedlab-cli: auto mode: %s (--mode fill|timed to choose)\n", choice.reason.c_str());
        if (r.mode == sim::RunMode::Fill && (r.fromS || r.toS))
            return "--from and --to cut a timed replay; auto chose the fill experiment (give --mode timed)";
    }
    if (!args.value("tie-break"))
        r.fill.tieBreak = r.mode == sim::RunMode::Fill ? policy::TieBreak::Order : policy::TieBreak::Random;
    if (r.mode == sim::RunMode::Fill) {
        sim::RunSpec fillSpec = sim::RunSpec::fill({}, r.fill);
        if (std::string e = parseRoomOptions(args, fillSpec); !e.empty())
            return e;
        r.fill = *fillSpec.fillOptions();
    }
    if (r.mode == sim::RunMode::Timed && (r.fromS || r.toS)) {
        const trace::LoadProfile profile = trace::loadProfile(trace, 1);
        window = trace::TimeSpan { profile.startS + r.fromS.value_or(0), r.toS ? profile.startS + *r.toS : -1 };
    } else if (r.mode == sim::RunMode::Timed && autoMode) {
        window = workflow::defaultReplayWindow(trace);
        if (window) {
            const double first = trace::loadProfile(trace, 1).startS;
            std::fprintf(stderr, "schedlab-cli: replaying the busiest %s of the trace: --from %s --to %s (--from 0 for all of it)\n",
                workflow::formatDuration(window->lengthS()).c_str(), workflow::formatDuration(window->fromS - first).c_str(),
                workflow::formatDuration(window->toS - first).c_str());
        }
    }
    return {};
}

// --project P: the project the runs go to, with the trace added. Null without --project.
Result<std::unique_ptr<store::Project>> openReplayProject(const Args& args, const trace::LoadedTrace& loaded, int64_t& traceId)
{
    auto path = args.value("project");
    if (!path)
        return std::unique_ptr<store::Project>();
    auto opened = store::Project::open(*path);
    if (!opened)
        return opened.error();
    std::unique_ptr<store::Project> project = std::move(opened).value();
    if (project->readOnly())
        return makeError(ErrorCode::Invalid, *path + ": project is read-only; runs cannot be stored");
    if (project->recoveredRuns() > 0)
        std::fprintf(stderr, "schedlab-cli: %d interrupted run(s) in %s marked failed\n", project->recoveredRuns(), path->c_str());
    auto id = project->addTrace(loaded.trace, loaded.readPaths()); // a stream's bytes: its copy
    if (!id)
        return id.error();
    traceId = id.value();
    return project;
}

struct FillRow {
    std::string policy;
    Stat alloc, frag, failed, seconds, migrations;
};

void printFillText(const ReplayRun& run, const std::vector<FillRow>& rows, const sim::FillResult* first)
{
    const sim::FillOptions& fill = run.fill;
    std::printf("fill experiment: %zu nodes, %lld GPUs, %zu pods, ratio %.2f, %zu seed(s), ties: %s\n", run.trace.nodes.size(),
        static_cast<long long>(run.trace.totalGpus()), run.trace.tasks.size(), fill.ratio, run.seeds.size(),
        policy::tieBreakName(fill.tieBreak));
    if (first && first->podsRemoved > 0)
        std::printf("the pod list asks for %.1f %% of GPU capacity: %lld pods removed at random (per seed) down to "
                    "ratio %.2f, as the FGD authors do (--no-trim replays every pod)\n",
            first->originalRequestPct, static_cast<long long>(first->podsRemoved), fill.ratio);
    else if (first && first->originalRequestPct > 100.0 * fill.ratio)
        std::printf("the pod list asks for %.1f %% of GPU capacity, above ratio %.2f: every pod replayed (--no-trim)\n",
            first->originalRequestPct, fill.ratio);
    std::printf("%-14s %26s %26s %22s %10s\n", "policy", "GPU alloc % mean [min,max]", "frag rate % mean [min,max]",
        "failed pods [min,max]", "s/run");
    for (const FillRow& r : rows)
        std::printf("%-14s %8.2f [%6.2f,%6.2f] %8.2f [%6.2f,%6.2f] %8.1f [%5.0f,%5.0f] %10.3f\n", r.policy.c_str(), r.alloc.mean(),
            r.alloc.min, r.alloc.max, r.frag.mean(), r.frag.min, r.frag.max, r.failed.mean(), r.failed.min, r.failed.max,
            r.seconds.mean());
    if (fill.migration != sim::Migration::None) {
        std::printf("defragment on failure (%s): pods moved, mean over seeds:",
            fill.migrationBudget > 0 ? ("at most " + std::to_string(fill.migrationBudget) + " a run").c_str() : "no budget");
        for (const FillRow& r : rows)
            std::printf(" %s %.1f", r.policy.c_str(), r.migrations.mean());
        std::printf("\n");
    }
}

int runFill(const Args& args, const ReplayRun& run, int parallelJobs)
{
    const std::vector<uint64_t>& seeds = run.seeds;
    // Every (policy, seed) cell is independent: without a project they run on --jobs threads (each
    // with its own policy), results kept in cell order, so the output equals a sequential run.
    // With a project the cells run one after the other, each recorded as it starts and ends.
    const std::size_t cells = run.policies.size() * seeds.size();
    std::vector<std::optional<Result<workflow::RunOutcome>>> results(cells);
    runParallel(cells, run.project ? 1 : parallelJobs, [&](std::size_t c) {
        sim::FillOptions o = run.fill;
        o.seed = seeds[c % seeds.size()];
        sim::RunSpec spec = sim::RunSpec::fill(run.policies[c / seeds.size()], o);
        spec.schedulerConfig = run.schedulerConfig;
        results[c] = runCell(spec, run.trace, run.project, run.traceId, run.topK);
    });
    QJsonArray runs;
    std::vector<FillRow> rows;
    for (std::size_t pi = 0; pi < run.policies.size(); ++pi) {
        FillRow row { run.policies[pi], {}, {}, {}, {}, {} };
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
        QJsonObject o { { "schema", "schedlab.replay/1" }, { "mode", "fill" }, { "ratio", run.fill.ratio },
            { "tieBreak", policy::tieBreakName(run.fill.tieBreak) }, { "trimAboveRatio", run.fill.trimAboveRatio }, { "runs", runs } };
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    printFillText(run, rows, !results.empty() && *results[0] ? (*results[0])->fill.get() : nullptr);
    return 0;
}

} // namespace

int runReplay(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("replay")); !e.empty())
        return fail("replay: " + e, 2);
    if (args.positional().empty())
        return fail("replay: give trace files", 2);
    ReplayRequest request;
    if (std::string e = parseReplayRequest(args, request); !e.empty())
        return fail("replay: " + e, 2);
    auto loaded = trace::loadTrace(args.positional(), request.import);
    if (!loaded)
        return fail(loaded.error().toString());
    std::optional<trace::TimeSpan> window;
    if (std::string e = settleMode(args, loaded->trace, request, window); !e.empty())
        return fail("replay: " + e, 2);
    int64_t traceId = -1;
    auto project = openReplayProject(args, *loaded, traceId);
    if (!project)
        return fail(project.error().toString());
    const ReplayRun run { loaded->trace, request.policies, request.seeds, request.fill, request.topK,
        request.schedulerConfig, project->get(), traceId };
    if (request.mode == sim::RunMode::Timed)
        return runTimed(args, run, window);
    return runFill(args, run, request.jobs);
}

} // namespace schedlab::cli
