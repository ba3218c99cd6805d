// `schedlab-cli train | eval | export-model`: fine-tune rounds of the learned policy, evaluation
// against baselines and TorchScript export (the lineage listing, `rounds`: cmd_rounds.cpp).

#include "command_table.h"
#include "cli_args.h"
#include "run_option_args.h"
#include "commands.h"
#include "import_options.h"

#include "metrics/pareto.h"

#include "policy/placement_policy.h"
#include "rl/fine_tune.h"
#include "rl/learned_policy.h"
#include "rl/q_network.h"
#include "trace/trace_window.h"
#include "store/project.h"
#include "store/sweep_plan.h"
#include "trace/trace_loader.h"
#include "workflow/fine_tune_session.h"
#include "workflow/run_args.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace schedlab::cli {

namespace {

struct Common {
    rl::TrainOptions train;
    double fromS = 0, windowS = 4 * 3600.0;
    std::vector<uint64_t> evalSeeds;
    std::vector<std::string> baselines;
};

// Timed: the budgets of the constraints (making room itself is a run option: run_option_args.h).
std::string parseBudget(const Args& a, rl::TrainOptions& t)
{
    if (auto b = a.value("budget")) {
        auto c = rl::Constraints::parse(*b);
        if (!c)
            return "--budget: " + c.error().message;
        t.constraints = c.value();
    }
    if (t.constraints.any() && t.mode() != sim::RunMode::Timed)
        return "--budget belongs to --mode timed";
    return {};
}

// Options shared by train and eval. Returns an error text.
std::string parseCommon(const Args& a, Common& c)
{
    std::string error;
    sim::RunMode mode = sim::RunMode::Fill;
    if (!sim::parseRunMode(a.value("mode").value_or("fill"), mode))
        return "--mode is fill or timed";
    c.train.run = rl::trainingRun(mode);
    if (std::string e = parseRunOptions(a, c.train.run); !e.empty())
        return e;
    if (sim::FillOptions* f = c.train.run.fillOptions()) {
        if (f->migration != sim::Migration::None)
            return "--preemption, --migration and --budget belong to --mode timed (rounds make room in timed replays only)";
        f->ratio = a.real("ratio", f->ratio, error);
        f->maxPods = a.integer("pods", 0, error);
    }
    if (auto preset = a.value("preset")) {
        auto r = rl::RewardConfig::preset(*preset);
        if (!r)
            return r.error().message;
        c.train.reward = r.value();
    }
    if (auto w = a.value("weights")) {
        auto r = rl::RewardConfig::parse(*w, c.train.reward);
        if (!r)
            return r.error().message;
        c.train.reward = r.value();
    }
    c.train.episodes = int(a.integer("episodes", 3, error));
    c.train.learningRate = a.real("lr", 1e-3, error);
    c.train.gamma = a.real("gamma", 0.9, error);
    if (error.empty() && !(c.train.gamma >= 0 && c.train.gamma < 1))
        return "--gamma takes a discount in [0, 1)";
    c.train.seed = uint64_t(a.integer("seed", 1000, error));
    c.train.batchSize = int(a.integer("batch", 64, error));
    // 0 (not given): the parent model's preselection, else 500 / 50 (rl::resolvePreselection).
    c.train.policy.preselectAbove = int(a.integer("preselect-above", 0, error));
    c.train.policy.preselectTop = int(a.integer("preselect-top", 0, error));
    if (error.empty() && (c.train.policy.preselectAbove < 0 || c.train.policy.preselectTop < 0))
        return "--preselect-above and --preselect-top take counts >= 1";
    c.train.policy.allowWait = a.flag("wait-action");
    c.train.policy.skip = a.flag("skip-action");
    c.train.policy.maxConsecutiveWaits = int(a.integer("max-waits", rl::defaultMaxWaits(c.train.policy.skip), error));
    if (c.train.policy.allowWait && c.train.policy.skip)
        return "--wait-action and --skip-action exclude each other (hold a job, or pass it over)";
    if (!error.empty())
        return error;
    if (auto w = a.value("window")) {
        auto d = workflow::parseDuration(*w);
        if (!d)
            return d.error().message;
        c.windowS = d.value();
    }
    if (auto f = a.value("from")) {
        auto d = f == std::string("0") ? Result<double>(0.0) : workflow::parseDuration(*f);
        if (!d)
            return d.error().message;
        c.fromS = d.value();
    }
    // --seeds as in replay; --eval-seeds is the older name.
    auto seeds = workflow::parseSeeds(a.value("seeds").value_or(a.value("eval-seeds").value_or("42-44")));
    if (!seeds)
        return "--" + seeds.error().message;
    c.evalSeeds = seeds.value();
    if (auto b = a.value("baselines"))
        c.baselines = splitList(*b);
    return parseBudget(a, c.train);
}

QJsonObject evalToJson(const std::vector<rl::EvalSummary>& eval)
{
    QJsonObject o;
    for (const rl::EvalSummary& s : eval) {
        QJsonObject m;
        for (const auto& [k, v] : s.mean)
            m[QString::fromStdString(k)] = v;
        o[QString::fromStdString(s.policy)] = m;
    }
    return o;
}

void printEval(const std::vector<rl::EvalSummary>& eval, const rl::TrainOptions& options)
{
    const std::vector<std::string> metrics = rl::evalMetrics(options.mode(), options);
    std::printf("  %-28s", "policy");
    for (const std::string& m : metrics)
        std::printf(" %16s", m.c_str());
    std::printf("\n");
    for (const rl::EvalSummary& s : eval) {
        std::printf("  %-28s", s.policy.substr(0, 28).c_str());
        for (const std::string& m : metrics)
            std::printf(" %16.2f", s.mean.count(m) ? s.mean.at(m) : 0.0);
        std::printf("\n");
    }
}

/// A weight sweep's outcome: each lineage's last round and the baselines, on the Pareto front
/// ("*") when no other row is as good in every metric and better in one (fill: allocation up,
/// failures and fragmentation down; timed: p99 and mean wait and failures down, utilisation up).
void printSweep(const std::vector<std::pair<std::string, rl::RoundResult>>& last, sim::RunMode mode)
{
    const std::vector<std::string> metrics = rl::evalMetrics(mode);
    std::vector<std::string> names;
    std::vector<std::vector<double>> points;
    for (const auto& [weights, r] : last)
        for (const rl::EvalSummary& s : r.eval)
            if (s.policy.rfind("learned", 0) == 0 || &r == &last.back().second) {
                names.push_back(s.policy.rfind("learned", 0) == 0 ? "round " + std::to_string(r.roundId) + " " + weights : s.policy);
                std::vector<double> v;
                for (const std::string& m : metrics)
                    v.push_back(s.mean.count(m) ? s.mean.at(m) : std::nan(""));
                points.push_back(v);
            }
    std::vector<metrics::Sense> senses;
    for (const std::string& m : metrics)
        senses.push_back(m == "finalGpuAllocPct" || m == "meanGpuUtilPct" ? metrics::Sense::Maximise : metrics::Sense::Minimise);
    const std::vector<bool> front = metrics::paretoFront(points, senses);
    std::printf("\nweight sweep: each lineage's last round and the baselines (* = on the Pareto front)\n  %-56s", "");
    for (const std::string& m : metrics)
        std::printf(" %16s", m.c_str());
    std::printf("\n");
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::printf("%s %-56s", front[i] ? "*" : " ", names[i].substr(0, 56).c_str());
        for (double v : points[i])
            std::printf(" %16.2f", v);
        std::printf("\n");
    }
}

