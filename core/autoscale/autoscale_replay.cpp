// The autoscaling replay (autoscale_replay.h).

#include "autoscale_replay.h"

#include "queueing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>

namespace schedlab::autoscale {

namespace {

/// P(T > slo) for a step's requests, memoised for steps without backlog (most of them).
class MissCache {
public:
    MissCache(double mu, double slo)
        : m_mu(mu)
        , m_slo(slo)
    {
    }
    double operator()(int ready, double lambda, double drain)
    {
        if (ready < 1)
            return 1.0;
        const double rate = std::min(lambda, 0.99 * double(ready) * m_mu);
        if (drain > 0)
            return responseTail(ready, rate, m_mu, m_slo - drain);
        uint64_t bits;
        static_assert(sizeof bits == sizeof rate);
        std::memcpy(&bits, &rate, sizeof bits);
        const uint64_t key = (bits * 0x9E3779B97F4A7C15ULL) ^ uint64_t(ready);
        auto [it, fresh] = m_cache.try_emplace(key, 0.0);
        if (fresh)
            it->second = responseTail(ready, rate, m_mu, m_slo);
        return it->second;
    }

private:
    double m_mu, m_slo;
    std::unordered_map<uint64_t, double> m_cache;
};

} // namespace

Result<AutoscaleResult> runAutoscale(const LoadSeries& load, const ServiceConfig& service, ReplicaPolicy& policy,
    const AutoscaleOptions& options, ProgressFn progress, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (!(service.serviceTimeS > 0) || service.maxReplicas < 1)
        return makeError(ErrorCode::Invalid, "the service needs a service time > 0 and maxReplicas >= 1");
    const std::size_t begin = std::size_t(std::max(0.0, options.fromS));
    if (begin >= load.requests.size())
        return makeError(ErrorCode::Range, "the replay starts after the load ends (" + std::to_string(load.requests.size()) + " s)");
    const std::size_t end
        = options.durationS > 0 ? std::min(load.requests.size(), begin + std::size_t(options.durationS)) : load.requests.size();
    const double mu = service.serviceRate();
    const int sync = std::max(1, int(std::lround(service.hpa.syncPeriodS)));
    AutoscaleResult out;
    out.policy = policy.name();
    if (options.switchTo && options.switchAtS >= 0) {
        char at[48];
        std::snprintf(at, sizeof at, "%.0f", options.switchAtS);
        out.policy += " -> " + options.switchTo->name() + " at " + at + " s";
    }
    out.steps = int64_t(end - begin);

    // Start: the initial replicas, all ready.
    int ready = service.initialReplicas;
    if (policy.isRecord()) { // as recorded at the start
        ScalerView v;
        v.step = begin;
        ready = std::max(0, policy.decide(v));
    } else if (ready < 0) {
        double first = 0;
        for (std::size_t k = begin; k < std::min(end, begin + 60); ++k)
            first += load.requests[k];
        ready = int(std::ceil(first / 60.0 / service.capacityRps() - 1e-9));
    }
    if (!policy.isRecord())
        ready = std::clamp(ready, service.minReplicas, service.maxReplicas);
    std::deque<double> starting; // ready times, oldest first
    double backlog = 0;
    MissCache miss(mu, service.sloP99S);
    double periodServed = 0, periodCapacity = 0, periodArrivals = 0;
    double utilSum = 0;
    int64_t utilSteps = 0;
    double replicaSeconds = 0, missed = 0;
    // The minute being summed, and its steps' (arrivals, ready, drain) for the misses.
    double mArrivals = 0, mReady = 0, mReplicas = 0, mDrain = 0;
    int mSteps = 0;
    struct StepLoad {
        float arrivals;
        int ready;
        double drain;
    };
    std::vector<StepLoad> mStepLoads;
    mStepLoads.reserve(60);
    bool inLag = false;
    double lagStart = 0;
    // Bursts (of the load, the same for every policy): a minute at 1.5 x the mean rate of the 10
    // before it; its lag runs from the minute's start to the first step whose ready replicas can
    // serve its rate within the SLO (0 when they can at its start; to the end when none does).
    const bool sloReachable = std::exp(-mu * service.sloP99S) <= 0.01;
    auto meetsSlo = [&](int r, double rate) {
        if (r < 1 || rate >= double(r) * mu)
            return false;
        return sloReachable ? responseTail(r, rate, mu, service.sloP99S) <= 0.01 : double(r) * service.capacityRps() >= rate;
    };
    std::deque<double> recentRates;
    std::vector<std::pair<double, double>> openBursts; // (start, rate), not yet served
    int burstCheckedReady = -1;
    bool inBurst = false; ///< the last minute was a burst minute
    std::unordered_map<uint64_t, double> p99Cache;
    // M/M/c p99 with r ready at `rate` (at most 0.99 of their capacity), memoised.
    auto p99At = [&](int r, double rate) {
        const double capped = std::min(rate, 0.99 * double(r) * mu);
        const uint64_t key = uint64_t(std::llround(capped * 1e6)) * 100003ULL + uint64_t(r);
        auto [it, fresh] = p99Cache.try_emplace(key, 0.0);
        if (fresh)
            it->second = responseQuantile(r, capped, mu, 0.99);
        return it->second;
    };
    // Requests over the SLO among `steps`, each against the stretch's mean `rate` with the step's
    // ready replicas and drain time (a second's count is a sample of the rate M/M/c needs).
    auto missedIn = [&](const std::vector<StepLoad>& steps, double rate) {
        double m = 0;
        for (const StepLoad& st : steps)
            if (st.arrivals > 0)
                m += st.arrivals * (st.ready > 0 ? miss(st.ready, rate, st.drain) : 1.0);
        return m;
    };
    // The sync period's steps, for a policy that wants its outcome.
    const bool outcome = policy.wantsOutcome() || (options.switchTo && options.switchTo->wantsOutcome());
    std::vector<StepLoad> pStepLoads;
    double pReady = 0, pDrain = 0;
    auto closePeriod = [&](ScalerView& v) {
        const double n = double(pStepLoads.size());
        if (n == 0)
            return;
        const double rate = periodArrivals / n;
        const double missedHere = missedIn(pStepLoads, rate);
        v.periodMissedShare = periodArrivals > 0 ? missedHere / periodArrivals : 0;
        v.periodP99S = periodArrivals > 0 ? std::min(p99At(int(pReady / n), rate) + pDrain / n, 1e9) : 0;
        pStepLoads.clear();
        pReady = pDrain = 0;
    };
    auto closeMinute = [&](double t) {
        if (mSteps == 0)
            return;
        const double rate = mArrivals / mSteps;
        const double mMissed = missedIn(mStepLoads, rate);
        if (recentRates.size() == 10) {
            double base = 0;
            for (double r : recentRates)
                base += r / 10;
            const bool burst = rate > 0 && rate >= 1.5 * base;
            if (burst && !inBurst) { // minutes that stay above it belong to the burst they follow
                std::size_t j = 0;
                while (j < mStepLoads.size() && !meetsSlo(mStepLoads[j].ready, rate))
                    ++j;
                if (j < mStepLoads.size())
                    out.burstLagsS.push_back(double(j));
                else {
                    openBursts.emplace_back(t, rate);
                    burstCheckedReady = mStepLoads.back().ready;
                }
            }
            inBurst = burst;
        }
        recentRates.push_back(rate);
        if (recentRates.size() > 10)
            recentRates.pop_front();
        mStepLoads.clear();
        missed += mMissed;
        MinutePoint p;
        p.t = t;
        p.arrivalRate = float(mArrivals / mSteps);
        p.ready = float(mReady / mSteps);
        p.replicas = float(mReplicas / mSteps);
        p.capacityRps = float(mReady / mSteps * service.capacityRps());
        p.missedShare = mArrivals > 0 ? float(mMissed / mArrivals) : 0.0f;
        p.backlog = float(backlog);
        p.p99S = float(std::min(p99At(int(mReady / mSteps), rate) + mDrain / mSteps, 1e9));
        ++out.minutes;
        if (mArrivals > 0 && p.missedShare > 0.01)
            ++out.sloViolationMinutes;
        // Scale-up lag: load above the ready capacity at the target, until it is not.
        const bool short_ = mArrivals / mSteps > p.capacityRps + 1e-9;
        if (short_ && !inLag) {
            inLag = true;
            lagStart = t;
        } else if (!short_ && inLag) {
            inLag = false;
            out.scaleUpLagsS.push_back(t - lagStart);
        }
        out.series.push_back(p);
        mArrivals = mReady = mReplicas = mDrain = 0;
        mSteps = 0;
    };

    for (std::size_t k = begin; k < end; ++k) {
        const double t = double(k - begin);
        if ((k - begin) % 65536 == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "autoscaling replay cancelled");
            if (progress)
                progress(double(k - begin) / double(end - begin));
        }
        while (!starting.empty() && starting.front() <= t) {
            starting.pop_front();
            ++ready;
        }
        // A decision every sync period (not at the very start); a record's count every step.
        ReplicaPolicy& deciding = options.switchTo && options.switchAtS >= 0 && t >= options.switchAtS ? *options.switchTo : policy;
        const bool syncStep = (k - begin) % std::size_t(sync) == 0;
        if (k > begin && (syncStep || deciding.isRecord())) {
            const int current = ready + int(starting.size());
            ScalerView v;
            v.t = t;
            v.current = current;
            v.ready = ready;
            v.utilization = periodCapacity > 0 ? periodServed / periodCapacity : 0;
            v.arrivalRate = periodArrivals / sync;
            v.load = &load.requests;
            v.step = k;
            v.backlog = backlog;
            if (outcome && syncStep)
                closePeriod(v);
            int desired = deciding.decide(v);
            const int asked = desired;
            // Guard rails: the change limit, min / max, then a user's pinned replicas (a record
            // is replayed as it was).
            if (deciding.isRecord())
                desired = std::max(0, desired);
            else {
                if (service.maxChangePerDecision > 0)
                    desired = std::clamp(desired, current - service.maxChangePerDecision, current + service.maxChangePerDecision);
                desired = std::clamp(desired, service.minReplicas, service.maxReplicas);
                for (const OverrideWindow& w : service.overrides)
                    if (t >= w.fromS && t < w.toS)
                        desired = w.replicas;
            }
            deciding.applied(desired);
            if (options.onDecision) {
                AutoscaleDecision d;
                d.t = t;
                d.current = current;
                d.ready = ready;
                d.desired = asked;
                d.applied = desired;
                d.arrivalRate = v.arrivalRate;
                d.utilization = v.utilization;
                d.backlog = backlog;
                d.values = deciding.lastValues();
                options.onDecision(d, deciding);
            }
            if (desired != current)
                ++out.scalingActions;
            for (int n = current; n < desired; ++n)
                starting.push_back(t + service.startupDelayS);
            for (int n = desired; n < current; ++n) {
                if (!starting.empty())
                    starting.pop_back();
                else
                    --ready;
            }
            if (syncStep)
                periodServed = periodCapacity = periodArrivals = 0;
        }
        if (!openBursts.empty() && ready != burstCheckedReady) {
            burstCheckedReady = ready;
            std::erase_if(openBursts, [&](const std::pair<double, double>& b) {
                if (!meetsSlo(ready, b.second))
                    return false;
                out.burstLagsS.push_back(t - b.first);
                return true;
            });
        }
        const double arrivals = load.requests[k];
        const double capacity = double(ready) * mu;
        const double served = std::min(backlog + arrivals, capacity);
        backlog = backlog + arrivals - served;
        const double drain = ready > 0 ? backlog / capacity : 0;
        mStepLoads.push_back({ float(arrivals), ready, drain });
        if (outcome) {
            pStepLoads.push_back({ float(arrivals), ready, drain });
            pReady += ready;
            pDrain += drain;
        }
        out.requests += arrivals;
        out.maxBacklog = std::max(out.maxBacklog, backlog);
        if (ready > 0) {
            utilSum += served / capacity;
            ++utilSteps;
        }
        periodServed += served;
        periodCapacity += capacity;
        periodArrivals += arrivals;
        const int replicas = ready + int(starting.size());
        out.maxReplicas = std::max(out.maxReplicas, replicas);
        replicaSeconds += replicas;
        mArrivals += arrivals;
        mReady += ready;
        mReplicas += replicas;
        mDrain += drain;
        if (++mSteps == 60)
            closeMinute(t - 59);
    }
    closeMinute(double(end - begin) - mSteps);
    if (inLag)
        out.scaleUpLagsS.push_back(double(end - begin) - lagStart);
    for (const auto& b : openBursts)
        out.burstLagsS.push_back(double(end - begin) - b.first);
    std::sort(out.burstLagsS.begin(), out.burstLagsS.end()); // served out of order: by length
    out.replicaHours = replicaSeconds / 3600.0;
    out.cost = out.replicaHours * service.costPerReplicaHour;
    out.missedShare = out.requests > 0 ? missed / out.requests : 0;
    out.meanUtilization = utilSteps ? utilSum / double(utilSteps) : 0;
    out.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress)
        progress(1.0);
    return out;
}

