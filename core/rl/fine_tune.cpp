#include "fine_tune.h"

#include "imitation.h"
#include "learned_policy.h"
#include "q_network.h"
#include "trace/trace_window.h"

#include "sim/fill_experiment.h"

#include <QCryptographicHash>
#include <QFile>

#include <chrono>
#include <cstdio>
#include <sstream>

namespace schedlab::rl {

std::string fileSha256(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex().toStdString();
}

namespace {
bool makesRoom(const TrainOptions& o) { return o.preemption != sim::Preemption::None || o.migration != sim::Migration::None; }
bool measuresConstraints(const TrainOptions& o) { return o.mode == TrainMode::Timed && (makesRoom(o) || o.constraints.any()); }
} // namespace

std::vector<std::string> evalMetrics(TrainMode mode, const TrainOptions& options)
{
    if (mode == TrainMode::Fill)
        return { "finalGpuAllocPct", "failedPods", "fragRatePct" };
    std::vector<std::string> m { "waitP99S", "waitMeanS", "failed", "meanGpuUtilPct", "cpuFragPct" };
    if (makesRoom(options) || options.constraints.any())
        for (int k = 0; k < kConstraintKinds; ++k)
            m.push_back(constraintMetric(ConstraintKind(k)));
    if (makesRoom(options))
        m.push_back("gpuBlockedWithRoom");
    return m;
}

std::vector<std::string> overBudget(const std::vector<store::ConstraintPoint>& constraints, const std::vector<store::EvalValue>& eval)
{
    std::map<std::string, double> budget;
    for (const store::ConstraintPoint& p : constraints)
        budget[p.name] = p.budget;
    std::vector<std::string> out;
    for (int k = 0; k < kConstraintKinds; ++k) {
        const auto b = budget.find(constraintName(ConstraintKind(k)));
        if (b == budget.end())
            continue;
        double sum = 0;
        int n = 0;
        for (const store::EvalValue& v : eval)
            if (v.policy == "learned" && v.metric == constraintMetric(ConstraintKind(k)) && v.value >= 0) {
                sum += v.value;
                ++n;
            }
        if (n == 0 || sum / n <= b->second)
            continue;
        std::ostringstream s;
        s.precision(3);
        s << b->first << ' ' << sum / n << (k == int(ConstraintKind::Sla) ? " %" : "/h") << " > " << b->second;
        out.push_back(s.str());
    }
    return out;
}

namespace {
/// The round's options beyond the rounds table's columns (rounds.options): making room, budgets.
std::string optionsJson(const TrainOptions& o)
{
    if (!measuresConstraints(o))
        return "{}";
    std::ostringstream s;
    s << "{\"preemption\":\"" << sim::preemptionName(o.preemption) << "\",\"migration\":\"" << sim::migrationName(o.migration)
      << "\",\"migrationRestartS\":" << o.migrationRestartS << ",\"migrationsPerHour\":" << o.migrationsPerHour
      << ",\"constraints\":\"" << o.constraints.toString() << "\"}";
    return s.str();
}
std::string windowText(const RoundOptions& o)
{
    std::ostringstream s;
    if (!o.teacher.empty())
        s << "teacher " << o.teacher << "; ";
    else if (!o.train.teacherLoss.empty())
        s << "teacher loss " << o.train.teacherLoss << " x" << o.train.teacherLossWeight << "; ";
    if (o.train.mode == TrainMode::Fill)
        s << (o.train.maxPods > 0 ? std::to_string(o.train.maxPods) + " pods" : std::string("all pods")) << ", ratio " << o.train.ratio;
    else
        s << o.windowS / 3600.0 << " h from " << o.fromS << " s";
    if (o.train.mode == TrainMode::Timed && o.train.policy.skip)
        s << "; skips up to " << o.train.policy.maxConsecutiveWaits << " jobs a pass"
          << (o.teacher.empty() ? "" : " (the teacher: while a shorter one waits behind)");
    if (o.teacher.empty() && o.train.blend < 1.0)
        s << "; blended " << o.train.blend << " with its start (WiSE-FT)";
    if (o.teacher.empty() && !o.train.validationSeeds.empty()) {
        s << "; best episode on validation seeds";
        for (std::size_t i = 0; i < o.train.validationSeeds.size(); ++i)
            s << (i ? "," : " ") << o.train.validationSeeds[i];
    }
    return s.str();
}
} // namespace

Result<std::vector<EvalSummary>> evaluate(const trace::Trace& trace, TrainMode mode, const std::vector<std::string>& policies,
    const std::vector<uint64_t>& seeds, const TrainOptions& o, ProgressFn progressFn, CancelToken cancel)
{
    std::vector<EvalSummary> out;
    const std::vector<uint64_t> runSeeds = mode == TrainMode::Fill ? seeds : std::vector<uint64_t> { seeds.empty() ? 42 : seeds.front() };
    const std::size_t total = policies.size() * runSeeds.size();
    std::size_t done = 0;
    ThrottledProgress progress(progressFn);
    for (const std::string& name : policies) {
        EvalSummary s;
        s.policy = name;
        for (uint64_t seed : runSeeds) {
            auto p = makeAnyPolicy(name, o.reward, o.policy);
            if (!p)
                return p.error();
            auto sub = [&](double f) { progress.report((double(done) + f) / double(total)); };
            std::vector<std::pair<std::string, double>> m;
            if (mode == TrainMode::Fill) {
                auto r = sim::runFillExperiment(trace, **p, fillOptionsFor(o, seed), sub, cancel);
                if (!r)
                    return r.error();
                m = { { "finalGpuAllocPct", r->finalGpuAllocPct }, { "failedPods", double(r->failed) },
                    { "fragRatePct", r->finalFragRatePct } };
            } else {
                auto r = sim::runTimedReplay(trace, **p, timedOptionsFor(o, seed), sub, cancel);
                if (!r)
                    return r.error();
                m = { { "waitP99S", r->waitS.p99 }, { "waitMeanS", r->waitS.mean }, { "failed", double(r->failed) },
                    { "meanGpuUtilPct", 100.0 * r->meanGpuUtil }, { "cpuFragPct", 100.0 * r->meanCpuFragRate } };
                if (measuresConstraints(o))
                    for (int k = 0; k < kConstraintKinds; ++k)
                        m.emplace_back(constraintMetric(ConstraintKind(k)), constraintValue(ConstraintKind(k), *r));
                if (makesRoom(o))
                    m.emplace_back("gpuBlockedWithRoom", double(r->gpuBlockedWithRoom));
            }
            if (auto* learned = dynamic_cast<LearnedPolicy*>(p->get()); learned && learned->error())
                return *learned->error();
            for (const auto& [k, v] : m) {
                s.values.push_back({ name, seed, k, v });
                s.mean[k] += v / double(runSeeds.size());
            }
            ++done;
        }
        out.push_back(std::move(s));
    }
    return out;
}

Result<RoundResult> runRound(const trace::Trace& trace, const std::vector<std::string>& traceFiles, store::Project* project,
    const RoundOptions& o, const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progressFn, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (o.outCheckpoint.empty() && (o.checkpointDir.empty() || !project))
        return makeError(ErrorCode::Invalid, "a round needs a checkpoint path (or a project and a checkpoint folder)");
    // The parent is only read: a failed round cannot touch it.
    std::unique_ptr<QNetwork> net;
    if (o.parentCheckpoint.empty()) {
        auto fresh = QNetwork::create(o.train.seed);
        if (!fresh)
            return fresh.error();
        net = std::move(fresh).value();
    } else {
        auto parent = QNetwork::load(o.parentCheckpoint);
        if (!parent)
            return parent.error();
        net = std::move(parent).value();
    }
    // Windows.
    trace::Trace trainTrace, evalTrace;
    RoundResult result;
    if (o.train.mode == TrainMode::Timed) {
        auto tw = trace::timeWindow(trace, o.fromS, o.windowS);
        if (!tw)
            return tw.error();
        trainTrace = std::move(tw).value();
        auto ew = trace::timeWindow(trace, o.fromS + o.windowS, o.windowS);
        if (ew) {
            evalTrace = std::move(ew).value();
            result.evalNote = "held-out window: the " + std::to_string(o.windowS / 3600.0).substr(0, 4) + " h after the training window";
        } else {
            evalTrace = trainTrace;
            result.evalNote = "the trace ends with the training window: evaluated on the training window itself";
        }
    } else {
        trainTrace = trace;
        evalTrace = trace;
        result.evalNote = "held-out seeds (training used seeds from " + std::to_string(o.train.seed) + ")";
    }

    int64_t roundId = -1;
    if (project) {
        int64_t traceId = -1;
        if (!traceFiles.empty()) {
            auto id = project->addTrace(trace, traceFiles);
            if (!id)
                return id.error();
            traceId = id.value();
        }
        store::RoundInfo info;
        info.parentId = o.parentRound;
        info.traceId = traceId;
        info.mode = o.train.mode == TrainMode::Fill ? "fill" : "timed";
        info.window = windowText(o);
        info.episodes = o.train.episodes;
        info.learningRate = o.train.learningRate;
        info.weights = o.train.reward.toString();
        info.seed = o.train.seed;
        info.optionsJson = optionsJson(o.train);
        auto id = project->beginRound(info);
        if (!id)
            return id.error();
        roundId = id.value();
    }
    const std::string out = !o.outCheckpoint.empty() ? o.outCheckpoint : o.checkpointDir + "/round-" + std::to_string(roundId) + ".slq";
    auto fail = [&](const Error& e) -> Error {
        if (project && roundId >= 0)
            (void)project->endRound(roundId, e.isCancelled() ? store::RunStatus::Cancelled : store::RunStatus::Failed, e.message);
        return e;
    };
    ThrottledProgress progress(progressFn);
    auto trainProgress = [&](double f) { progress.report(0.8 * f); };
    // The candidate preselection: as asked, else the parent's, else the defaults; recorded in the
    // checkpoint, so replays of it rank the same candidates as this round's evaluation.
    TrainOptions trainOptions = o.train;
    trainOptions.policy = resolvePreselection(o.train.policy, net->preselection().above, net->preselection().top);
    net->setPreselection({ trainOptions.policy.preselectAbove, trainOptions.policy.preselectTop });
    // The skip action: as asked, else as the parent was trained (a round keeps its lineage's actions).
    if (!trainOptions.policy.skip && net->skipWaits() > 0) {
        trainOptions.policy.skip = true;
        trainOptions.policy.maxConsecutiveWaits = net->skipWaits();
    }
    net->setSkipWaits(trainOptions.policy.skip && o.train.mode == TrainMode::Timed ? trainOptions.policy.maxConsecutiveWaits : 0);
    auto report = o.teacher.empty() ? train(*net, trainTrace, trainOptions, onEpisode, trainProgress, cancel)
                                    : imitate(*net, trainTrace, trainOptions, o.teacher, onEpisode, trainProgress, cancel);
    if (!report)
        return fail(report.error());
    result.training = std::move(report).value();
    // Written under a ".partial" name until the round's row commits, so a killed or failed round
    // leaves no file that looks like a finished round's checkpoint.
    const std::string partial = out + ".partial";
    if (Status s = net->save(partial); !s) {
        std::remove(partial.c_str());
        return fail(s.error());
    }
    result.checkpoint = out;
    result.checkpointSha256 = fileSha256(partial);

    std::vector<std::string> policies { "learned:" + partial };
    std::vector<std::string> baselines = o.baselines;
    if (baselines.empty())
        baselines = o.train.mode == TrainMode::Fill ? std::vector<std::string> { "bestfit", "fgd" }
                                                    : std::vector<std::string> { "firstfit", "bestfit" };
    policies.insert(policies.end(), baselines.begin(), baselines.end());
    auto evalProgress = [&](double f) { progress.report(0.8 + 0.2 * f); };
    auto eval = evaluate(evalTrace, o.train.mode, policies, o.evalSeeds, trainOptions, evalProgress, cancel);
    if (!eval) {
        std::remove(partial.c_str()); // the round did not finish: no checkpoint stays behind
        return fail(eval.error());
    }
    result.eval = std::move(eval).value();
    result.eval.front().policy = "learned";
    for (store::EvalValue& v : result.eval.front().values)
        v.policy = "learned";
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<store::ConstraintPoint> constraints;
    if (o.train.mode == TrainMode::Timed && o.teacher.empty())
        for (const EpisodeStats& s : result.training.episodes)
            for (int k = 0; k < kConstraintKinds; ++k)
                if (o.train.constraints.on(ConstraintKind(k)))
                    constraints.push_back({ s.episode, constraintName(ConstraintKind(k)), s.constraints.value[std::size_t(k)],
                        o.train.constraints.budget[std::size_t(k)], s.constraints.multiplier[std::size_t(k)] });
    result.overBudget = overBudget(constraints, result.eval.front().values);
    if (project) {
        std::vector<store::CurvePoint> curve;
        for (const EpisodeStats& s : result.training.episodes)
            curve.push_back({ s.episode, s.meanLoss, s.minLoss, s.maxLoss, s.episodeReturn, s.epsilon, s.seconds, s.decisions, s.validation });
        std::vector<store::EvalValue> values;
        for (const EvalSummary& s : result.eval)
            values.insert(values.end(), s.values.begin(), s.values.end());
        // The final name just before the row that points at it commits (a kill in between leaves
        // a file no finished round names: `rounds` lists it as an orphan).
        if (std::rename(partial.c_str(), out.c_str()) != 0) {
            std::remove(partial.c_str());
            return fail(makeError(ErrorCode::Io, "cannot rename the checkpoint into place", out));
        }
        if (Status s = project->finishRound(
                roundId, result.checkpoint, result.checkpointSha256, curve, values, result.seconds, constraints, result.training.startValidation);
            !s) {
            std::remove(out.c_str());
            return fail(s.error());
        }
    } else if (std::rename(partial.c_str(), out.c_str()) != 0) {
        std::remove(partial.c_str());
        return makeError(ErrorCode::Io, "cannot rename the checkpoint into place", out);
    }
    result.roundId = roundId;
    progress.report(1.0);
    return result;
}

} // namespace schedlab::rl
