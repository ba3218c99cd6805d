// Fine-tune rounds of the learned replica policy in the project (scaler_rounds.h).

#include "scaler_rounds.h"
#include "round_recorder.h"

#include "autoscale_record.h"
#include "fine_tune_session.h"

#include "autoscale/autoscale_replay.h"
#include "rl/fine_tune.h"
#include "rl/q_network.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace schedlab::workflow {

using namespace schedlab::autoscale;

std::vector<std::string> scalerEvalMetrics()
{
    return { "replicaHours", "sloViolationMinutes", "missedPct", "scalingActions", "burstLagP50S", "meanUtilizationPct", "cost" };
}

double scalerMetric(const AutoscaleResult& r, const std::string& metric)
{
    if (metric == "replicaHours")
        return r.replicaHours;
    if (metric == "sloViolationMinutes")
        return r.sloViolationMinutes;
    if (metric == "missedPct")
        return r.missedShare * 100;
    if (metric == "scalingActions")
        return r.scalingActions;
    if (metric == "burstLagP50S")
        return lagQuantile(r.burstLagsS, 0.5);
    if (metric == "meanUtilizationPct")
        return r.meanUtilization * 100;
    if (metric == "cost")
        return r.cost;
    return std::nan("");
}

namespace {

struct Spans {
    double trainFrom = 0, trainTo = 0, evalFrom = 0, evalTo = 0;
};

Spans spansOf(const LoadSeries& load, const ScalerRoundOptions& o)
{
    const double steps = double(load.requests.size());
    Spans s;
    s.trainFrom = o.train.fromS;
    s.trainTo = o.train.durationS > 0 ? std::min(steps, o.train.fromS + o.train.durationS) : steps;
    s.evalFrom = o.evalFromS >= 0 ? o.evalFromS : s.trainTo;
    s.evalTo = o.evalDurationS > 0 ? std::min(steps, s.evalFrom + o.evalDurationS) : steps;
    return s;
}

std::string hours(double s)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.4g h", s / 3600.0);
    return b;
}

std::string optionsJson(const ScalerRoundOptions& o, const Spans& s)
{
    QJsonArray baselines;
    for (const std::string& b : o.baselines)
        baselines.append(QString::fromStdString(b));
    const QJsonObject j { { "load", QString::fromStdString(o.loadPath) }, { "service", QString::fromStdString(o.servicePath) },
        { "trainFromS", s.trainFrom }, { "trainToS", s.trainTo }, { "evalFromS", s.evalFrom }, { "evalToS", s.evalTo },
        { "gamma", o.train.gamma }, { "epsilonStart", o.train.epsilonStart }, { "baselines", baselines } };
    return QJsonDocument(j).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

Status checkScalerRound(const LoadSeries& load, const ScalerRoundOptions& o)
{
    const Spans s = spansOf(load, o);
    const double steps = double(load.requests.size());
    if (o.train.episodes < 1)
        return makeError(ErrorCode::Invalid, "a round trains at least one episode");
    if (s.trainFrom < 0 || s.trainFrom >= steps)
        return makeError(ErrorCode::Invalid, "the training span starts at " + hours(s.trainFrom) + ", outside the load (" + hours(steps) + ")");
    if (s.trainTo - s.trainFrom < 60)
        return makeError(ErrorCode::Invalid, "the training span is " + hours(s.trainTo - s.trainFrom) + ": give it at least a minute");
    if (s.evalFrom < s.trainTo)
        return makeError(ErrorCode::Invalid, "the evaluation starts at " + hours(s.evalFrom) + ", inside the training span (to " +
                hours(s.trainTo) + "): rounds are judged on load they never trained on");
    if (s.evalFrom >= steps)
        return makeError(ErrorCode::Invalid, "nothing is left to evaluate on: the training span ends with the load (" + hours(steps) +
                "); shorten it");
    if (!(o.train.reward.latency + o.train.reward.cost + o.train.reward.sla > 0))
        return makeError(ErrorCode::Invalid, "reward: at least one weight must be above 0");
    std::string error;
    for (const std::string& b : o.baselines)
        if (!makeReplicaPolicy(b, ServiceConfig {}, &error))
            return makeError(ErrorCode::Invalid, "baseline: " + error);
    return {};
}

Result<ScalerRoundResult> runScalerRound(const LoadSeries& load, const ServiceConfig& service, store::Project* project,
    const ScalerRoundOptions& o, const std::function<void(const ScalerEpisode&)>& onEpisode, ProgressFn progressFn, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (Status st = checkScalerRound(load, o); !st)
        return st.error();
    auto net = o.parentCheckpoint.empty() ? rl::QNetwork::create(o.train.seed, { kScalerFeatures, 64, 32 })
                                          : rl::QNetwork::load(o.parentCheckpoint);
    if (!net)
        return net.error();
    if (net.value()->shape().features != kScalerFeatures)
        return makeError(ErrorCode::Invalid,
            "not a replica-policy checkpoint (it scores " + std::to_string(net.value()->shape().features) + " features, a scaler " +
                std::to_string(kScalerFeatures) + ")",
            o.parentCheckpoint);
    const Spans spans = spansOf(load, o);
    ScalerTrainOptions train = o.train;
    train.fromS = spans.trainFrom;
    train.durationS = spans.trainTo - spans.trainFrom;

    store::RoundInfo info;
    info.parentId = o.parentRound;
    info.kind = store::RoundKind::Autoscale;
    info.window = load.name + " " + hours(spans.trainFrom) + "-" + hours(spans.trainTo) + ", eval to " + hours(spans.evalTo);
    info.episodes = train.episodes;
    info.learningRate = train.learningRate;
    info.weights = train.reward.toString();
    info.seed = train.seed;
    info.optionsJson = optionsJson(o, spans);
    RoundRecorder recorder(project, o.outCheckpoint, o.checkpointDir);
    if (Status st = recorder.begin(info); !st)
        return st.error();
    ThrottledProgress progress(progressFn);
    // Training is most of the work: one replay per episode against one per evaluated policy.
    const double trainShare = double(train.episodes) / double(train.episodes + 1 + o.baselines.size());
    ScalerRoundResult result;
    std::vector<store::CurvePoint> curve;
    auto episodeSeen = [&](const ScalerEpisode& e) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        curve.push_back({ int(curve.size()) + 1, e.meanLoss, e.meanLoss, e.meanLoss, e.meanReward, 0, elapsed, e.decisions });
        if (onEpisode)
            onEpisode(e);
    };
    auto report = trainScaler(*net.value(), load, service, train, episodeSeen, [&](double f) { progress.report(trainShare * f); }, cancel);
    if (!report)
        return recorder.fail(report.error());
    result.training = std::move(report).value();
    const std::string partial = recorder.partialCheckpoint();
    if (Status s = net.value()->save(partial); !s)
        return recorder.fail(s.error());
    result.checkpoint = recorder.checkpoint();
    result.checkpointSha256 = rl::fileSha256(partial);

    AutoscaleOptions eval;
    eval.fromS = spans.evalFrom;
    eval.durationS = spans.evalTo - spans.evalFrom;
    const std::size_t policies = 1 + o.baselines.size();
    for (std::size_t i = 0; i < policies; ++i) {
        std::string error;
        std::unique_ptr<ReplicaPolicy> p = i == 0 ? makeLearnedScaler(std::move(net).value(), service)
                                                  : makeReplicaPolicy(o.baselines[i - 1], service, &error);
        auto step = [&, i](double f) { progress.report(trainShare + (1 - trainShare) * (double(i) + f) / double(policies)); };
        auto r = p ? runAutoscale(load, service, *p, eval, step, cancel) : Result<AutoscaleResult>(makeError(ErrorCode::Invalid, error));
        if (!r)
            return recorder.fail(r.error()); // the round did not finish: no checkpoint stays behind
        result.eval.push_back(std::move(r).value());
    }
    result.eval.front().policy = "learned";
    result.trainFromS = spans.trainFrom;
    result.trainToS = spans.trainTo;
    result.evalFromS = spans.evalFrom;
    result.evalToS = spans.evalTo;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    RoundOutcome outcome;
    outcome.checkpointSha256 = result.checkpointSha256;
    outcome.curve = std::move(curve);
    for (const AutoscaleResult& r : result.eval)
        for (const std::string& m : scalerEvalMetrics())
            outcome.eval.push_back({ r.policy, 0, m, scalerMetric(r, m) });
    outcome.wallSeconds = result.seconds;
    if (Status s = recorder.commit(outcome); !s)
        return s.error();
    result.roundId = recorder.roundId();
    progress.report(1.0);
    return result;
}

