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

namespace {
/// One step's load as the misses see it: arrivals, ready replicas and the backlog's drain time.
struct StepLoad {
    float arrivals;
    int ready;
    double drain;
};

/// The replay of one load under one replica policy (and the policy it switches to), step by step:
/// replicas starting and ready, the queue, the sync-period decisions with the guard rails, and
/// the per-minute series with SLO misses, scale-up lags and burst lags.
class ScalerReplay {
public:
    ScalerReplay(const LoadSeries& load, const ServiceConfig& service, ReplicaPolicy& policy, const AutoscaleOptions& options,
        std::size_t begin, std::size_t end)
        : m_load(load)
        , m_service(service)
        , m_policy(policy)
        , m_options(options)
        , m_begin(begin)
        , m_end(end)
        , m_mu(service.serviceRate())
        , m_sync(std::max(1, int(std::lround(service.hpa.syncPeriodS))))
        , m_miss(m_mu, service.sloP99S)
        , m_sloReachable(std::exp(-m_mu * service.sloP99S) <= 0.01)
        , m_outcome(policy.wantsOutcome() || (options.switchTo && options.switchTo->wantsOutcome()))
    {
        m_minuteLoads.reserve(60);
    }

    AutoscaleResult& result() { return m_out; }
    void start();
    void step(std::size_t k);
    void finish();

private:
    bool meetsSlo(int r, double rate) const;
    /// M/M/c p99 with r ready at `rate` (at most 0.99 of their capacity), memoised.
    double p99At(int r, double rate);
    /// Requests over the SLO among `steps`, each against the stretch's mean `rate` with the step's
    /// ready replicas and drain time (a second's count is a sample of the rate M/M/c needs).
    double missedIn(const std::vector<StepLoad>& steps, double rate);
    /// The sync period's outcome (missed share, p99) into the view, for a policy that wants it.
    void closePeriod(ScalerView& v);
    /// A burst starting with the minute that closes (and its lag when served within it).
    void noteBurst(double t, double rate);
    void closeMinute(double t);
    /// A decision at step k (every sync period, every step for a record), with the guard rails.
    void decide(std::size_t k, double t, bool syncStep);
    int guard(const ReplicaPolicy& deciding, int desired, int current, double t) const;
    void reportDecision(ReplicaPolicy& deciding, const ScalerView& v, int asked, int applied) const;
    /// Bursts still open when the ready replicas change: served once they meet the SLO.
    void checkOpenBursts(double t);
    void serve(std::size_t k);