Result<std::unique_ptr<store::Project>> openProject(const Args& a)
{
    auto path = a.value("project");
    if (!path)
        return std::unique_ptr<store::Project>();
    auto p = store::Project::open(*path);
    if (!p)
        return p.error();
    if (p.value()->recoveredRuns() > 0)
        std::fprintf(stderr, "schedlab-cli: %d interrupted run(s)/round(s) in %s marked failed\n", p.value()->recoveredRuns(),
            path->c_str());
    return p;
}

// What the command line asks of a training session, checked before any trace is read.
struct TrainRequest {
    Common c;
    std::string teacher; ///< a pre-training round imitating this heuristic comes first (empty: none)
    int rounds = 1;
};

// --teacher-loss, --validate and --blend: what a DQN round keeps from a heuristic and from its start.
std::string parseRoundShaping(const Args& a, rl::TrainOptions& t)
{
    // --teacher-loss NAME[:W]: the DQN rounds keep W x a margin loss toward NAME's choices.
    if (auto text = a.value("teacher-loss")) {
        const std::size_t colon = text->find(':');
        t.teacherLoss = text->substr(0, colon);
        char* end = nullptr;
        const std::string w = colon == std::string::npos ? "1" : text->substr(colon + 1);
        t.teacherLossWeight = std::strtod(w.c_str(), &end);
        if (!policy::makePlacementPolicy(t.teacherLoss))
            return "--teacher-loss: unknown heuristic '" + t.teacherLoss + "' (see schedlab-cli policies)";
        if (w.empty() || end != w.c_str() + w.size() || !std::isfinite(t.teacherLossWeight) || t.teacherLossWeight < 0)
            return "--teacher-loss " + *text + ": the weight after ':' must be a finite number >= 0";
    }
    // --validate SEEDS: each DQN round keeps its best episode on these seeds (timed: the p99 wait
    // over the training window).
    if (auto text = a.value("validate")) {
        auto seeds = workflow::parseSeeds(*text);
        if (!seeds)
            return "--validate: " + seeds.error().message;
        t.validationSeeds = seeds.value();
    }
    // --blend T: each DQN round ends with (1 - T) x its start + T x its fine-tuned weights (WiSE-FT).
    std::string error;
    t.blend = a.real("blend", 1.0, error);
    if (!error.empty() || !(t.blend > 0 && t.blend <= 1))
        return "--blend " + a.value("blend").value_or("") + ": the fine-tuned weights' share must be a number in (0, 1]";
    return {};
}

