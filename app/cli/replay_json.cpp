#include "replay_json.h"

#include <QJsonArray>

namespace schedlab::cli {

QJsonObject fillResultToJson(const sim::FillResult& r)
{
    QJsonArray curve;
    for (const sim::FillPoint& p : r.curve)
        curve.append(QJsonObject { { "arrivedPct", p.arrivedPct }, { "arrivedExactPct", p.arrivedExactPct },
            { "gpuAllocPct", p.gpuAllocPct }, { "fragAmount", p.fragAmount }, { "fragRatePct", p.fragRatePct },
            { "podsArrived", double(p.podsArrived) }, { "podsFailed", double(p.podsFailed) } });
    return QJsonObject {
        { "policy", QString::fromStdString(r.policy) },
        { "seed", double(r.seed) },
        { "pods", double(r.pods) },
        { "originalPods", double(r.originalPods) },
        { "podsRemoved", double(r.podsRemoved) },
        { "originalRequestPct", r.originalRequestPct },
        { "placed", double(r.placed) },
        { "failed", double(r.failed) },
        { "failedGpuMilli", double(r.failedGpuMilli) }, { "migrations", double(r.migrations) },
        { "finalGpuAllocPct", r.finalGpuAllocPct },
        { "finalFragRatePct", r.finalFragRatePct },
        { "finalFragAmount", r.finalFragAmount },
        { "seconds", r.seconds },
        { "stateHash", QString::number(r.stateHash, 16) },
        { "curve", curve },
    };
}

namespace {
QJsonObject dist(const Distribution& d)
{
    return QJsonObject { { "count", double(d.count) }, { "min", d.min }, { "mean", d.mean }, { "p50", d.p50 },
        { "p90", d.p90 }, { "p95", d.p95 }, { "p99", d.p99 }, { "max", d.max } };
}
} // namespace

QJsonObject timedResultToJson(const sim::TimedResult& r)
{
    QJsonArray series;
    for (const sim::SeriesPoint& p : r.series)
        series.append(QJsonObject { { "t", p.timeS }, { "cpuUtil", p.cpuUtil }, { "memUtil", p.memUtil },
            { "gpuUtil", p.gpuUtil }, { "activeNodes", p.activeNodes }, { "gpuFragRate", p.gpuFragRate },
            { "cpuFragRate", p.cpuFragRate }, { "p99WaitS", p.p99WaitS }, { "queued", p.queued },
            { "running", p.running }, { "powerW", p.powerW } });
    QJsonObject sla, slaS;
    for (const auto& [k, v] : r.slaViolations)
        sla.insert(QString::fromStdString(k), double(v));
    for (const auto& [k, v] : r.slaS)
        slaS.insert(QString::fromStdString(k), v);
    QJsonObject out {
        { "policy", QString::fromStdString(r.policy) },
        { "queue", QString::fromStdString(r.queue) },
        { "backfill", QString::fromStdString(r.backfill) },
        { "head", QString::fromStdString(r.head) },
        // null when nothing in the run drew a random number (the seed changed nothing)
        { "seed", r.seedUse != "none" ? QJsonValue(double(r.seed)) : QJsonValue(QJsonValue::Null) },
        { "seedUse", QString::fromStdString(r.seedUse) },
        { "slaS", slaS },
        { "units", double(r.units) },
        { "completed", double(r.completed) },
        { "failed", double(r.failed) },
        { "skipped", double(r.skipped) },
        { "backfilled", double(r.backfilled) }, { "preemptions", double(r.preemptions) },
        { "migrations", double(r.migrations) }, { "workLostGpuHours", r.workLostGpuHours },
        { "workLostCpuHours", r.workLostCpuHours }, { "gpuBlockedWithRoom", double(r.gpuBlockedWithRoom) },
        { "waitS", dist(r.waitS) },
        { "jctS", dist(r.jctS) },
        { "boundedSlowdown", dist(r.boundedSlowdown) },
        { "meanCpuUtil", r.meanCpuUtil },
        { "meanMemUtil", r.meanMemUtil },
        { "meanGpuUtil", r.meanGpuUtil },
        { "meanGpuFragRate", r.meanGpuFragRate },
        { "meanCpuFragRate", r.meanCpuFragRate },
        { "energyKWh", r.energyKWh },
        { "slaViolations", sla },
        { "makespanS", r.makespanS },
        { "simSeconds", r.simSeconds },
        { "stateHash", QString::number(r.stateHash, 16) },
        { "scheduleHash", QString::number(r.scheduleHash, 16) },
        { "series", series },
    };
    if (!r.divergences.empty()) { // logged replays that could not take every logged decision
        QJsonObject kinds;
        for (const auto& [k, n] : r.divergences)
            kinds.insert(QString::fromStdString(k), double(n));
        out.insert("divergences", kinds);
        out.insert("firstDivergence", QString::fromStdString(r.firstDivergence));
    }
    if (r.windowFromS >= 0 || r.windowToS >= 0) { // a replay window: only then (older output has no key)
        out.insert("window", QJsonObject { { "fromS", r.windowFromS }, { "toS", r.windowToS } });
        out.insert("outsideWindow", double(r.outsideWindow));
    }
    return out;
}

} // namespace schedlab::cli
