// `schedlab-cli sweep plan|run|merge|status|emit` (core/workflow/sweep.h, docs/sweeps.md).

#include "command_table.h"
#include "cli_args.h"
#include "run_option_args.h"
#include "commands.h"
#include "import_options.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/placement_policy.h"
#include "rl/learned_policy.h"
#include "rl/reward.h"
#include "store/project.h"
#include "workflow/run_args.h"
#include "workflow/sweep.h"
#include "workflow/sweep_emit.h"
#include "workflow/sweep_progress.h"

#include <QCoreApplication>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>

namespace schedlab::cli {

namespace {

/// Training cells (--train-rounds, --weights ranges and the train options); an error text.
std::string trainingFrom(const Args& a, workflow::SweepSpec& spec)
{
    std::string error;
    store::SweepTraining t;
    t.rounds = int(a.integer("train-rounds", 1, error));
    t.episodes = int(a.integer("episodes", t.episodes, error));
    t.learningRate = a.real("lr", t.learningRate, error);
    t.gamma = a.real("gamma", t.gamma, error);
    t.batchSize = int(a.integer("batch", t.batchSize, error));
    t.maxPods = a.integer("pods", 0, error);
    if (!error.empty())
        return error;
    if (t.rounds < 1 || t.rounds > 1000 || t.episodes < 1 || !(t.learningRate > 0) || !(t.gamma >= 0 && t.gamma < 1) || t.batchSize < 1)
        return "--train-rounds 1..1000, --episodes >= 1, --lr > 0, --gamma in [0, 1), --batch >= 1";
    for (const char* flag : { "window", "from" })
        if (auto v = a.value(flag)) {
            auto d = *v == "0" ? Result<double>(0.0) : workflow::parseDuration(*v);
            if (!d)
                return std::string("--") + flag + ": " + d.error().message;
            (std::string(flag) == "window" ? t.windowS : t.fromS) = *d;
        }
    auto evalSeeds = workflow::parseSeeds(a.value("eval-seeds").value_or("42-44"));
    if (!evalSeeds)
        return "--eval-" + evalSeeds.error().message;
    t.evalSeeds = evalSeeds.value();
    if (auto b = a.value("baselines"))
        t.baselines = splitList(*b);
    for (const std::string& b : t.baselines)
        if (!policy::makePlacementPolicy(b))
            return "--baselines: unknown policy '" + b + "'";
    // Each weight vector checked and written in full (RewardConfig text), so cells compare.
    auto vectors = store::expandWeightRanges(a.value("weights").value_or(rl::RewardConfig {}.toString()));
    if (!vectors)
        return "--" + vectors.error().message;
    for (const std::string& v : *vectors) {
        auto w = rl::RewardConfig::parse(v);
        if (!w)
            return "--weights '" + v + "': " + w.error().message;
        spec.weights.push_back(w->toString());
    }
    spec.train = t;
    spec.policies.clear();
    return {};
}

} // namespace

int sweepPlan(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("sweep plan"));
        !e.empty())
        return fail("sweep plan: " + e, 2);
    const auto out = a.value("out");
    sim::RunMode mode = sim::RunMode::Fill;
    if (!out || a.positional().empty() || !sim::parseRunMode(a.value("mode").value_or(""), mode))
        return fail("sweep plan: usage: sweep plan TRACE... --mode fill|timed --policy a,b --seeds 42-51 --shards N --out S.sweep "
                    "(several traces: separate their file groups with ',')",
            2);
    workflow::SweepSpec spec;
    if (std::string e = importOptionsFrom(a, spec.importOptions); !e.empty())
        return fail("sweep plan: " + e, 2);
    // TRACE... : files of one trace, or groups separated by "," ("a.csv b.csv , c.swf").
    spec.traces.emplace_back();
    for (const std::string& p : a.positional()) {
        if (p == ",") {
            spec.traces.emplace_back();
            continue;
        }
        spec.traces.back().push_back(p);
    }
    std::erase_if(spec.traces, [](const auto& t) { return t.empty(); });
    spec.policies = splitList(a.value("policy").value_or("bestfit,fgd"));
    for (const std::string& p : spec.policies)
        if (!rl::isModelPolicy(p) && !policy::makePlacementPolicy(p))
            return fail("sweep plan: unknown policy '" + p + "' (see schedlab-cli policies)", 2);
    auto seeds = workflow::parseSeeds(a.value("seeds").value_or("42"));
    if (!seeds)
        return fail("sweep plan: --" + seeds.error().message, 2);
    spec.seeds = seeds.value();
    std::string error;
    spec.shards = int(a.integer("shards", 1, error));
    const std::string record = a.value("record").value_or("summary");
    if (record != "full" && record != "summary")
        return fail("sweep plan: --record is summary (results, series, summaries) or full (and decision logs, journals)", 2);
    spec.recordDecisions = record == "full";
    if (mode == sim::RunMode::Fill) {
        sim::FillOptions f;
        f.ratio = a.real("ratio", f.ratio, error);
        policy::parseTieBreak(a.value("tie-break").value_or("order"), f.tieBreak);
        spec.base = sim::RunSpec::fill({}, f);
    } else {
        sim::TimedOptions t;
        policy::parseTieBreak(a.value("tie-break").value_or("random"), t.tieBreak);
        spec.base = sim::RunSpec::timed({}, t);
        if (std::string e = parseQueueOptions(a, *spec.base.timedOptions()); !e.empty())
            return fail("sweep plan: " + e, 2);
    }
    if (!error.empty())
        return fail("sweep plan: " + error, 2);
    if (auto path = a.value("scheduler-config")) {
        auto config = policy::readKubeSchedulerConfig(*path, &spec.base.schedulerConfig);
        if (!config)
            return fail("sweep plan: --scheduler-config: " + config.error().toString(), 2);
    }
    if (a.value("train-rounds") || a.value("weights")) {
        if (std::string e = trainingFrom(a, spec); !e.empty())
            return fail("sweep plan: " + e, 2);
    }
    auto plan = workflow::makeSweepPlan(spec);
    if (!plan)
        return fail("sweep plan: " + plan.error().toString(), plan.error().code == ErrorCode::Invalid ? 2 : 1);
    if (Status s = workflow::writeSweepPlan(*plan, *out); !s)
        return fail(s.error().toString());
    if (spec.train)
        std::printf("wrote %s: sweep %s, %zu training cells (%zu traces x %zu weight vectors x %zu seeds, %d rounds each) in %d shards\n",
            out->c_str(), plan->id.c_str(), plan->cells.size(), plan->traces.size(), spec.weights.size(), spec.seeds.size(), spec.train->rounds,
            plan->shards);
    else
        std::printf("wrote %s: sweep %s, %zu cells (%zu traces x %zu policies x %zu seeds) in %d shards\n", out->c_str(), plan->id.c_str(),
            plan->cells.size(), plan->traces.size(), spec.policies.size(), spec.seeds.size(), plan->shards);
    return 0;
}

