// Writing runs into a project: the run row (running, then finished / failed / cancelled), its
// summary, decision log, fill curve or series and per-unit results, in one transaction each.

#include "project.h"

#include "sqlite_db.h"
#include "store_util.h"

#include <unistd.h>

namespace schedlab::store {

using detail::hostName;
using detail::nowUtc;

Result<int64_t> Project::beginRun(const RunInfo& info)
{
    if (Status s = writable(); !s)
        return s.error();
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; runs cannot be stored", m_path);
    auto ins = m_db->prepare(
        "INSERT INTO runs(trace_id, mode, policy, queue, backfill, options, seed, version, status, pid, host, started_at, pid_start) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    if (info.traceId >= 0)
        ins->bind(1, info.traceId);
    else
        ins->bindNull(1);
    ins->bind(2, info.mode).bind(3, info.policy).bind(4, info.queue).bind(5, info.backfill);
    ins->bind(6, info.optionsJson.empty() ? std::string("{}") : info.optionsJson);
    ins->bind(7, int64_t(info.seed)).bind(8, std::string("schedlab " SCHEDLAB_VERSION)); // the build that ran it, from CMake
    ins->bind(9, int64_t(::getpid())).bind(10, hostName()).bind(11, nowUtc());
    if (const auto start = detail::selfStartTicks()) // with the pid: a reader tells this process from a later one given the pid
        ins->bind(12, *start);
    else
        ins->bindNull(12);
    if (Status s = ins->exec(); !s)
        return s.error();
    return m_db->lastInsertId();
}

Status Project::endRun(int64_t runId, RunStatus status, const std::string& error)
{
    if (Status s = writable(); !s)
        return s;
    auto up = m_db->prepare("UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ?");
    if (!up)
        return up.error();
    up->bind(1, std::string(runStatusName(status)));
    if (error.empty())
        up->bindNull(2);
    else
        up->bind(2, error);
    up->bind(3, nowUtc()).bind(4, runId);
    return up->exec();
}

Status Project::writeSummary(int64_t runId, const std::vector<std::pair<std::string, double>>& values)
{
    auto ins = m_db->prepare("INSERT INTO run_summary(run_id, key, value) VALUES (?, ?, ?)");
    if (!ins)
        return ins.error();
    for (const auto& [k, v] : values)
        if (Status s = ins->bind(1, runId).bind(2, k).bind(3, v).exec(); !s)
            return s;
    return {};
}

Status Project::writeDecisions(int64_t runId, const sim::DecisionLog& log)
{
    auto ins = m_db->prepare("INSERT INTO decisions(run_id, idx, t, job, task, node, outcome, feasible, candidates, reward) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    // Candidates packed little-endian: per candidate int32 node, float64 score, float64 raw, uint64 gpu mask.
    std::vector<unsigned char> blob;
    int64_t idx = 0;
    for (const sim::Decision& d : log.decisions()) {
        blob.clear();
        const policy::Candidate* c = log.candidatesOf(d);
        for (uint16_t k = 0; k < d.candidateCount; ++k) {
            auto put = [&](const void* p, std::size_t n) {
                const auto* b = static_cast<const unsigned char*>(p);
                blob.insert(blob.end(), b, b + n);
            };
            put(&c[k].node, 4);
            put(&c[k].score, 8);
            put(&c[k].raw, 8);
            put(&c[k].gpuMask, 8);
        }
        ins->bind(1, runId).bind(2, idx++).bind(3, d.timeS).bind(4, int64_t(d.job)).bind(5, int64_t(d.task));
        ins->bind(6, int64_t(d.node)).bind(7, int64_t(d.outcome)).bind(8, int64_t(d.feasible));
        if (blob.empty())
            ins->bindNull(9);
        else
            ins->bindBlob(9, blob.data(), int(blob.size()));
        if (const float* r = log.rewardOf(d))
            ins->bindBlob(10, r, int(sizeof(float) * sim::kRewardTerms));
        else
            ins->bindNull(10);
        if (Status s = ins->exec(); !s)
            return s;
    }
    return {};
}

Status Project::markFinished(int64_t runId, double wallSeconds)
{
    auto up = m_db->prepare("UPDATE runs SET status='finished', finished_at=?, wall_seconds=?, error=NULL WHERE id=?");
    if (!up)
        return up.error();
    return up->bind(1, nowUtc()).bind(2, wallSeconds).bind(3, runId).exec();
}

Status Project::finishFillRun(int64_t runId, const sim::FillResult& r)
{
    if (Status s = writable(); !s)
        return s;
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s;
    if (Status s = writeSummary(runId,
            { { "pods", double(r.pods) }, { "placed", double(r.placed) }, { "failed", double(r.failed) },
                { "failedGpuMilli", double(r.failedGpuMilli) }, { "finalGpuAllocPct", r.finalGpuAllocPct },
                { "finalFragRatePct", r.finalFragRatePct }, { "finalFragAmount", r.finalFragAmount } });
        !s)
        return s;
    auto ins = m_db->prepare("INSERT INTO fill_curve VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    for (const sim::FillPoint& p : r.curve) {
        ins->bind(1, runId).bind(2, int64_t(p.arrivedPct)).bind(3, p.arrivedExactPct).bind(4, p.gpuAllocPct);
        ins->bind(5, p.fragAmount).bind(6, p.fragRatePct).bind(7, p.podsArrived).bind(8, p.podsFailed);
        if (Status s = ins->exec(); !s)
            return s;
    }
    if (Status s = writeDecisions(runId, r.decisions); !s)
        return s;
    if (Status s = writeHeat(runId, r.heat); !s)
        return s;
    if (Status s = writeStateHashes(runId, r.stateHashes); !s)
        return s;
    if (Status s = markFinished(runId, r.seconds); !s)
        return s;
    return tx.commit();
}

Status Project::finishTimedRun(int64_t runId, const sim::TimedResult& r)
{
    if (Status s = writable(); !s)
        return s;
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s;
    std::vector<std::pair<std::string, double>> sum = {
        { "units", double(r.units) }, { "completed", double(r.completed) }, { "failed", double(r.failed) },
        { "skipped", double(r.skipped) }, { "outsideWindow", double(r.outsideWindow) }, { "backfilled", double(r.backfilled) },
        { "meanCpuUtil", r.meanCpuUtil }, { "meanMemUtil", r.meanMemUtil }, { "meanGpuUtil", r.meanGpuUtil },
        { "meanGpuFragRate", r.meanGpuFragRate }, { "meanCpuFragRate", r.meanCpuFragRate }, { "energyKWh", r.energyKWh }, { "makespanS", r.makespanS },
        { "preemptions", double(r.preemptions) }, { "migrations", double(r.migrations) },
        { "workLostGpuHours", r.workLostGpuHours }, { "workLostCpuHours", r.workLostCpuHours },
        { "gpuBlockedWithRoom", double(r.gpuBlockedWithRoom) },
    };
    for (const auto& [name, d] : { std::pair<const char*, const Distribution*> { "wait", &r.waitS },
             { "jct", &r.jctS }, { "bsld", &r.boundedSlowdown } }) {
        const std::string n(name);
        sum.insert(sum.end(), { { n + ".mean", d->mean }, { n + ".p50", d->p50 }, { n + ".p95", d->p95 },
                                  { n + ".p99", d->p99 }, { n + ".max", d->max } });
    }
    for (const auto& [cls, n] : r.slaViolations)
        sum.push_back({ "slaViolations." + cls, double(n) });
    if (Status s = writeSummary(runId, sum); !s)
        return s;
    if (Status s = writeStateHashes(runId, r.stateHashes); !s)
        return s;
    auto ser = m_db->prepare("INSERT INTO series VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!ser)
        return ser.error();
    int64_t idx = 0;
    for (const sim::SeriesPoint& p : r.series) {
        ser->bind(1, runId).bind(2, idx++).bind(3, p.timeS).bind(4, p.cpuUtil).bind(5, p.memUtil).bind(6, p.gpuUtil);
        ser->bind(7, int64_t(p.activeNodes)).bind(8, p.gpuFragRate).bind(9, p.cpuFragRate).bind(10, p.gpuFragAmount);
        ser->bind(11, p.p99WaitS).bind(12, int64_t(p.queued)).bind(13, int64_t(p.running)).bind(14, p.powerW);
        if (Status s = ser->exec(); !s)
            return s;
    }
    auto jobs = m_db->prepare("INSERT INTO job_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!jobs)
        return jobs.error();
    idx = 0;
    for (const sim::UnitResult& u : r.units_) {
        jobs->bind(1, runId).bind(2, idx++).bind(3, int64_t(u.job)).bind(4, int64_t(u.firstTask));
        jobs->bind(5, int64_t(u.taskCount)).bind(6, u.submitS).bind(7, u.startS).bind(8, u.finishS);
        jobs->bind(9, int64_t(u.failed ? 1 : 0));
        if (Status s = jobs->exec(); !s)
            return s;
    }
    if (Status s = writeDecisions(runId, r.decisions); !s)
        return s;
    if (Status s = writeHeat(runId, r.heat); !s)
        return s;
    if (Status s = markFinished(runId, r.simSeconds); !s)
        return s;
    return tx.commit();
}

} // namespace schedlab::store
