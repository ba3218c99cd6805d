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
        { "placed", double(r.placed) },
        { "failed", double(r.failed) },
        { "failedGpuMilli", double(r.failedGpuMilli) },
        { "finalGpuAllocPct", r.finalGpuAllocPct },
        { "finalFragRatePct", r.finalFragRatePct },
        { "finalFragAmount", r.finalFragAmount },
        { "seconds", r.seconds },
        { "stateHash", QString::number(r.stateHash, 16) },
        { "curve", curve },
    };
}

} // namespace schedlab::cli
