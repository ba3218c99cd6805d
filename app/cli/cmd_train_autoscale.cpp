// `schedlab-cli train --mode autoscale LOAD (--out F.slq | --project P) [--rounds N] [--parent K|F.slq]
// [--service FILE] [--from T] [--window T] [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--seed 1]
// [--weights latency=0.3,cost=0.3,sla=0.4] [--eval-from T --eval-window T] [--baselines hpa,forecast]
// [--json]`: fine-tune rounds of the learned replica policy (workflow/scaler_rounds.h), each
// trained on a span of the load and evaluated on a later one next to baselines; with a project the
// rounds are stored with their lineage (`rounds --project P` lists them).

#include "command_table.h"
#include "cmd_autoscale.h"
#include "commands.h"

#include "workflow/run_args.h"
#include "workflow/scaler_rounds.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace schedlab::cli {

using namespace schedlab::autoscale;

namespace {

Result<double> durationOf(const Args& a, const char* flag, double fallback)
{
    const auto v = a.value(flag);
    if (!v)
        return fallback;
    if (*v == "0")
        return 0.0;
    auto d = workflow::parseDuration(*v);
    if (!d)
        return makeError(ErrorCode::Parse, std::string("--") + flag + ": " + d.error().message);
    return d;
}

QJsonObject roundJson(const workflow::ScalerRoundResult& r)
{
    QJsonArray episodes, evals;
    for (const ScalerEpisode& e : r.training.episodes)
        episodes.append(QJsonObject { { "meanReward", e.meanReward }, { "replicaHours", e.replicaHours },
            { "sloViolationMinutes", e.sloViolationMinutes }, { "meanLoss", e.meanLoss }, { "decisions", double(e.decisions) } });
    for (const AutoscaleResult& run : r.eval)
        evals.append(autoscaleJson(run, false));
    return QJsonObject { { "round", double(r.roundId) }, { "checkpoint", QString::fromStdString(r.checkpoint) },
        { "trainFromS", r.trainFromS }, { "trainToS", r.trainToS }, { "evalFromS", r.evalFromS }, { "evalToS", r.evalToS },
        { "gradientSteps", double(r.training.gradientSteps) }, { "seconds", r.seconds }, { "episodes", episodes },
        { "evaluation", evals } };
}

void printEvaluation(const workflow::ScalerRoundResult& r)
{
    std::printf("evaluated on [%.0f s, %.0f s):\n%-24s %12s %8s %10s %8s %12s %8s\n", r.evalFromS, r.evalToS, "policy", "replica-h",
        "SLO min", "missed %", "actions", "burst p50 s", "util %");
    for (const AutoscaleResult& run : r.eval)
        std::printf("%-24s %12.1f %8d %10.3f %8d %6.0f (%zu) %8.1f\n", run.policy.c_str(), run.replicaHours, run.sloViolationMinutes,
            run.missedShare * 100, run.scalingActions, lagQuantile(run.burstLagsS, 0.5), run.burstLagsS.size(), run.meanUtilization * 100);
}

// The round's training and evaluation options; everything checked before any work. An error text.
std::string parseScalerOptions(const Args& a, workflow::ScalerRoundOptions& o, int& rounds)
{
    std::string error;
    o.train.episodes = int(a.integer("episodes", 3, error));
    o.train.learningRate = a.real("lr", 1e-3, error);
    o.train.gamma = a.real("gamma", 0.9, error);
    o.train.seed = uint64_t(a.integer("seed", 1, error));
    rounds = int(a.integer("rounds", 1, error));
    if (!error.empty())
        return error;
    if (rounds < 1 || rounds > 100)
        return "--rounds: between 1 and 100";
    if (auto w = a.value("weights")) {
        auto r = ScalerReward::parse(*w, ScalerReward {});
        if (!r)
            return "--weights: " + r.error().message;
        o.train.reward = *r;
    }
    auto from = durationOf(a, "from", 0), window = durationOf(a, "window", 0), evalFrom = durationOf(a, "eval-from", -1),
         evalWindow = durationOf(a, "eval-window", 0);
    for (const auto* d : { &from, &window, &evalFrom, &evalWindow })
        if (!*d)
            return d->error().message;
    o.train.fromS = *from;
    o.train.durationS = *window;
    o.evalFromS = *evalFrom;
    o.evalDurationS = *evalWindow;
    o.baselines = splitList(a.value("baselines").value_or("hpa,forecast"));
    for (const std::string& b : o.baselines)
        if (!makeReplicaPolicy(b, ServiceConfig {}, &error))
            return "--baselines: " + error;
    return {};
}

// Each episode and round as it ends (text only; JSON comes at the end).
workflow::ScalerSessionCallbacks scalerCallbacks(bool json, int& episode)
{
    workflow::ScalerSessionCallbacks cb;
    cb.episode = [json, &episode](int round, const ScalerEpisode& e) {
        if (!json)
            std::printf("  round %d episode %d: mean reward %.4f, %.1f replica-h, %d SLO min, loss %.5f, %lld decisions\n", round, ++episode,
                e.meanReward, e.replicaHours, e.sloViolationMinutes, e.meanLoss, (long long)e.decisions);
        std::fflush(stdout);
    };
    cb.roundFinished = [json, &episode](int round, const workflow::ScalerRoundResult& r) {
        episode = 0;
        if (json)
            return;
        std::printf("round %d%s: trained on [%.0f s, %.0f s), %lld gradient steps in %.1f s; wrote %s\n", round,
            r.roundId >= 0 ? (" (project round " + std::to_string(r.roundId) + ")").c_str() : "", r.trainFromS, r.trainToS,
            (long long)r.training.gradientSteps, r.seconds, r.checkpoint.c_str());
        printEvaluation(r);
    };
    return cb;
}

void printScalerJson(std::vector<workflow::ScalerRoundResult>& rounds, const workflow::ScalerRoundOptions& o)
{
    QJsonArray all;
    for (workflow::ScalerRoundResult& r : rounds) {
        r.eval.front().policy = "learned:" + QFileInfo(QString::fromStdString(r.checkpoint)).fileName().toStdString();
        all.append(roundJson(r));
    }
    QJsonObject top = all.last().toObject();
    top["schema"] = "schedlab.train-autoscale/1";
    top["reward"] = QString::fromStdString(o.train.reward.toString());
    top["rounds"] = all;
    std::printf("%s\n", QJsonDocument(top).toJson(QJsonDocument::Indented).constData());
}

} // namespace