namespace {
// The default shard file of shard `i`: next to the plan.
std::string shardFile(const std::string& planPath, int i) { return planPath + ".shard-" + std::to_string(i) + ".schedlab"; }
} // namespace

namespace {
/// Fault injection for the restart tests (tests/cli/test_cli_sweep.cpp): with
/// SCHEDLAB_FAULT_KILL_AFTER_CELLS=N the process kills itself with SIGKILL, as a lost node would,
/// right after the N-th cell of this run is committed. Without the variable: no callback.
ProgressFn faultInjection()
{
    const char* text = std::getenv("SCHEDLAB_FAULT_KILL_AFTER_CELLS");
    const long after = text ? std::atol(text) : 0;
    if (after <= 0)
        return {};
    return [after, cells = 0L](double) mutable {
        if (++cells == after)
            ::raise(SIGKILL);
    };
}
} // namespace

int sweepRun(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("sweep run")); !e.empty())
        return fail("sweep run: " + e, 2);
    if (a.positional().size() != 1)
        return fail("sweep run: usage: sweep run S.sweep [--shard I] [--of N] [--project SHARD.schedlab] | "
                    "sweep run S.sweep --only-missing [--merged P.schedlab] [--project OUT.schedlab]",
            2);
    const std::string planPath = a.positional()[0];
    auto plan = workflow::readSweepPlan(planPath);
    if (!plan)
        return fail(plan.error().toString());
    if (a.flag("only-missing")) {
        // Every cell no shard file (nor the merged project) holds finished, wherever its shard was.
        if (a.value("shard"))
            return fail("sweep run: --only-missing runs the cells of every shard; leave out --shard", 2);
        std::unique_ptr<store::Project> merged;
        if (auto m = a.value("merged")) {
            auto p = store::Project::open(*m, store::Project::OpenMode::ReadOnly);
            if (!p)
                return fail(p.error().toString());
            merged = std::move(p).value();
        }
        const std::string projectPath = a.value("project").value_or(planPath + ".shard-missing.schedlab");
        auto project = store::Project::open(projectPath);
        if (!project)
            return fail(project.error().toString());
        const auto t0 = std::chrono::steady_clock::now();
        auto report = workflow::runMissingCells(*plan, workflow::findShardFiles(planPath), merged.get(), *project.value());
        if (!report)
            return fail(report.error().toString());
        std::printf("missing cells of sweep %s into %s: %d cells run, %d done before (skipped), %d failed, %.2f s\n", plan->id.c_str(),
            projectPath.c_str(), report->ran, report->skipped, report->failed,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        for (const std::string& e : report->errors)
            std::fprintf(stderr, "schedlab-cli: %s\n", e.c_str());
        return report->failed ? 1 : 0;
    }
    std::string error;
    int shard = int(a.integer("shard", -1, error));
    if (!error.empty())
        return fail("sweep run: " + error, 2);
    if (shard < 0)
        shard = workflow::shardFromEnvironment();
    if (shard < 0)
        return fail("sweep run: give --shard I (or run under a Slurm array or a Kubernetes Indexed Job)", 2);
    if (auto of = a.value("of"); of && std::to_string(plan->shards) != *of)
        return fail("sweep run: --of " + *of + ", but the plan has " + std::to_string(plan->shards) + " shards", 2);
    const std::string projectPath = a.value("project").value_or(shardFile(planPath, shard));
    auto project = store::Project::open(projectPath);
    if (!project)
        return fail(project.error().toString());
    const auto t0 = std::chrono::steady_clock::now();
    auto report = workflow::runSweepShard(*plan, shard, *project.value(), faultInjection());
    if (!report)
        return fail(report.error().toString());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("shard %d of sweep %s into %s: %d cells run, %d done before (skipped), %d failed, %.2f s\n", shard, plan->id.c_str(),
        projectPath.c_str(), report->ran, report->skipped, report->failed, secs);
    for (const std::string& e : report->errors)
        std::fprintf(stderr, "schedlab-cli: %s\n", e.c_str());
    return report->failed ? 1 : 0;
}