std::string parseTrainRequest(const Args& a, TrainRequest& r)
{
    r.teacher = a.value("teacher").value_or("");
    if (!r.teacher.empty() && !policy::makePlacementPolicy(r.teacher))
        return "--teacher: unknown heuristic '" + r.teacher + "' (see schedlab-cli policies)";
    if (std::string e = parseCommon(a, r.c); !e.empty())
        return e;
    if (std::string e = parseRoundShaping(a, r.c.train); !e.empty())
        return e;
    std::string error;
    r.rounds = int(a.integer("rounds", 1, error));
    if (!error.empty() || r.rounds < (r.teacher.empty() ? 1 : 0) || r.rounds > 1000)
        return r.teacher.empty() ? "--rounds takes 1..1000" : "--rounds takes 0..1000 with --teacher";
    return {};
}

// --sweep weights=RANGES: one lineage per weight vector (each on top of --weights/--preset), in
// the project. Returns an error text.
std::string parseSweep(const Args& a, const store::Project* p, const rl::RewardConfig& base, std::vector<rl::RewardConfig>& sweep)
{
    auto text = a.value("sweep");
    if (!text)
        return {};
    if (text->rfind("weights=", 0) != 0)
        return "--sweep takes weights=RANGES (e.g. weights=balance=0.2:0.6:0.2,packing=0.3; ';' between vectors)";
    if (!p || a.value("out"))
        return "--sweep keeps one lineage per weight vector: give --project P (not --out)";
    auto vectors = store::expandWeightRanges(text->substr(8));
    if (!vectors)
        return "--sweep: " + vectors.error().message;
    for (const std::string& v : *vectors) {
        auto w = rl::RewardConfig::parse(v, base);
        if (!w)
            return "--sweep '" + v + "': " + w.error().message;
        sweep.push_back(w.value());
    }
    return {};
}

// The checkpoint folder: --checkpoint-dir, else next to the project; created. Empty: none needed.
Result<std::string> checkpointFolder(const Args& a, const store::Project* p)
{
    std::string dir = a.value("checkpoint-dir").value_or("");
    if (p && dir.empty())
        dir = p->path() + ".models";
    if (!dir.empty() && !QDir().mkpath(QString::fromStdString(dir)))
        return makeError(ErrorCode::Io, dir + ": cannot create the checkpoint folder");
    return dir;
}

