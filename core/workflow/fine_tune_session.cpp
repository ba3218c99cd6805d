#include "fine_tune_session.h"

#include "round_recorder.h"

#include "store/project.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <set>

namespace schedlab::workflow {

namespace {
store::RoundInfo roundInfo(const rl::RoundOptions& o, int64_t traceId)
{
    store::RoundInfo info;
    info.parentId = o.parentRound;
    info.traceId = traceId;
    info.kind = store::roundKindOf(o.train.mode());
    info.window = rl::roundWindowText(o);
    info.episodes = o.train.episodes;
    info.learningRate = o.train.learningRate;
    info.weights = o.train.reward.toString();
    info.seed = o.train.seed;
    info.optionsJson = rl::roundOptionsJson(o.train);
    return info;
}

RoundOutcome roundOutcome(const rl::RoundResult& r)
{
    RoundOutcome out;
    out.checkpointSha256 = r.checkpointSha256;
    for (const rl::EpisodeStats& s : r.training.episodes)
        out.curve.push_back({ s.episode, s.meanLoss, s.minLoss, s.maxLoss, s.episodeReturn, s.epsilon, s.seconds, s.decisions, s.validation });
    for (const rl::EvalSummary& s : r.eval)
        for (const rl::EvalValue& v : s.values)
            out.eval.push_back({ v.policy, v.seed, v.metric, v.value });
    out.wallSeconds = r.seconds;
    for (const rl::ConstraintSample& c : r.constraints)
        out.constraints.push_back({ c.episode, c.name, c.value, c.budget, c.multiplier });
    out.startValidation = r.training.startValidation;
    return out;
}
} // namespace

Result<rl::RoundResult> runRound(const trace::Trace& trace, const std::vector<std::string>& traceFiles, store::Project* project,
    const rl::RoundOptions& o, const std::function<void(const rl::EpisodeStats&)>& onEpisode, ProgressFn progress, CancelToken cancel)
{
    int64_t traceId = -1;
    if (project && !traceFiles.empty()) {
        auto id = project->addTrace(trace, traceFiles);
        if (!id)
            return id.error();
        traceId = id.value();
    }
    RoundRecorder recorder(project, o.outCheckpoint, o.checkpointDir);
    if (Status s = recorder.begin(roundInfo(o, traceId)); !s)
        return s.error();
    auto r = rl::trainRound(trace, o, recorder.partialCheckpoint(), onEpisode, progress, cancel);
    if (!r)
        return recorder.fail(r.error());
    if (Status s = recorder.commit(roundOutcome(r.value())); !s)
        return s.error();
    r->checkpoint = recorder.checkpoint();
    r->roundId = recorder.roundId();
    return r;
}

std::vector<std::string> overBudget(const std::vector<store::ConstraintPoint>& constraints, const std::vector<store::EvalValue>& eval)
{
    std::vector<rl::ConstraintSample> c;
    for (const store::ConstraintPoint& p : constraints)
        c.push_back({ p.episode, p.name, p.value, p.budget, p.multiplier });
    std::vector<rl::EvalValue> v;
    for (const store::EvalValue& e : eval)
        v.push_back({ e.policy, e.seed, e.metric, e.value });
    return rl::overBudget(c, v);
}

int sessionRounds(const SessionOptions& s) { return s.rounds + (s.teacher.empty() ? 0 : 1); }

rl::RoundOptions roundOptions(const SessionOptions& s, int i, const std::string& parentCheckpoint, int64_t parentRound, bool haveProject)
{
    rl::RoundOptions o = s.base;
    o.teacher = i == 0 ? s.teacher : std::string();
    if (i > 0) {
        o.parentCheckpoint = parentCheckpoint;
        o.parentRound = parentRound;
    }
    o.train.seed = s.base.train.seed + uint64_t(i) * uint64_t(std::max(0, s.base.train.episodes)); // fresh episodes every round
    if (!o.parentCheckpoint.empty())
        o.train.epsilonStart = std::min(o.train.epsilonStart, 0.1); // fine-tuning explores less
    const int total = sessionRounds(s);
    if (!s.outCheckpoint.empty() && (total == 1 || !haveProject))
        o.outCheckpoint = total == 1 ? s.outCheckpoint : s.outCheckpoint + "." + std::to_string(i + 1);
    return o;
}

Result<std::vector<rl::RoundResult>> runSession(const trace::Trace& trace, const std::vector<std::string>& traceFiles,
    store::Project* project, const SessionOptions& options, const SessionCallbacks& cb, CancelToken cancel)
{
    if (options.rounds < (options.teacher.empty() ? 1 : 0))
        return makeError(ErrorCode::Invalid, "a session has at least one round");
    if (!project && options.outCheckpoint.empty() && options.base.outCheckpoint.empty())
        return makeError(ErrorCode::Invalid, "without a project a session needs an output checkpoint");
    std::vector<rl::RoundResult> out;
    std::string parent = options.base.parentCheckpoint;
    int64_t parentRound = options.base.parentRound;
    const int total = sessionRounds(options);
    for (int i = 0; i < total; ++i) {
        const rl::RoundOptions o = roundOptions(options, i, parent, parentRound, project != nullptr);
        const int round = i + 1;
        if (cb.roundStarted)
            cb.roundStarted(round, o);
        auto onEpisode = [&cb, round](const rl::EpisodeStats& s) {
            if (cb.episode)
                cb.episode(round, s);
        };
        ProgressFn onProgress;
        if (cb.progress)
            onProgress = [&cb, i, total](double f) { cb.progress((double(i) + f) / double(total)); };
        auto r = runRound(trace, traceFiles, project, o, onEpisode, onProgress, cancel);
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

Result<std::pair<std::string, int64_t>> resolveParent(const std::string& parent, store::Project* project, bool replicaPolicy)
{
    if (parent.empty() || parent.find_first_not_of("0123456789") != std::string::npos)
        return std::pair<std::string, int64_t> { parent, -1 };
    if (!project)
        return makeError(ErrorCode::Invalid, "--parent " + parent + " names a round: give --project too");
    auto rounds = project->rounds();
    if (!rounds)
        return rounds.error();
    for (const store::RoundRow& r : rounds.value())
        if (std::to_string(r.id) == parent) {
            if ((r.kind == store::RoundKind::Autoscale) != replicaPolicy)
                return makeError(ErrorCode::Invalid, "round " + parent
                        + (replicaPolicy ? " trained the placement agent (" + std::string(store::roundKindName(r.kind)) + "), not a replica policy"
                                         : " trained a replica policy (autoscale), not the placement agent"));
            if (r.status != "finished")
                return makeError(ErrorCode::Invalid, "round " + parent + " is " + r.status + "; it has no checkpoint");
            return std::pair<std::string, int64_t> { r.checkpoint, r.id };
        }
    return makeError(ErrorCode::Invalid, "no round " + parent + " in the project");
}

std::vector<std::string> orphanCheckpoints(const std::vector<store::RoundRow>& rounds, const std::string& dir)
{
    std::set<std::string> named;
    for (const store::RoundRow& r : rounds)
        if (r.status == "finished" && !r.checkpoint.empty())
            named.insert(QFileInfo(QString::fromStdString(r.checkpoint)).fileName().toStdString());
    std::vector<std::string> out;
    const QDir d(QString::fromStdString(dir));
    if (dir.empty() || !d.exists())
        return out;
    for (const QString& f : d.entryList({ QStringLiteral("round-*.slq"), QStringLiteral("*.slq.partial") }, QDir::Files, QDir::Name))
        if (!named.count(f.toStdString()))
            out.push_back(f.toStdString());
    return out;
}

} // namespace schedlab::workflow
