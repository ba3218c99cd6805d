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
bool measuresConstraints(const TrainOptions& o) { return o.mode() == sim::RunMode::Timed && (o.makesRoom() || o.constraints.any()); }
} // namespace

std::vector<std::string> evalMetrics(sim::RunMode mode, const TrainOptions& options)
{
    if (mode == sim::RunMode::Fill)
        return { "finalGpuAllocPct", "failedPods", "fragRatePct" };
    std::vector<std::string> m { "waitP99S", "waitMeanS", "failed", "meanGpuUtilPct", "cpuFragPct" };
    if (options.makesRoom() || options.constraints.any())
        for (int k = 0; k < kConstraintKinds; ++k)
            m.push_back(constraintMetric(ConstraintKind(k)));
    if (options.makesRoom())
        m.push_back("gpuBlockedWithRoom");
    return m;
}

std::vector<std::string> overBudget(const std::vector<ConstraintSample>& constraints, const std::vector<EvalValue>& eval)
{
    std::map<std::string, double> budget;
    for (const ConstraintSample& p : constraints)
        budget[p.name] = p.budget;
    std::vector<std::string> out;
    for (int k = 0; k < kConstraintKinds; ++k) {
        const auto b = budget.find(constraintName(ConstraintKind(k)));
        if (b == budget.end())
            continue;
        double sum = 0;
        int n = 0;
        for (const EvalValue& v : eval)
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

std::string roundOptionsJson(const TrainOptions& o)
{
    if (!measuresConstraints(o))
        return "{}";
    const sim::TimedOptions& t = *o.run.timedOptions();
    std::ostringstream s;
    s << "{\"preemption\":\"" << sim::preemptionName(t.preemption) << "\",\"migration\":\"" << sim::migrationName(t.migration)
      << "\",\"migrationRestartS\":" << t.migrationRestartS << ",\"migrationsPerHour\":" << t.migrationsPerHour
      << ",\"constraints\":\"" << o.constraints.toString() << "\"}";
    return s.str();
}

std::string roundWindowText(const RoundOptions& o)
{
    std::ostringstream s;
    if (!o.teacher.empty())
        s << "teacher " << o.teacher << "; ";
    else if (!o.train.teacherLoss.empty())
        s << "teacher loss " << o.train.teacherLoss << " x" << o.train.teacherLossWeight << "; ";
    if (const sim::FillOptions* f = o.train.run.fillOptions())
        s << (f->maxPods > 0 ? std::to_string(f->maxPods) + " pods" : std::string("all pods")) << ", ratio " << f->ratio;
    else
        s << o.windowS / 3600.0 << " h from " << o.fromS << " s";
    if (o.train.mode() == sim::RunMode::Timed && o.train.policy.skip)
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

Result<std::vector<EvalSummary>> evaluate(const trace::Trace& trace, const std::vector<std::string>& policies,
    const std::vector<uint64_t>& seeds, const TrainOptions& o, ProgressFn progressFn, CancelToken cancel)
{
    const sim::RunMode mode = o.mode();
    std::vector<EvalSummary> out;
    const std::vector<uint64_t> runSeeds = mode == sim::RunMode::Fill ? seeds : std::vector<uint64_t> { seeds.empty() ? 42 : seeds.front() };
    const std::size_t total = policies.size() * runSeeds.size();
    std::size_t done = 0;
    ThrottledProgress progress(progressFn);
    for (const std::string& name : policies) {
        EvalSummary s;
        s.policy = name;
        for (uint64_t seed : runSeeds) {
            auto p = makeAnyPolicy(name, o.learnedOptions());
            if (!p)
                return p.error();
            auto sub = [&](double f) { progress.report((double(done) + f) / double(total)); };
            std::vector<std::pair<std::string, double>> m;
            if (mode == sim::RunMode::Fill) {
                auto r
                    = sim::runFillExperiment(trace, **p, fillOptionsFor(o, seed), trainingRecording(), {}, sub, cancel);
                if (!r)
                    return r.error();
                m = { { "finalGpuAllocPct", r->finalGpuAllocPct }, { "failedPods", double(r->failed) },
                    { "fragRatePct", r->finalFragRatePct } };
            } else {
                auto r
                    = sim::runTimedReplay(trace, **p, timedOptionsFor(o, seed), trainingRecording(), {}, sub, cancel);
                if (!r)
                    return r.error();
                m = { { "waitP99S", r->waitS.p99 }, { "waitMeanS", r->waitS.mean }, { "failed", double(r->failed) },
                    { "meanGpuUtilPct", 100.0 * r->meanGpuUtil }, { "cpuFragPct", 100.0 * r->meanCpuFragRate } };
                if (measuresConstraints(o))
                    for (int k = 0; k < kConstraintKinds; ++k)
                        m.emplace_back(constraintMetric(ConstraintKind(k)), constraintValue(ConstraintKind(k), *r));
                if (o.makesRoom())
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

namespace {
/// The network a round starts from: the parent checkpoint, or a fresh one seeded with train.seed.
Result<std::unique_ptr<QNetwork>> startingNetwork(const RoundOptions& o)
{
    if (o.parentCheckpoint.empty())
        return QNetwork::create(o.train.seed);
    return QNetwork::load(o.parentCheckpoint);
}

struct RoundWindows {
    trace::Trace train, eval;
    std::string evalNote;
};

/// Timed: the training window and the one after it (or the training window again when the
/// trace ends first); fill: the whole trace for both (seeds keep them apart).
Result<RoundWindows> roundWindows(const trace::Trace& trace, const RoundOptions& o)
{
    RoundWindows w;
    if (o.train.mode() == sim::RunMode::Fill) {
        w.train = trace;
        w.eval = trace;
        w.evalNote = "held-out seeds (training used seeds from " + std::to_string(o.train.seed) + ")";
        return w;
    }
    auto tw = trace::timeWindow(trace, o.fromS, o.windowS);
    if (!tw)
        return tw.error();
    w.train = std::move(tw).value();
    auto ew = trace::timeWindow(trace, o.fromS + o.windowS, o.windowS);
    if (ew) {
        w.eval = std::move(ew).value();
        w.evalNote = "held-out window: the " + std::to_string(o.windowS / 3600.0).substr(0, 4) + " h after the training window";
    } else {
        w.eval = w.train;
        w.evalNote = "the trace ends with the training window: evaluated on the training window itself";
    }
    return w;
}

/// The options the round trains with: the candidate preselection as asked, else the parent's,
/// else the defaults (recorded in the checkpoint, so replays of it rank the same candidates as the
/// round's evaluation); the skip action as asked, else as the parent was trained (a round keeps
/// its lineage's actions).
TrainOptions resolvedTrainOptions(const RoundOptions& o, QNetwork& net)
{
    TrainOptions t = o.train;
    t.policy = resolvePreselection(o.train.policy, net.preselection().above, net.preselection().top);
    net.setPreselection({ t.policy.preselectAbove, t.policy.preselectTop });
    if (!t.policy.skip && net.skipWaits() > 0) {
        t.policy.skip = true;
        t.policy.maxConsecutiveWaits = net.skipWaits();
    }
    net.setSkipWaits(t.policy.skip && o.train.mode() == sim::RunMode::Timed ? t.policy.maxConsecutiveWaits : 0);
    return t;
}

/// Every training episode's constraints of a timed DQN round with budgets.
std::vector<ConstraintSample> constraintSamples(const RoundOptions& o, const TrainReport& training)
{
    std::vector<ConstraintSample> out;
    if (o.train.mode() != sim::RunMode::Timed || !o.teacher.empty())
        return out;
    for (const EpisodeStats& s : training.episodes)
        for (int k = 0; k < kConstraintKinds; ++k)
            if (o.train.constraints.on(ConstraintKind(k)))
                out.push_back({ s.episode, constraintName(ConstraintKind(k)), s.constraints.value[std::size_t(k)],
                    o.train.constraints.budget[std::size_t(k)], s.constraints.multiplier[std::size_t(k)] });
    return out;
}
} // namespace

Result<RoundResult> trainRound(const trace::Trace& trace, const RoundOptions& o, const std::string& checkpointPath,
    const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progressFn, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    // The parent is only read: a failed round cannot touch it.
    auto net = startingNetwork(o);
    if (!net)
        return net.error();
    auto windows = roundWindows(trace, o);
    if (!windows)
        return windows.error();
    RoundResult result;
    result.evalNote = windows->evalNote;
    ThrottledProgress progress(progressFn);
    auto trainProgress = [&](double f) { progress.report(0.8 * f); };
    const TrainOptions trainOptions = resolvedTrainOptions(o, **net);
    auto report = o.teacher.empty() ? train(**net, windows->train, trainOptions, onEpisode, trainProgress, cancel)
                                    : imitate(**net, windows->train, trainOptions, o.teacher, onEpisode, trainProgress, cancel);
    if (!report)
        return report.error();
    result.training = std::move(report).value();
    if (Status s = net.value()->save(checkpointPath); !s) {
        std::remove(checkpointPath.c_str());
        return s.error();
    }
    result.checkpoint = checkpointPath;
    result.checkpointSha256 = fileSha256(checkpointPath);

    std::vector<std::string> policies { "learned:" + checkpointPath };
    std::vector<std::string> baselines = o.baselines;
    if (baselines.empty())
        baselines = o.train.mode() == sim::RunMode::Fill ? std::vector<std::string> { "bestfit", "fgd" }
                                                         : std::vector<std::string> { "firstfit", "bestfit" };
    policies.insert(policies.end(), baselines.begin(), baselines.end());
    auto evalProgress = [&](double f) { progress.report(0.8 + 0.2 * f); };
    auto eval = evaluate(windows->eval, policies, o.evalSeeds, trainOptions, evalProgress, cancel);
    if (!eval) {
        std::remove(checkpointPath.c_str()); // the round did not finish: no checkpoint stays behind
        return eval.error();
    }
    result.eval = std::move(eval).value();
    result.eval.front().policy = "learned";
    for (EvalValue& v : result.eval.front().values)
        v.policy = "learned";
    result.constraints = constraintSamples(o, result.training);
    result.overBudget = overBudget(result.constraints, result.eval.front().values);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.report(1.0);
    return result;
}

} // namespace schedlab::rl