QJsonObject episodeJson(const rl::EpisodeStats& s, const rl::Constraints& constraints)
{
    QJsonObject e { { "episode", s.episode }, { "loss", s.meanLoss }, { "lossMin", s.minLoss }, { "lossMax", s.maxLoss },
        { "return", s.episodeReturn }, { "epsilon", s.epsilon }, { "decisions", double(s.decisions) },
        { "stepsPerSecond", s.stepsPerSecond }, { "seconds", s.seconds } };
    if (s.validation >= 0)
        e["validation"] = s.validation;
    QJsonObject k;
    for (int i = 0; i < rl::kConstraintKinds; ++i)
        if (constraints.on(rl::ConstraintKind(i)))
            k[rl::constraintName(rl::ConstraintKind(i))] = QJsonObject { { "value", s.constraints.value[std::size_t(i)] },
                { "budget", constraints.budget[std::size_t(i)] }, { "multiplier", s.constraints.multiplier[std::size_t(i)] } };
    if (!k.isEmpty())
        e["constraints"] = k;
    return e;
}

QJsonObject roundJson(const rl::RoundResult& r, int64_t parentRound, const rl::Constraints& constraints)
{
    QJsonArray eps;
    for (const rl::EpisodeStats& s : r.training.episodes)
        eps.append(episodeJson(s, constraints));
    QJsonArray over;
    for (const std::string& o : r.overBudget)
        over.append(QString::fromStdString(o));
    QJsonObject round { { "round", double(r.roundId) }, { "parent", double(parentRound) },
        { "checkpoint", QString::fromStdString(r.checkpoint) }, { "sha256", QString::fromStdString(r.checkpointSha256) },
        { "episodes", eps }, { "eval", evalToJson(r.eval) }, { "evalNote", QString::fromStdString(r.evalNote) },
        { "seconds", r.seconds }, { "overBudget", over } };
    if (r.training.startValidation >= 0) {
        round["keptEpisode"] = r.training.keptEpisode;
        round["startValidation"] = r.training.startValidation;
    }
    return round;
}

void printEpisode(const rl::EpisodeStats& s, const rl::TrainOptions& t)
{
    std::printf("  episode %3d  loss %.4f [%.4f, %.4f]  return %10.2f  epsilon %.3f  %lld decisions  %.0f steps/s  %.1f s\n",
        s.episode, s.meanLoss, s.minLoss, s.maxLoss, s.episodeReturn, s.epsilon, static_cast<long long>(s.decisions),
        s.stepsPerSecond, s.seconds);
    if (s.validation >= 0)
        std::printf("               validation %s\n", rl::validationText(t.mode(), s.validation).c_str());
    for (int k = 0; k < rl::kConstraintKinds; ++k)
        if (t.constraints.on(rl::ConstraintKind(k)))
            std::printf("               %-10s %8.3f (budget %g)  multiplier %.3f\n", rl::constraintName(rl::ConstraintKind(k)),
                s.constraints.value[std::size_t(k)], t.constraints.budget[std::size_t(k)], s.constraints.multiplier[std::size_t(k)]);
}

void printRound(const rl::RoundResult& r, const rl::TrainOptions& t)
{
    if (r.training.startValidation >= 0 && r.training.keptEpisode == 0)
        std::printf("  kept the starting weights (validation %s; no episode did better)\n",
            rl::validationText(t.mode(), r.training.startValidation).c_str());
    else if (r.training.startValidation >= 0)
        std::printf("  kept episode %d (best validation; the starting weights had %s)\n", r.training.keptEpisode,
            rl::validationText(t.mode(), r.training.startValidation).c_str());
    std::printf("  checkpoint %s (round %lld), %.1f s; evaluation (%s):\n", r.checkpoint.c_str(), static_cast<long long>(r.roundId),
        r.seconds, r.evalNote.c_str());
    printEval(r.eval, t);
    for (const std::string& o : r.overBudget)
        std::printf("  OVER BUDGET: %s\n", o.c_str());
}

// What a session prints as it goes: text lines, or the rounds' JSON collected for the end.
struct TrainReport {
    const Common& c;
    const workflow::SessionOptions& session;
    bool json = false;
    QJsonArray rounds;
    int64_t parentRound = -1; ///< the round the next one starts from, for its JSON