    const LoadSeries& m_load;
    const ServiceConfig& m_service;
    ReplicaPolicy& m_policy;
    const AutoscaleOptions& m_options;
    const std::size_t m_begin, m_end;
    const double m_mu;
    const int m_sync;
    AutoscaleResult m_out;
    int m_ready = 0;
    std::deque<double> m_starting; // ready times, oldest first
    double m_backlog = 0;
    MissCache m_miss;
    double m_periodServed = 0, m_periodCapacity = 0, m_periodArrivals = 0;
    double m_utilSum = 0;
    int64_t m_utilSteps = 0;
    double m_replicaSeconds = 0, m_missed = 0;
    // The minute being summed, and its steps' (arrivals, ready, drain) for the misses.
    double m_mArrivals = 0, m_mReady = 0, m_mReplicas = 0, m_mDrain = 0;
    int m_mSteps = 0;
    std::vector<StepLoad> m_minuteLoads;
    bool m_inLag = false;
    double m_lagStart = 0;
    // Bursts (of the load, the same for every policy): a minute at 1.5 x the mean rate of the 10
    // before it; its lag runs from the minute's start to the first step whose ready replicas can
    // serve its rate within the SLO (0 when they can at its start; to the end when none does).
    const bool m_sloReachable;
    std::deque<double> m_recentRates;
    std::vector<std::pair<double, double>> m_openBursts; // (start, rate), not yet served
    int m_burstCheckedReady = -1;
    bool m_inBurst = false; ///< the last minute was a burst minute
    std::unordered_map<uint64_t, double> m_p99Cache;
    // The sync period's steps, for a policy that wants its outcome.
    const bool m_outcome;
    std::vector<StepLoad> m_periodLoads;
    double m_pReady = 0, m_pDrain = 0;
};

bool ScalerReplay::meetsSlo(int r, double rate) const
{
    if (r < 1 || rate >= double(r) * m_mu)
        return false;
    return m_sloReachable ? responseTail(r, rate, m_mu, m_service.sloP99S) <= 0.01 : double(r) * m_service.capacityRps() >= rate;
}

double ScalerReplay::p99At(int r, double rate)
{
    const double capped = std::min(rate, 0.99 * double(r) * m_mu);
    const uint64_t key = uint64_t(std::llround(capped * 1e6)) * 100003ULL + uint64_t(r);
    auto [it, fresh] = m_p99Cache.try_emplace(key, 0.0);
    if (fresh)
        it->second = responseQuantile(r, capped, m_mu, 0.99);
    return it->second;
}

double ScalerReplay::missedIn(const std::vector<StepLoad>& steps, double rate)
{
    double m = 0;
    for (const StepLoad& st : steps)
        if (st.arrivals > 0)
            m += st.arrivals * (st.ready > 0 ? m_miss(st.ready, rate, st.drain) : 1.0);
    return m;
}

void ScalerReplay::closePeriod(ScalerView& v)
{
    const double n = double(m_periodLoads.size());
    if (n == 0)
        return;
    const double rate = m_periodArrivals / n;
    const double missedHere = missedIn(m_periodLoads, rate);
    v.periodMissedShare = m_periodArrivals > 0 ? missedHere / m_periodArrivals : 0;
    v.periodP99S = m_periodArrivals > 0 ? std::min(p99At(int(m_pReady / n), rate) + m_pDrain / n, 1e9) : 0;
    m_periodLoads.clear();
    m_pReady = m_pDrain = 0;
}

void ScalerReplay::noteBurst(double t, double rate)
{
    if (m_recentRates.size() == 10) {
        double base = 0;
        for (double r : m_recentRates)
            base += r / 10;
        const bool burst = rate > 0 && rate >= 1.5 * base;
        if (burst && !m_inBurst) { // minutes that stay above it belong to the burst they follow
            std::size_t j = 0;
            while (j < m_minuteLoads.size() && !meetsSlo(m_minuteLoads[j].ready, rate))
                ++j;
            if (j < m_minuteLoads.size())
                m_out.burstLagsS.push_back(double(j));
            else {
                m_openBursts.emplace_back(t, rate);
                m_burstCheckedReady = m_minuteLoads.back().ready;
            }
        }
        m_inBurst = burst;
    }
    m_recentRates.push_back(rate);
    if (m_recentRates.size() > 10)
        m_recentRates.pop_front();
}

void ScalerReplay::closeMinute(double t)
{
    if (m_mSteps == 0)
        return;
    const double rate = m_mArrivals / m_mSteps;
    const double mMissed = missedIn(m_minuteLoads, rate);
    noteBurst(t, rate);
    m_minuteLoads.clear();
    m_missed += mMissed;
    MinutePoint p;
    p.t = t;
    p.arrivalRate = float(m_mArrivals / m_mSteps);
    p.ready = float(m_mReady / m_mSteps);
    p.replicas = float(m_mReplicas / m_mSteps);
    p.capacityRps = float(m_mReady / m_mSteps * m_service.capacityRps());
    p.missedShare = m_mArrivals > 0 ? float(mMissed / m_mArrivals) : 0.0f;
    p.backlog = float(m_backlog);
    p.p99S = float(std::min(p99At(int(m_mReady / m_mSteps), rate) + m_mDrain / m_mSteps, 1e9));
    ++m_out.minutes;
    if (m_mArrivals > 0 && p.missedShare > 0.01)
        ++m_out.sloViolationMinutes;
    // Scale-up lag: load above the ready capacity at the target, until it is not.
    const bool short_ = m_mArrivals / m_mSteps > p.capacityRps + 1e-9;
    if (short_ && !m_inLag) {
        m_inLag = true;
        m_lagStart = t;
    } else if (!short_ && m_inLag) {
        m_inLag = false;
        m_out.scaleUpLagsS.push_back(t - m_lagStart);
    }
    m_out.series.push_back(p);
    m_mArrivals = m_mReady = m_mReplicas = m_mDrain = 0;
    m_mSteps = 0;
}

void ScalerReplay::start()
{
    m_out.policy = m_policy.name();
    if (m_options.switchTo && m_options.switchAtS >= 0) {
        char at[48];
        std::snprintf(at, sizeof at, "%.0f", m_options.switchAtS);
        m_out.policy += " -> " + m_options.switchTo->name() + " at " + at + " s";
    }
    m_out.steps = int64_t(m_end - m_begin);
    // Start: the initial replicas, all ready.
    m_ready = m_service.initialReplicas;
    if (m_policy.isRecord()) { // as recorded at the start
        ScalerView v;
        v.step = m_begin;
        m_ready = std::max(0, m_policy.decide(v));
    } else if (m_ready < 0) {
        double first = 0;
        for (std::size_t k = m_begin; k < std::min(m_end, m_begin + 60); ++k)
            first += m_load.requests[k];
        m_ready = ceilReplicas(first / 60.0 / m_service.capacityRps() - 1e-9);
    }
    if (!m_policy.isRecord())
        m_ready = std::clamp(m_ready, m_service.minReplicas, m_service.maxReplicas);
}

int ScalerReplay::guard(const ReplicaPolicy& deciding, int desired, int current, double t) const
{
    // Guard rails: the change limit, min / max, then a user's pinned replicas (a record is
    // replayed as it was).
    if (deciding.isRecord())
        return std::max(0, desired);
    if (m_service.maxChangePerDecision > 0)
        desired = std::clamp(desired, current - m_service.maxChangePerDecision, current + m_service.maxChangePerDecision);
    desired = std::clamp(desired, m_service.minReplicas, m_service.maxReplicas);
    for (const OverrideWindow& w : m_service.overrides)
        if (t >= w.fromS && t < w.toS)
            desired = w.replicas;
    return desired;
}

void ScalerReplay::reportDecision(ReplicaPolicy& deciding, const ScalerView& v, int asked, int applied) const
{
    if (!m_options.onDecision)
        return;
    AutoscaleDecision d;
    d.t = v.t;
    d.current = v.current;
    d.ready = v.ready;
    d.desired = asked;
    d.applied = applied;
    d.arrivalRate = v.arrivalRate;
    d.utilization = v.utilization;
    d.backlog = v.backlog;
    d.values = deciding.lastValues();
    m_options.onDecision(d, deciding);
}

void ScalerReplay::decide(std::size_t k, double t, bool syncStep)
{
    ReplicaPolicy& deciding = m_options.switchTo && m_options.switchAtS >= 0 && t >= m_options.switchAtS ? *m_options.switchTo : m_policy;
    const int current = m_ready + int(m_starting.size());
    ScalerView v;
    v.t = t;
    v.current = current;
    v.ready = m_ready;
    v.utilization = m_periodCapacity > 0 ? m_periodServed / m_periodCapacity : 0;
    v.arrivalRate = m_periodArrivals / m_sync;
    v.load = &m_load.requests;
    v.step = k;
    v.backlog = m_backlog;
    if (m_outcome && syncStep)
        closePeriod(v);
    const int asked = deciding.decide(v);
    const int desired = guard(deciding, asked, current, t);
    deciding.applied(desired);
    reportDecision(deciding, v, asked, desired);
    if (desired != current)
        ++m_out.scalingActions;
    for (int n = current; n < desired; ++n)
        m_starting.push_back(t + m_service.startupDelayS);
    for (int n = desired; n < current; ++n) {
        if (!m_starting.empty())
            m_starting.pop_back();
        else
            --m_ready;
    }
    if (syncStep)
        m_periodServed = m_periodCapacity = m_periodArrivals = 0;
}

void ScalerReplay::checkOpenBursts(double t)
{
    if (m_openBursts.empty() || m_ready == m_burstCheckedReady)
        return;
    m_burstCheckedReady = m_ready;
    std::erase_if(m_openBursts, [&](const std::pair<double, double>& b) {
        if (!meetsSlo(m_ready, b.second))
            return false;
        m_out.burstLagsS.push_back(t - b.first);
        return true;
    });
}

void ScalerReplay::serve(std::size_t k)
{
    const double arrivals = m_load.requests[k];
    const double capacity = double(m_ready) * m_mu;
    const double served = std::min(m_backlog + arrivals, capacity);
    m_backlog = m_backlog + arrivals - served;
    const double drain = m_ready > 0 ? m_backlog / capacity : 0;
    m_minuteLoads.push_back({ float(arrivals), m_ready, drain });
    if (m_outcome) {
        m_periodLoads.push_back({ float(arrivals), m_ready, drain });
        m_pReady += m_ready;
        m_pDrain += drain;
    }
    m_out.requests += arrivals;
    m_out.maxBacklog = std::max(m_out.maxBacklog, m_backlog);
    if (m_ready > 0) {
        m_utilSum += served / capacity;
        ++m_utilSteps;
    }
    m_periodServed += served;
    m_periodCapacity += capacity;
    m_periodArrivals += arrivals;
    const int replicas = m_ready + int(m_starting.size());
    m_out.maxReplicas = std::max(m_out.maxReplicas, replicas);
    m_replicaSeconds += replicas;
    m_mArrivals += arrivals;
    m_mReady += m_ready;
    m_mReplicas += replicas;
    m_mDrain += drain;
}

void ScalerReplay::step(std::size_t k)
{
    const double t = double(k - m_begin);
    while (!m_starting.empty() && m_starting.front() <= t) {
        m_starting.pop_front();
        ++m_ready;
    }
    // A decision every sync period (not at the very start); a record's count every step.
    const ReplicaPolicy& deciding = m_options.switchTo && m_options.switchAtS >= 0 && t >= m_options.switchAtS ? *m_options.switchTo : m_policy;
    const bool syncStep = (k - m_begin) % std::size_t(m_sync) == 0;
    if (k > m_begin && (syncStep || deciding.isRecord()))
        decide(k, t, syncStep);
    checkOpenBursts(t);
    serve(k);
    if (++m_mSteps == 60)
        closeMinute(t - 59);
}

void ScalerReplay::finish()
{
    const double steps = double(m_end - m_begin);
    closeMinute(steps - m_mSteps);
    if (m_inLag)
        m_out.scaleUpLagsS.push_back(steps - m_lagStart);
    for (const auto& b : m_openBursts)
        m_out.burstLagsS.push_back(steps - b.first);
    std::sort(m_out.burstLagsS.begin(), m_out.burstLagsS.end()); // served out of order: by length
    m_out.replicaHours = m_replicaSeconds / 3600.0;
    m_out.cost = m_out.replicaHours * m_service.costPerReplicaHour;
    m_out.missedShare = m_out.requests > 0 ? m_missed / m_out.requests : 0;
    m_out.meanUtilization = m_utilSteps ? m_utilSum / double(m_utilSteps) : 0;
}
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
    ScalerReplay replay(load, service, policy, options, begin, end);
    replay.start();
    for (std::size_t k = begin; k < end; ++k) {
        if ((k - begin) % 65536 == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "autoscaling replay cancelled");
            if (progress)
                progress(double(k - begin) / double(end - begin));
        }
        replay.step(k);
    }
    replay.finish();
    AutoscaleResult& out = replay.result();
    out.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress)
        progress(1.0);
    return std::move(out);
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
