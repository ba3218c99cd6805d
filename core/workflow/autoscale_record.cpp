// Autoscaling runs as the project stores them (autoscale_record.h).

#include "autoscale_record.h"

#include <algorithm>

namespace schedlab::workflow {

using namespace schedlab::autoscale;

double lagQuantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

store::AutoscaleRunRecord autoscaleRecord(const AutoscaleResult& r, const std::string& load, const std::string& service,
    const AutoscaleOptions& options)
{
    store::AutoscaleRunRecord rec;
    rec.load = load;
    rec.service = service.empty() ? std::string("(defaults)") : service;
    rec.policy = r.policy;
    rec.fromS = options.fromS;
    rec.durationS = options.durationS;
    rec.summary = { { "steps", double(r.steps) }, { "requests", r.requests }, { "replicaHours", r.replicaHours }, { "cost", r.cost },
        { "minutes", double(r.minutes) }, { "sloViolationMinutes", double(r.sloViolationMinutes) }, { "missedShare", r.missedShare },
        { "scalingActions", double(r.scalingActions) }, { "meanUtilization", r.meanUtilization }, { "maxBacklog", r.maxBacklog },
        { "maxReplicas", double(r.maxReplicas) }, { "scaleUpLagMedianS", lagQuantile(r.scaleUpLagsS, 0.5) },
        { "burstLags", double(r.burstLagsS.size()) }, { "burstLagMedianS", lagQuantile(r.burstLagsS, 0.5) },
        { "burstLagP90S", lagQuantile(r.burstLagsS, 0.9) } };
    rec.seriesColumns = 8;
    rec.series.reserve(r.series.size() * 8);
    for (const MinutePoint& p : r.series)
        for (float v : { float(p.t), p.arrivalRate, p.ready, p.replicas, p.capacityRps, p.p99S, p.missedShare, p.backlog })
            rec.series.push_back(v);
    return rec;
}

} // namespace schedlab::workflow