std::string AutoscaleDecision::what() const
{
    char buf[200];
    std::snprintf(buf, sizeof buf, "%d replicas (%d ready), %.2f req/s, %.0f %% busy, backlog %.0f -> asks %d, gets %d", current, ready,
        arrivalRate, utilization * 100, backlog, desired, applied);
    return buf;
}

Result<AutoscaleDecision> decisionAt(const LoadSeries& load, const ServiceConfig& service, ReplicaPolicy& policy,
    const AutoscaleOptions& options, double atS, CancelToken cancel)
{
    AutoscaleOptions o = options;
    o.durationS = std::max(1.0, std::floor(atS) + 1);
    if (options.durationS > 0)
        o.durationS = std::min(o.durationS, options.durationS);
    AutoscaleDecision last;
    o.onDecision = [&](const AutoscaleDecision& d, const ReplicaPolicy&) {
        if (d.t <= atS)
            last = d;
    };
    auto r = runAutoscale(load, service, policy, o, {}, std::move(cancel));
    if (!r)
        return r.error();
    return last;
}

std::string AutoscaleIncident::what() const
{
    char buf[200];
    std::snprintf(buf, sizeof buf, "%d min over the SLO in %.0f min, worst p99 %.1f s, %.0f late requests, rate %.2f -> %.2f req/s, %.0f ready",
        sloMinutes, (toS - fromS) / 60, worstP99S, missedRequests, double(rateAtStart), double(peakRate), double(readyAtStart));
    return buf;
}

