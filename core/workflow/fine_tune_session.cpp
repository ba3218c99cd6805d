#include "fine_tune_session.h"

#include "store/project.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <set>

namespace schedlab::workflow {

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
        auto r = rl::runRound(trace, traceFiles, project, o, onEpisode, onProgress, cancel);
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
            if ((r.mode == "autoscale") != replicaPolicy)
                return makeError(ErrorCode::Invalid, "round " + parent
                        + (replicaPolicy ? " trained the placement agent (" + r.mode + "), not a replica policy"
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