    workflow::SessionCallbacks callbacks()
    {
        workflow::SessionCallbacks cb;
        cb.roundStarted = [this](int round, const rl::RoundOptions& o) {
            if (!json)
                std::printf("round %d/%d: %s%s, %d episode(s), lr %g, weights %s, parent %s\n", round, workflow::sessionRounds(session),
                    sim::runModeName(c.train.mode()), o.teacher.empty() ? "" : (", imitating " + o.teacher).c_str(),
                    o.train.episodes, o.train.learningRate, o.train.reward.toString().c_str(),
                    o.parentCheckpoint.empty() ? "(fresh)" : o.parentCheckpoint.c_str());
        };
        cb.episode = [this](int, const rl::EpisodeStats& s) {
            if (!json)
                printEpisode(s, c.train);
            std::fflush(stdout);
        };
        cb.roundFinished = [this](int, const rl::RoundResult& r) {
            if (json)
                rounds.append(roundJson(r, parentRound, c.train.constraints));
            else
                printRound(r, c.train);
            parentRound = r.roundId;
        };
        return cb;
    }
    void printJson() const
    {
        std::fputs(
            QJsonDocument(QJsonObject { { "schema", "schedlab.train/1" }, { "rounds", rounds } }).toJson(QJsonDocument::Indented).constData(),
            stdout);
    }
};

// One lineage per weight vector, then the last rounds side by side.
int runWeightSweep(const trace::Trace& trace, const Args& a, store::Project* p, workflow::SessionOptions& session, Common& c,
    const std::vector<rl::RewardConfig>& sweep, TrainReport& report)
{
    workflow::SessionCallbacks cb = report.callbacks();
    const auto reportRound = cb.roundFinished;
    std::vector<std::pair<std::string, rl::RoundResult>> last; // per weight vector
    for (const rl::RewardConfig& w : sweep) {
        session.base.train.reward = w;
        c.train.reward = w;
        report.parentRound = session.base.parentRound;
        rl::RoundResult final;
        cb.roundFinished = [&, reportRound](int i, const rl::RoundResult& r) {
            reportRound(i, r);
            final = r;
        };
        auto done = workflow::runSession(trace, a.positional(), p, session, cb);
        if (!done)
            return fail(done.error().toString());
        const std::string text = w.toString();
        last.push_back({ text.substr(0, text.find(",customTerm")), final }); // the four weights name it
    }
    if (!report.json)
        printSweep(last, c.train.mode());
    else
        report.printJson();
    return 0;
}

} // namespace

int runTrain(const std::vector<std::string>& argv)
{
    for (std::size_t i = 0; i + 1 < argv.size(); ++i)
        if ((argv[i] == "--mode" && argv[i + 1] == "autoscale") || argv[i] == "--mode=autoscale")
            return trainAutoscale(argv);
    for (const std::string& arg : argv)
        for (const char* own : { "--service", "--eval-from", "--eval-window", "--interpolate" })
            if (arg == own || arg.rfind(std::string(own) + "=", 0) == 0)
                return fail("train: " + std::string(own) + " belongs to train --mode autoscale (the replica policy)", 2);
    Args a;
    if (std::string e = a.parse(argv, commandOptions("train")); !e.empty())
        return fail("train: " + e, 2);
    if (a.positional().empty())
        return fail("train: give trace files", 2);
    TrainRequest request;
    if (std::string e = parseTrainRequest(a, request); !e.empty())
        return fail("train: " + e, 2);
    Common& c = request.c;
    trace::ImportOptions importOptions;
    if (std::string e = importOptionsFrom(a, importOptions); !e.empty())
        return fail("train: " + e, 2);
    auto loaded = trace::loadTrace(a.positional(), importOptions);
    if (!loaded)
        return fail(loaded.error().toString());
    auto project = openProject(a);
    if (!project)
        return fail(project.error().toString());
    store::Project* p = project.value().get();
    if (!p && !a.value("out"))
        return fail("train: give --project P (checkpoints go next to it) or --out FILE.slq", 2);
    auto checkpointDir = checkpointFolder(a, p);
    if (!checkpointDir)
        return fail(checkpointDir.error().message);
    std::vector<rl::RewardConfig> sweep;
    if (std::string e = parseSweep(a, p, c.train.reward, sweep); !e.empty())
        return fail("train: " + e, 2);
    auto parent = workflow::resolveParent(a.value("parent").value_or(""), p);
    if (!parent)
        return fail("train: " + parent.error().toString());
    workflow::SessionOptions session;
    session.rounds = request.rounds;
    session.teacher = request.teacher;
    session.outCheckpoint = a.value("out").value_or("");
    session.base.parentCheckpoint = parent->first;
    session.base.parentRound = parent->second;
    session.base.train = c.train;
    session.base.fromS = c.fromS;
    session.base.windowS = c.windowS;
    session.base.evalSeeds = c.evalSeeds;
    session.base.baselines = c.baselines;
    session.base.checkpointDir = checkpointDir.value();
    TrainReport report { c, session, a.flag("json"), {}, parent->second };
    if (!sweep.empty())
        return runWeightSweep(loaded->trace, a, p, session, c, sweep, report);
    auto done = workflow::runSession(loaded->trace, a.positional(), p, session, report.callbacks());
    if (!done)
        return fail(done.error().toString());
    if (report.json)
        report.printJson();
    return 0;
}