std::vector<AutoscaleIncident> findIncidents(const AutoscaleResult& run, double minLagS)
{
    // Minutes in trouble: over the SLO, or inside a long scale-up lag (load above capacity for
    // at least minLagS).
    const std::size_t n = run.series.size();
    std::vector<char> bad(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        bad[i] = run.series[i].missedShare > 0.01f;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && run.series[j].arrivalRate > run.series[j].capacityRps + 1e-6f)
            ++j;
        if (j > i && double(j - i) * 60.0 >= minLagS)
            std::fill(bad.begin() + long(i), bad.begin() + long(j), 1);
        i = j > i ? j : i + 1;
    }
    std::vector<AutoscaleIncident> out;
    for (std::size_t i = 0; i < n;) {
        if (!bad[i]) {
            ++i;
            continue;
        }
        AutoscaleIncident inc;
        const MinutePoint& first = run.series[i];
        inc.fromS = first.t;
        inc.replicasAtStart = first.replicas;
        inc.readyAtStart = first.ready;
        inc.rateAtStart = first.arrivalRate;
        std::size_t j = i;
        for (; j < n && bad[j]; ++j) {
            const MinutePoint& m = run.series[j];
            inc.sloMinutes += m.missedShare > 0.01f ? 1 : 0;
            inc.worstP99S = std::max(inc.worstP99S, double(m.p99S));
            inc.missedRequests += double(m.missedShare) * double(m.arrivalRate) * 60.0;
            inc.peakRate = std::max(inc.peakRate, m.arrivalRate);
        }
        inc.toS = j < n ? run.series[j].t : run.series[j - 1].t + 60;
        out.push_back(inc);
        i = j;
    }
    std::stable_sort(out.begin(), out.end(), [](const AutoscaleIncident& a, const AutoscaleIncident& b) {
        if (a.missedRequests != b.missedRequests)
            return a.missedRequests > b.missedRequests;
        return a.sloMinutes != b.sloMinutes ? a.sloMinutes > b.sloMinutes : a.toS - a.fromS > b.toS - b.fromS;
    });
    return out;
}

AutoscaleResult sliceResult(const AutoscaleResult& run, double fromS, double toS, double costPerReplicaHour)
{
    AutoscaleResult out;
    out.policy = run.policy;
    double missed = 0;
    for (const MinutePoint& m : run.series) {
        if (m.t < fromS || m.t >= toS)
            continue;
        out.series.push_back(m);
        ++out.minutes;
        out.sloViolationMinutes += m.arrivalRate > 0 && m.missedShare > 0.01f ? 1 : 0;
        out.requests += double(m.arrivalRate) * 60;
        missed += double(m.missedShare) * double(m.arrivalRate) * 60;
        out.replicaHours += double(m.replicas) / 60.0;
        out.maxReplicas = std::max(out.maxReplicas, int(std::ceil(m.replicas)));
        out.maxBacklog = std::max(out.maxBacklog, double(m.backlog));
    }
    out.cost = out.replicaHours * costPerReplicaHour;
    out.missedShare = out.requests > 0 ? missed / out.requests : 0;
    out.steps = int64_t(out.minutes) * 60;
    return out;
}

} // namespace schedlab::autoscale