Result<std::vector<ScalerRoundResult>> runScalerSession(const LoadSeries& load, const ServiceConfig& service, store::Project* project,
    const ScalerRoundOptions& base, int rounds, const ScalerSessionCallbacks& cb, CancelToken cancel)
{
    if (rounds < 1)
        return makeError(ErrorCode::Invalid, "a session has at least one round");
    if (Status st = checkScalerRound(load, base); !st)
        return st.error();
    std::vector<ScalerRoundResult> out;
    std::string parent = base.parentCheckpoint;
    int64_t parentRound = base.parentRound;
    for (int i = 0; i < rounds; ++i) {
        ScalerRoundOptions o = base;
        o.parentCheckpoint = parent;
        o.parentRound = parentRound;
        o.train.seed = base.train.seed + uint64_t(i) * uint64_t(std::max(0, base.train.episodes));
        if (!o.parentCheckpoint.empty())
            o.train.epsilonStart = std::min(o.train.epsilonStart, 0.1); // fine-tuning explores less
        if (!base.outCheckpoint.empty() && rounds > 1)
            o.outCheckpoint = project ? std::string() : base.outCheckpoint + "." + std::to_string(i + 1);
        const int round = i + 1;
        auto onEpisode = [&cb, round](const ScalerEpisode& e) {
            if (cb.episode)
                cb.episode(round, e);
        };
        ProgressFn onProgress;
        if (cb.progress)
            onProgress = [&cb, i, rounds](double f) { cb.progress((double(i) + f) / double(rounds)); };
        auto r = runScalerRound(load, service, project, o, onEpisode, onProgress, cancel);
        if (!r)
            return r.error();
        parent = r->checkpoint;
        parentRound = r->roundId;
        if (cb.roundFinished)
            cb.roundFinished(round, r.value());
        out.push_back(std::move(r).value());
    }
    return out;
}

Result<std::pair<std::string, int64_t>> resolveScalerParent(const std::string& parent, store::Project* project)
{
    return resolveParent(parent, project, true);
}

} // namespace schedlab::workflow