int runEval(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("eval")); !e.empty())
        return fail("eval: " + e, 2);
    if (a.positional().empty())
        return fail("eval: give trace files", 2);
    Common c;
    if (std::string e = parseCommon(a, c); !e.empty())
        return fail("eval: " + e, 2);
    auto project = openProject(a);
    if (!project)
        return fail(project.error().toString());
    std::vector<std::string> policies = splitList(a.value("policy").value_or(""));
    if (auto round = a.value("round")) {
        auto parent = workflow::resolveParent(*round, project.value().get());
        if (!parent)
            return fail("eval: " + parent.error().toString());
        policies.insert(policies.begin(), "learned:" + parent->first);
    }
    if (policies.empty())
        return fail("eval: give --policy learned:FILE.slq,bestfit,... or --round R --project P", 2);
    // Checked before any work: a name that is neither a heuristic nor a model file.
    for (const std::string& p : policies) {
        if (rl::isModelPolicy(p)) {
            const std::string file = p.substr(p.find(':') + 1);
            if (::access(file.c_str(), R_OK) != 0)
                return fail("eval: " + file + ": model file cannot be read (policy '" + p + "')", 2);
        } else if (!policy::makePlacementPolicy(p)) {
            return fail("eval: unknown policy '" + p + "' (see schedlab-cli policies; models: learned:FILE.slq, torchscript:FILE.pt)", 2);
        }
    }
    trace::ImportOptions importOptions;
    if (std::string e = importOptionsFrom(a, importOptions); !e.empty())
        return fail("eval: " + e, 2);
    auto loaded = trace::loadTrace(a.positional(), importOptions);
    if (!loaded)
        return fail(loaded.error().toString());
    trace::Trace t = std::move(loaded->trace);
    if (c.train.mode() == sim::RunMode::Timed && (a.value("window") || a.value("from"))) {
        auto w = trace::timeWindow(t, c.fromS, c.windowS);
        if (!w)
            return fail(w.error().toString());
        t = std::move(w).value();
    }
    auto eval = rl::evaluate(t, policies, c.evalSeeds, c.train);
    if (!eval)
        return fail(eval.error().toString());
    if (a.flag("json")) {
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.eval/1" }, { "eval", evalToJson(eval.value()) } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
        return 0;
    }
    printEval(eval.value(), c.train);
    return 0;
}

int runExportModel(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("export-model")); !e.empty())
        return fail("export-model: " + e, 2);
    auto out = a.value("out");
    if (!out)
        return fail("export-model: give --out MODEL.pt", 2);
    std::string checkpoint = a.value("checkpoint").value_or("");
    if (auto round = a.value("round")) {
        auto project = openProject(a);
        if (!project)
            return fail(project.error().toString());
        auto parent = workflow::resolveParent(*round, project.value().get());
        if (!parent)
            return fail("export-model: " + parent.error().toString());
        checkpoint = parent->first;
    }
    if (checkpoint.empty())
        return fail("export-model: give --checkpoint FILE.slq or --round R --project P", 2);
    auto net = rl::QNetwork::load(checkpoint);
    if (!net)
        return fail(net.error().toString());
    if (Status s = net.value()->exportTorchScript(*out); !s)
        return fail(s.error().toString());
    std::printf("wrote %s (TorchScript: float [candidates, %d] -> [candidates]); replay it with --policy torchscript:%s\n",
        out->c_str(), net.value()->shape().features, out->c_str());
    return 0;
}

} // namespace schedlab::cli