namespace {
int printMergeReport(const workflow::MergeReport& r, std::size_t cells)
{
    for (const std::string& e : r.refused)
        std::fprintf(stderr, "schedlab-cli: refused %s\n", e.c_str());
    std::printf("%d cells merged now, %d before; %zu of %zu cells missing", r.merged, r.already, r.missing.size(), cells);
    if (!r.missing.empty()) {
        std::printf(":");
        for (std::size_t i = 0; i < r.missing.size() && i < 20; ++i)
            std::printf(" %d", r.missing[i]);
        if (r.missing.size() > 20)
            std::printf(" ...");
    }
    std::printf("\n");
    return r.refused.empty() && r.missing.empty() ? 0 : 1;
}
} // namespace

int sweepMerge(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("sweep merge")); !e.empty())
        return fail("sweep merge: " + e, 2);
    const auto projectPath = a.value("project");
    if (!projectPath || a.positional().size() < 2)
        return fail("sweep merge: usage: sweep merge S.sweep SHARD.schedlab... --project P.schedlab", 2);
    auto plan = workflow::readSweepPlan(a.positional()[0]);
    if (!plan)
        return fail(plan.error().toString());
    auto project = store::Project::open(*projectPath);
    if (!project)
        return fail(project.error().toString());
    const std::vector<std::string> shards(a.positional().begin() + 1, a.positional().end());
    const auto t0 = std::chrono::steady_clock::now();
    auto report = workflow::mergeSweep(*plan, shards, *project.value());
    if (!report)
        return fail(report.error().toString());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("merged %zu shard files into %s in %.2f s: ", shards.size(), projectPath->c_str(), secs);
    return printMergeReport(*report, plan->cells.size());
}

