// `schedlab-cli train --mode autoscale LOAD --out F.slq [--service FILE] [--from T] [--window T]
// [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--seed 1] [--weights latency=0.3,cost=0.3,sla=0.4]
// [--parent F.slq] [--eval-from T --eval-window T --baselines hpa,forecast] [--json]`: the learned
// replica policy trained on a span of the load (core/autoscale/learned_scaler.h), then evaluated
// on a later span next to baselines.

#include "cmd_autoscale.h"
#include "commands.h"

#include "autoscale/learned_scaler.h"
#include "rl/q_network.h"
#include "workflow/run_args.h"

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

} // namespace

int trainAutoscale(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, { "mode", "service", "from", "window", "episodes", "lr", "gamma", "seed", "weights", "parent", "out",
                                          "eval-from", "eval-window", "baselines" },
            { "json", "interpolate" });
        !e.empty())
        return fail("train: " + e, 2);
    if (a.positional().size() != 1 || !a.value("out"))
        return fail("train: usage: train --mode autoscale LOAD --out F.slq [--service FILE] [--from T] [--window T] [--episodes N]", 2);
    // Everything checked before any work.
    ScalerTrainOptions o;
    std::string error;
    o.episodes = int(a.integer("episodes", 3, error));
    o.learningRate = a.real("lr", 1e-3, error);
    o.gamma = a.real("gamma", 0.9, error);
    o.seed = uint64_t(a.integer("seed", 1, error));
    if (!error.empty())
        return fail("train: " + error, 2);
    if (auto w = a.value("weights")) {
        auto r = ScalerReward::parse(*w, ScalerReward {});
        if (!r)
            return fail("train: --weights: " + r.error().message, 2);
        o.reward = *r;
    }
    auto from = durationOf(a, "from", 0), window = durationOf(a, "window", 0), evalFrom = durationOf(a, "eval-from", -1),
         evalWindow = durationOf(a, "eval-window", 0);
    for (const auto* d : { &from, &window, &evalFrom, &evalWindow })
        if (!*d)
            return fail("train: " + d->error().message, 2);
    o.fromS = *from;
    o.durationS = *window;
    const std::vector<std::string> baselines = splitList(a.value("baselines").value_or("hpa,forecast"));
    for (const std::string& b : baselines)
        if (!makeReplicaPolicy(b, ServiceConfig {}, &error))
            return fail("train: --baselines: " + error, 2);

    AutoscaleSetup s;
    if (auto f = a.value("service")) {
        auto c = readServiceConfig(*f);
        if (!c)
            return fail(c.error().toString());
        s.service = std::move(c).value();
    }
    auto load = readLoadSeries(a.positional()[0], a.flag("interpolate") ? Resample::Interpolated : Resample::Stepped);
    if (!load)
        return fail(load.error().toString());
    s.load = std::move(load).value();
    const double steps = double(s.load.requests.size());
    if (o.fromS >= steps)
        return fail("train: --from is after the load's end (" + std::to_string(s.load.requests.size()) + " s)", 2);
    const double trainEnd = o.durationS > 0 ? std::min(steps, o.fromS + o.durationS) : steps;
    // Evaluated by default on what follows the training span.
    AutoscaleOptions eval;
    eval.fromS = *evalFrom >= 0 ? *evalFrom : trainEnd;
    eval.durationS = *evalWindow;
    const bool evaluate = eval.fromS < steps;

    auto net = a.value("parent") ? rl::QNetwork::load(*a.value("parent")) : rl::QNetwork::create(o.seed, { kScalerFeatures, 64, 32 });
    if (!net)
        return fail("train: " + net.error().toString());
    const bool json = a.flag("json");
    if (!json)
        std::printf("training the learned replica policy on %s [%.0f s, %.0f s) (%s), %d episodes, reward %s\n", s.load.name.c_str(), o.fromS,
            trainEnd, s.load.source.c_str(), o.episodes, o.reward.toString().c_str());
    int episode = 0;
    auto report = trainScaler(**net, s.load, s.service, o, [&](const ScalerEpisode& e) {
        if (!json)
            std::printf("  episode %d: mean reward %.4f, %.1f replica-h, %d SLO min, loss %.5f, %lld decisions\n", ++episode, e.meanReward,
                e.replicaHours, e.sloViolationMinutes, e.meanLoss, (long long)e.decisions);
        std::fflush(stdout);
    });
    if (!report)
        return fail("train: " + report.error().toString());
    if (Status st = (*net)->save(*a.value("out")); !st)
        return fail("train: " + st.error().toString());
    QJsonArray episodes, evals;
    for (const ScalerEpisode& e : report->episodes)
        episodes.append(QJsonObject { { "meanReward", e.meanReward }, { "replicaHours", e.replicaHours },
            { "sloViolationMinutes", e.sloViolationMinutes }, { "meanLoss", e.meanLoss }, { "decisions", double(e.decisions) } });
    if (!json)
        std::printf("%lld gradient steps in %.1f s; wrote %s\n", (long long)report->gradientSteps, report->seconds, a.value("out")->c_str());
    if (evaluate) {
        if (!json)
            std::printf("evaluated on [%.0f s, %.0f s):\n%-24s %12s %8s %10s %8s %12s %8s\n", eval.fromS,
                eval.durationS > 0 ? std::min(steps, eval.fromS + eval.durationS) : steps, "policy", "replica-h", "SLO min", "missed %",
                "actions", "burst p50 s", "util %");
        std::vector<std::string> specs = baselines;
        specs.insert(specs.begin(), "learned:" + *a.value("out"));
        for (const std::string& spec : specs) {
            auto p = makeAnyReplicaPolicy(spec, s.service, &error);
            if (!p)
                return fail("train: " + error);
            auto r = autoscale::runAutoscale(s.load, s.service, *p, eval);
            if (!r)
                return fail("train: " + spec + ": " + r.error().toString());
            if (json)
                evals.append(autoscaleJson(*r, false));
            else
                std::printf("%-24s %12.1f %8d %10.3f %8d %6.0f (%zu) %8.1f\n", r->policy.c_str(), r->replicaHours, r->sloViolationMinutes,
                    r->missedShare * 100, r->scalingActions, lagQuantile(r->burstLagsS, 0.5), r->burstLagsS.size(), r->meanUtilization * 100);
        }
    }
    if (json)
        std::printf("%s\n", QJsonDocument(QJsonObject { { "schema", "schedlab.train-autoscale/1" }, { "checkpoint", QString::fromStdString(*a.value("out")) },
                                              { "trainFromS", o.fromS }, { "trainToS", trainEnd }, { "evalFromS", eval.fromS },
                                              { "reward", QString::fromStdString(o.reward.toString()) }, { "gradientSteps", double(report->gradientSteps) },
                                              { "seconds", report->seconds }, { "episodes", episodes }, { "evaluation", evals } })
                                .toJson(QJsonDocument::Indented)
                                .constData());
    return 0;
}

} // namespace schedlab::cli
