// Fine-tune rounds in the project database (schema 3): lineage, curves, evaluations.

#include "project.h"
#include "sqlite_db.h"
#include "store_util.h"

#include <unistd.h>

namespace schedlab::store {

using detail::hostName;
using detail::nowUtc;

const char* roundKindName(RoundKind kind)
{
    switch (kind) {
    case RoundKind::Fill:
        return "fill";
    case RoundKind::Timed:
        return "timed";
    case RoundKind::Autoscale:
        return "autoscale";
    }
    return "fill";
}

bool parseRoundKind(const std::string& name, RoundKind& kind)
{
    for (RoundKind k : { RoundKind::Fill, RoundKind::Timed, RoundKind::Autoscale })
        if (name == roundKindName(k)) {
            kind = k;
            return true;
        }
    return false;
}

Result<int64_t> Project::beginRound(const RoundInfo& info)
{
    if (Status s = writable(); !s)
        return s.error();
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; rounds cannot be stored", m_path);
    auto ins = m_db->prepare("INSERT INTO rounds(parent_id, trace_id, mode, window, episodes, learning_rate, weights, seed, "
                             "options, status, pid, host, started_at, pid_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    if (info.parentId >= 0)
        ins->bind(1, info.parentId);
    else
        ins->bindNull(1);
    if (info.traceId >= 0)
        ins->bind(2, info.traceId);
    else
        ins->bindNull(2);
    ins->bind(3, std::string(roundKindName(info.kind))).bind(4, info.window).bind(5, int64_t(info.episodes)).bind(6, info.learningRate);
    ins->bind(7, info.weights).bind(8, int64_t(info.seed)).bind(9, info.optionsJson.empty() ? std::string("{}") : info.optionsJson);
    ins->bind(10, int64_t(::getpid())).bind(11, hostName()).bind(12, nowUtc());
    if (const auto start = detail::selfStartTicks()) // with the pid: a reader tells this process from a later one given the pid
        ins->bind(13, *start);
    else
        ins->bindNull(13);
    if (Status s = ins->exec(); !s)
        return s.error();
    return m_db->lastInsertId();
}

Status Project::finishRound(int64_t roundId, const std::string& checkpoint, const std::string& sha256,
    const std::vector<CurvePoint>& curve, const std::vector<EvalValue>& eval, double wallSeconds,
    const std::vector<ConstraintPoint>& constraints, double startValidation)
{
    if (Status s = writable(); !s)
        return s;
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s;
    auto c = m_db->prepare("INSERT INTO round_curves (round_id, episode, loss, loss_min, loss_max, episode_return, epsilon, decisions, "
                           "seconds, validation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!c)
        return c.error();
    for (const CurvePoint& p : curve) {
        c->bind(1, roundId).bind(2, int64_t(p.episode)).bind(3, p.loss).bind(4, p.lossMin).bind(5, p.lossMax);
        c->bind(6, p.episodeReturn).bind(7, p.epsilon).bind(8, p.decisions).bind(9, p.seconds).bind(10, p.validation);
        if (Status s = c->exec(); !s)
            return s;
    }
    auto k = m_db->prepare("INSERT INTO round_constraints VALUES (?, ?, ?, ?, ?, ?)");
    if (!k)
        return k.error();
    for (const ConstraintPoint& p : constraints) {
        k->bind(1, roundId).bind(2, int64_t(p.episode)).bind(3, p.name).bind(4, p.value).bind(5, p.budget).bind(6, p.multiplier);
        if (Status s = k->exec(); !s)
            return s;
    }
    auto e = m_db->prepare("INSERT INTO round_eval VALUES (?, ?, ?, ?, ?)");
    if (!e)
        return e.error();
    for (const EvalValue& v : eval)
        if (Status s = e->bind(1, roundId).bind(2, v.policy).bind(3, int64_t(v.seed)).bind(4, v.metric).bind(5, v.value).exec(); !s)
            return s;
    auto up = m_db->prepare("UPDATE rounds SET status='finished', checkpoint=?, checkpoint_sha256=?, finished_at=?, "
                            "wall_seconds=?, start_validation=?, error=NULL WHERE id=?");
    if (!up)
        return up.error();
    up->bind(1, checkpoint).bind(2, sha256).bind(3, nowUtc()).bind(4, wallSeconds);
    if (startValidation >= 0)
        up->bind(5, startValidation);
    else
        up->bindNull(5);
    if (Status s = up->bind(6, roundId).exec(); !s)
        return s;
    return tx.commit();
}

Status Project::endRound(int64_t roundId, RunStatus status, const std::string& error)
{
    if (Status s = writable(); !s)
        return s;
    auto up = m_db->prepare("UPDATE rounds SET status = ?, error = ?, finished_at = ? WHERE id = ?");
    if (!up)
        return up.error();
    up->bind(1, std::string(runStatusName(status)));
    if (error.empty())
        up->bindNull(2);
    else
        up->bind(2, error);
    return up->bind(3, nowUtc()).bind(4, roundId).exec();
}

Status Project::recoverInterruptedRounds()
{
    auto dead = staleRows("rounds");
    if (!dead)
        return dead.error();
    for (int64_t id : dead.value())
        if (Status s = endRound(id, RunStatus::Failed, "interrupted (the process training it stopped)"); !s)
            return s;
    m_recovered += int(dead->size());
    return {};
}

Result<std::vector<RoundRow>> Project::rounds()
{
    if (m_schema < 3)
        return std::vector<RoundRow> {}; // an older project opened read-only: no rounds yet
    auto q = m_db->prepare("SELECT id, coalesce(parent_id, -1), coalesce(trace_id, -1), mode, window, weights, "
                           "coalesce(checkpoint, ''), coalesce(checkpoint_sha256, ''), status, coalesce(error, ''), started_at, "
                           "coalesce(finished_at, ''), episodes, learning_rate, coalesce(wall_seconds, 0), seed, options, "
        + std::string(m_schema >= 12 ? "coalesce(start_validation, -1)" : "-1") // an older project opened read-only
        + ", coalesce(pid, 0), coalesce(host, ''), " + (m_schema >= 13 ? "pid_start" : "NULL") + " FROM rounds ORDER BY id");
    if (!q)
        return q.error();
    std::vector<RoundRow> out;
    while (q->step()) {
        RoundRow r;
        r.id = q->columnInt(0);
        r.parentId = q->columnInt(1);
        r.traceId = q->columnInt(2);
        if (const std::string mode = q->columnText(3); !parseRoundKind(mode, r.kind))
            return makeError(ErrorCode::Format, "round " + std::to_string(r.id) + " has an unknown mode '" + mode + "'", m_path);
        r.window = q->columnText(4);
        r.weights = q->columnText(5);
        r.checkpoint = q->columnText(6);
        r.checkpointSha256 = q->columnText(7);
        r.status = q->columnText(8);
        r.error = q->columnText(9);
        r.startedAt = q->columnText(10);
        r.finishedAt = q->columnText(11);
        r.episodes = int(q->columnInt(12));
        r.learningRate = q->columnDouble(13);
        r.wallSeconds = q->columnDouble(14);
        r.seed = uint64_t(q->columnInt(15));
        r.optionsJson = q->columnText(16);
        r.startValidation = q->columnDouble(17);
        // A listing never writes: a round whose process is gone is shown as interrupted (the next
        // write marks it failed); one trained on another host stays running, with where.
        const std::optional<int64_t> start = q->columnIsNull(20) ? std::nullopt : std::optional<int64_t>(q->columnInt(20));
        detail::showWriterState(r.status, r.error, detail::writerState(q->columnInt(18), start, q->columnText(19)), q->columnText(19),
            "training");
        out.push_back(std::move(r));
    }
    if (q->error())
        return *q->error();
    return out;
}

std::optional<KeptWeights> keptWeights(const std::vector<CurvePoint>& curve, double startValidation, bool lowerIsBetter)
{
    std::optional<KeptWeights> kept;
    if (startValidation >= 0)
        kept = KeptWeights { 0, startValidation };
    for (const CurvePoint& p : curve)
        if (p.validation >= 0 && (!kept || (lowerIsBetter ? p.validation < kept->validation : p.validation > kept->validation)))
            kept = KeptWeights { p.episode, p.validation };
    return kept;
}

Result<std::vector<CurvePoint>> Project::roundCurve(int64_t roundId)
{
    if (m_schema < 3)
        return std::vector<CurvePoint> {}; // an older project opened read-only
    auto q = m_db->prepare("SELECT episode, loss, loss_min, loss_max, episode_return, epsilon, decisions, seconds, "
        + std::string(m_schema >= 11 ? "COALESCE(validation, -1)" : "-1") // an older project opened read-only
        + " FROM round_curves WHERE round_id = ? ORDER BY episode");
    if (!q)
        return q.error();
    q->bind(1, roundId);
    std::vector<CurvePoint> out;
    while (q->step())
        out.push_back({ int(q->columnInt(0)), q->columnDouble(1), q->columnDouble(2), q->columnDouble(3), q->columnDouble(4),
            q->columnDouble(5), q->columnDouble(7), q->columnInt(6), q->columnDouble(8) });
    if (q->error())
        return *q->error();
    return out;
}

Result<std::vector<ConstraintPoint>> Project::roundConstraints(int64_t roundId)
{
    if (m_schema < 10)
        return std::vector<ConstraintPoint> {}; // an older project opened read-only
    auto q = m_db->prepare("SELECT episode, name, value, budget, multiplier FROM round_constraints WHERE round_id = ? "
                           "ORDER BY episode, name");
    if (!q)
        return q.error();
    q->bind(1, roundId);
    std::vector<ConstraintPoint> out;
    while (q->step())
        out.push_back({ int(q->columnInt(0)), q->columnText(1), q->columnDouble(2), q->columnDouble(3), q->columnDouble(4) });
    if (q->error())
        return *q->error();
    return out;
}

Result<std::vector<EvalValue>> Project::roundEval(int64_t roundId)
{
    if (m_schema < 3)
        return std::vector<EvalValue> {}; // an older project opened read-only
    auto q = m_db->prepare("SELECT policy, seed, metric, value FROM round_eval WHERE round_id = ? ORDER BY policy, seed, metric");
    if (!q)
        return q.error();
    q->bind(1, roundId);
    std::vector<EvalValue> out;
    while (q->step())
        out.push_back({ q->columnText(0), uint64_t(q->columnInt(1)), q->columnText(2), q->columnDouble(3) });
    if (q->error())
        return *q->error();
    return out;
}

} // namespace schedlab::store
