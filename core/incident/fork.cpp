#include "fork.h"

#include "metrics/fragmentation.h"
#include "rl/learned_policy.h"

#include <algorithm>

namespace schedlab::incident {

namespace {

struct SeriesMeans {
    double p99 = 0, frag = 0, util = 0;
};

// Means over the ticks in [from, to] (p99 over ticks that have one).
SeriesMeans meansOf(const std::vector<sim::SeriesPoint>& s, double from, double to)
{
    SeriesMeans m;
    int n = 0, np = 0;
    for (const sim::SeriesPoint& p : s) {
        if (p.timeS < from || p.timeS > to)
            continue;
        ++n;
        m.frag += 100.0 * p.gpuFragRate;
        m.util += 100.0 * p.gpuUtil;
        if (p.p99WaitS >= 0) {
            ++np;
            m.p99 += p.p99WaitS;
        }
    }
    if (n) {
        m.frag /= n;
        m.util /= n;
    }
    if (np)
        m.p99 /= np;
    return m;
}

int64_t slaTotal(const sim::TimedResult& r)
{
    int64_t n = 0;
    for (const auto& [k, v] : r.slaViolations)
        n += v;
    return n;
}

} // namespace

Result<ForkResult> forkRun(const RunIndex& index, int64_t k, const std::string& policyB, double window, ProgressFn progress,
    CancelToken cancel)
{
    const auto& ds = index.decisions.decisions();
    if (k < 0 || k >= int64_t(ds.size()))
        return makeError(ErrorCode::Range, "decision " + std::to_string(k) + " is outside the run's " + std::to_string(ds.size()) + " decisions");
    auto original = rl::makeAnyPolicy(index.spec.policy, {}, index.spec.schedulerConfig);
    if (!original)
        return original.error();
    auto fork = rl::makeAnyPolicy(policyB, {}, index.spec.schedulerConfig);
    if (!fork)
        return fork.error();
    ForkResult out;
    out.index = k;
    out.policy = policyB;
    out.forkX = ds[std::size_t(k)].timeS;
    if (const sim::FillOptions* fo = index.spec.fillOptions()) {
        sim::FillOptions o = *fo;
        o.fork = { k, fork.value().get() };
        o.stopAt = -1;
        int64_t end = int64_t(ds.size());
        if (window > 0) {
            end = std::min<int64_t>(end, k + int64_t(window));
            o.maxPods = end;
        }
        // The default recording: decisions, heat and state hashes, no journal.
        auto r = sim::runFillExperiment(
            *index.trace, *original.value(), o, sim::Recording {}, {}, std::move(progress), std::move(cancel));
        if (!r)
            return r.error();
        // The original at the same point: its state after `end` decisions.
        const sim::FillResult& base = *index.fill;
        double allocO = base.finalGpuAllocPct, fragO = base.finalFragRatePct, failedO = double(base.failed);
        if (end < int64_t(ds.size())) {
            auto st = index.journal.stateAt(ds[std::size_t(end)].statePos);
            allocO = 100.0 * double(st->allocGpuMilli()) / double(st->totalGpuMilli());
            metrics::FragTracker frag(*st, index.workload);
            fragO = 100.0 * frag.gpuFragRate();
            failedO = 0;
            for (int64_t i = 0; i < end; ++i)
                failedO += ds[std::size_t(i)].outcome == sim::Outcome::Failed;
        }
        out.deltas = { { "finalGpuAllocPct", "GPU allocation (%)", allocO, r->finalGpuAllocPct },
            { "finalFragRatePct", "GPU fragmentation rate (%)", fragO, r->finalFragRatePct }, { "failedPods", "failed pods", failedO, double(r->failed) } };
        if (window <= 0)
            out.deltas.push_back({ "failedGpuMilli", "failed GPU (milli)", double(base.failedGpuMilli), double(r->failedGpuMilli) });
        out.fill = std::make_shared<const sim::FillResult>(std::move(r).value());
        return out;
    }
    sim::TimedOptions o = *index.spec.timedOptions();
    o.fork = { out.forkX, fork.value().get() };
    auto r = sim::runTimedReplay(
        *index.trace, *original.value(), o, sim::Recording {}, {}, std::move(progress), std::move(cancel));
    if (!r)
        return r.error();
    const sim::TimedResult& base = *index.timed;
    out.deltas = { { "p99WaitS", "p99 wait (s)", base.waitS.p99, r->waitS.p99 }, { "meanWaitS", "mean wait (s)", base.waitS.mean, r->waitS.mean },
        { "meanGpuUtilPct", "mean GPU utilization (%)", 100.0 * base.meanGpuUtil, 100.0 * r->meanGpuUtil },
        { "meanGpuFragRatePct", "mean GPU fragmentation rate (%)", 100.0 * base.meanGpuFragRate, 100.0 * r->meanGpuFragRate },
        { "failedJobs", "failed jobs", double(base.failed), double(r->failed) }, { "slaViolations", "SLA violations", double(slaTotal(base)), double(slaTotal(*r)) } };
    const double to = window > 0 ? out.forkX + window : 1e300;
    const SeriesMeans a = meansOf(base.series, out.forkX, to), b = meansOf(r->series, out.forkX, to);
    const std::string span = window > 0 ? " in the window" : " after the fork";
    out.deltas.push_back({ "seriesP99WaitS", "p99 wait series mean (s)" + span, a.p99, b.p99 });
    out.deltas.push_back({ "seriesGpuFragRatePct", "GPU fragmentation rate (%)" + span, a.frag, b.frag });
    out.deltas.push_back({ "seriesGpuUtilPct", "GPU utilization (%)" + span, a.util, b.util });
    out.timed = std::make_shared<const sim::TimedResult>(std::move(r).value());
    return out;
}

} // namespace schedlab::incident