int trainAutoscale(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("train", "--mode autoscale")); !e.empty())
        return fail("train: " + e, 2);
    if (a.positional().size() != 1 || (!a.value("out") && !a.value("project")))
        return fail("train: usage: train --mode autoscale LOAD (--out F.slq | --project P) [--rounds N] [--parent K|F.slq] [--service FILE] "
                    "[--from T] [--window T] [--episodes N] [--eval-from T]",
            2);
    workflow::ScalerRoundOptions o;
    int rounds = 1;
    if (std::string e = parseScalerOptions(a, o, rounds); !e.empty())
        return fail("train: " + e, 2);
    AutoscaleSetup s;
    if (auto f = a.value("service")) {
        auto c = readServiceConfig(*f);
        if (!c)
            return fail(c.error().toString());
        s.service = std::move(c).value();
        o.servicePath = QFileInfo(QString::fromStdString(*f)).absoluteFilePath().toStdString();
    }
    auto load = readLoadSeries(a.positional()[0], a.flag("interpolate") ? Resample::Interpolated : Resample::Stepped);
    if (!load)
        return fail(load.error().toString());
    s.load = std::move(load).value();
    o.loadPath = QFileInfo(QString::fromStdString(a.positional()[0])).absoluteFilePath().toStdString();
    if (Status st = workflow::checkScalerRound(s.load, o); !st)
        return fail("train: " + st.error().message, 2);
    std::unique_ptr<store::Project> project;
    if (auto p = a.value("project")) {
        auto opened = store::Project::open(*p);
        if (!opened)
            return fail(opened.error().toString());
        project = std::move(opened).value();
        o.checkpointDir = project->path() + ".models";
        if (!QDir().mkpath(QString::fromStdString(o.checkpointDir)))
            return fail("train: cannot create the checkpoint folder " + o.checkpointDir);
    }
    if (auto out = a.value("out"); out && (!project || rounds == 1))
        o.outCheckpoint = *out;
    if (auto parent = a.value("parent")) {
        auto resolved = workflow::resolveScalerParent(*parent, project.get());
        if (!resolved)
            return fail("train: " + resolved.error().toString(), 2);
        o.parentCheckpoint = resolved->first;
        o.parentRound = resolved->second;
    }
    const bool json = a.flag("json");
    if (!json)
        std::printf("training the learned replica policy on %s (%s), %d round(s) of %d episodes, reward %s\n", s.load.name.c_str(),
            s.load.source.c_str(), rounds, o.train.episodes, o.train.reward.toString().c_str());
    int episode = 0;
    auto session = workflow::runScalerSession(s.load, s.service, project.get(), o, rounds, scalerCallbacks(json, episode));
    if (!session)
        return fail("train: " + session.error().toString());
    if (json)
        printScalerJson(session.value(), o);
    return 0;
}

} // namespace schedlab::cli