int sweepStatus(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("sweep status")); !e.empty())
        return fail("sweep status: " + e, 2);
    if (a.positional().empty())
        return fail("sweep status: usage: sweep status S.sweep [SHARD.schedlab...] [--project MERGED.schedlab]", 2);
    const std::string planPath = a.positional()[0];
    auto plan = workflow::readSweepPlan(planPath);
    if (!plan)
        return fail(plan.error().toString());
    std::vector<std::string> shards(a.positional().begin() + 1, a.positional().end());
    if (shards.empty()) // where sweep run and sweep emit put them
        shards = workflow::findShardFiles(planPath);
    std::unique_ptr<store::Project> merged;
    if (const auto m = a.value("project")) {
        auto p = store::Project::open(*m, store::Project::OpenMode::ReadOnly);
        if (!p)
            return fail(p.error().toString());
        merged = std::move(p).value();
    }
    const workflow::SweepProgress progress = workflow::readSweepProgress(*plan, shards, merged.get());
    std::printf("sweep %s: %zu cells in %d shards, %zu traces; %zu shard files read\n", plan->id.c_str(), plan->cells.size(), plan->shards,
        plan->traces.size(), progress.shardFiles.size());
    for (const std::string& problem : progress.problems)
        std::printf("  %s\n", problem.c_str());
    std::vector<int> done(std::size_t(plan->shards), 0), cellsOf(std::size_t(plan->shards), 0);
    for (const auto& c : plan->cells) {
        ++cellsOf[std::size_t(c.shard)];
        const workflow::CellStatus st = progress.cells[std::size_t(c.index)].status;
        if (st == workflow::CellStatus::Finished || st == workflow::CellStatus::Merged)
            ++done[std::size_t(c.shard)];
    }
    for (int i = 0; i < plan->shards; ++i)
        std::printf("  shard %d: %d of %d cells finished\n", i, done[std::size_t(i)], cellsOf[std::size_t(i)]);
    for (const auto& c : plan->cells)
        if (const auto& p = progress.cells[std::size_t(c.index)];
            p.status == workflow::CellStatus::Running || p.status == workflow::CellStatus::Failed)
            std::printf("  cell %d (%s seed %llu): %s, %s\n", c.index, c.spec.policy.c_str(), static_cast<unsigned long long>(c.spec.seed()),
                workflow::cellStatusName(p.status), p.error.c_str());
    const int finished = progress.count(workflow::CellStatus::Finished) + progress.count(workflow::CellStatus::Merged);
    std::printf("%d of %zu cells finished; %zu to run (sweep run S.sweep --shard I skips the finished ones)\n", finished, plan->cells.size(),
        plan->cells.size() - std::size_t(finished));
    if (!progress.problems.empty()) // what could not be read may hold finished cells
        return fail("sweep status: " + std::to_string(progress.problems.size()) + " file(s) could not be read (above); the counts leave them out");
    return 0;
}

int sweepEmit(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("sweep emit"));
        !e.empty())
        return fail("sweep emit: " + e, 2);
    if (a.positional().size() != 2 || (a.positional()[0] != "slurm" && a.positional()[0] != "k8s"))
        return fail("sweep emit: usage: sweep emit slurm|k8s S.sweep [--dir SHARDS] [--project P] [--parallel M] [--cpus C] [--mem 4G] "
                    "[--time 04:00:00] [--cli PATH] [--image IMG --claim PVC]",
            2);
    const bool slurm = a.positional()[0] == "slurm";
    const std::string planPath = a.positional()[1];
    auto plan = workflow::readSweepPlan(planPath);
    if (!plan)
        return fail(plan.error().toString());
    workflow::EmitOptions o;
    std::error_code ec;
    const std::string absPlan = std::filesystem::absolute(planPath, ec).lexically_normal().string();
    if (slurm) {
        o.cli = a.value("cli").value_or(QCoreApplication::applicationFilePath().toStdString());
        o.planPath = a.value("plan-path").value_or(absPlan);
        o.shardDir = a.value("dir").value_or(absPlan + ".shards");
        o.project = a.value("project").value_or(absPlan + ".merged.schedlab");
    } else {
        o.cli = a.value("cli").value_or("schedlab-cli");
        o.planPath = a.value("plan-path").value_or("/sweep/" + std::filesystem::path(planPath).filename().string());
        o.shardDir = a.value("dir").value_or("/sweep/shards");
        o.project = a.value("project").value_or("/sweep/merged.schedlab");
    }
    std::string error;
    o.parallel = int(a.integer("parallel", 0, error));
    o.cpus = int(a.integer("cpus", 1, error));
    if (!error.empty() || o.parallel < 0 || o.cpus < 1)
        return fail("sweep emit: " + (error.empty() ? std::string("--parallel >= 0, --cpus >= 1") : error), 2);
    o.memory = a.value("mem").value_or(o.memory);
    o.timeLimit = a.value("time").value_or(o.timeLimit);
    o.image = a.value("image").value_or(o.image);
    o.volumeClaim = a.value("claim").value_or(o.volumeClaim);
    std::fputs((slurm ? workflow::emitSlurm(*plan, o) : workflow::emitKubernetes(*plan, o)).c_str(), stdout);
    return 0;
}

} // namespace schedlab::cli
