// Replica policies (replica_policy.h).

#include "replica_policy.h"

#include "instance_log.h"
#include "queueing.h"

#include <algorithm>
#include <cmath>

namespace schedlab::autoscale {

namespace {

class HpaPolicyImpl : public ReplicaPolicy {
public:
    explicit HpaPolicyImpl(const ServiceConfig& s)
        : m_hpa(s.hpa, s.minReplicas, s.maxReplicas)
        , m_target(s.targetUtilization)
    {
    }
    std::string name() const override { return "hpa"; }
    int decide(const ScalerView& v) override { return m_hpa.sync(v.t, v.current, v.ready, v.utilization, m_target); }

private:
    Hpa m_hpa;
    double m_target;
};

class StaticPolicy : public ReplicaPolicy {
public:
    explicit StaticPolicy(int n)
        : m_n(n)
    {
    }
    std::string name() const override { return "static:" + std::to_string(m_n); }
    int decide(const ScalerView&) override { return m_n; }

private:
    int m_n;
};

class LoggedPolicy : public ReplicaPolicy {
public:
    explicit LoggedPolicy(const ReplicaRecord& r)
        : m_record(r)
    {
    }
    std::string name() const override { return "logged"; }
    int decide(const ScalerView& v) override
    {
        // Steps come in order (a cursor); a fork or a new run may start earlier (a search).
        const double t = double(v.step);
        const auto& c = m_record.changes;
        if (m_at > 0 && c[m_at - 1].first > t)
            m_at = std::size_t(std::upper_bound(c.begin(), c.end(), t, [](double x, const auto& p) { return x < p.first; }) - c.begin());
        while (m_at < c.size() && c[m_at].first <= t)
            ++m_at;
        return m_at == 0 ? 0 : c[m_at - 1].second;
    }
    bool isRecord() const override { return true; }

private:
    const ReplicaRecord& m_record;
    std::size_t m_at = 0; ///< the first change after the last step asked
};

/// Target tracking of a forecast of the per-minute arrival rate.
class ForecastPolicy : public ReplicaPolicy {
public:
    ForecastPolicy(const ServiceConfig& s, bool holtWinters)
        : m_capacity(s.capacityRps())
        , m_mu(s.serviceRate())
        , m_slo(s.sloP99S)
        , m_max(s.maxReplicas)
        , m_leadMin(int(std::ceil((s.startupDelayS + s.hpa.syncPeriodS) / 60.0)))
        , m_holtWinters(holtWinters)
    {
    }
    std::string name() const override { return m_holtWinters ? "forecast" : "forecast:naive"; }
    int decide(const ScalerView& v) override
    {
        // Whole minutes seen so far, each folded into the model once.
        const std::size_t minutes = v.step / 60;
        while (m_minutes.size() < minutes) {
            double sum = 0;
            const std::size_t from = m_minutes.size() * 60;
            for (std::size_t k = from; k < from + 60; ++k)
                sum += (*v.load)[k];
            observe(sum / 60.0);
        }
        const double rate = std::max(v.arrivalRate, forecast(std::size_t(m_leadMin)));
        // At the target utilisation, and enough for the SLO's p99 at that rate (M/M/c).
        int c = std::max(1, ceilReplicas(rate / m_capacity - 1e-9));
        // No number of replicas meets an SLO below one request's own p99 (exponential service:
        // P(S > slo) = e^(-mu slo) > 1 %): then the target alone sizes it.
        if (std::exp(-m_mu * m_slo) > 0.01)
            return c;
        while (c < m_max && responseTail(c, rate, m_mu, m_slo) > 0.01) // p99 above the SLO
            ++c;
        return c;
    }

private:
    static constexpr std::size_t kSeason = 1440; // minutes in a day
    static constexpr double kAlpha = 0.3, kBeta = 0.01, kGamma = 0.3;

    void observe(double x)
    {
        m_minutes.push_back(x);
        const std::size_t n = m_minutes.size();
        if (!m_holtWinters)
            return;
        if (n == kSeason) {
            // Initialise from the first day: level its mean, seasonal deviations from it.
            double mean = 0;
            for (double y : m_minutes)
                mean += y;
            mean /= double(kSeason);
            m_level = mean;
            m_trend = 0;
            m_season.resize(kSeason);
            for (std::size_t i = 0; i < kSeason; ++i)
                m_season[i] = m_minutes[i] - mean;
        } else if (n > kSeason) {
            double& s = m_season[(n - 1) % kSeason];
            const double level = kAlpha * (x - s) + (1 - kAlpha) * (m_level + m_trend);
            m_trend = kBeta * (level - m_level) + (1 - kBeta) * m_trend;
            s = kGamma * (x - level) + (1 - kGamma) * s;
            m_level = level;
        }
    }
    /// The rate `h` minutes after the last whole minute seen.
    double forecast(std::size_t h) const
    {
        const std::size_t n = m_minutes.size();
        if (n == 0)
            return 0;
        if (n < kSeason)
            return m_minutes.back(); // not a day yet: the last minute
        const std::size_t target = n - 1 + h; // index of the minute forecast
        if (!m_holtWinters)
            return m_minutes[target - kSeason];
        return std::max(0.0, m_level + double(h) * m_trend + m_season[target % kSeason]);
    }

    double m_capacity, m_mu, m_slo;
    int m_max;
    int m_leadMin;
    bool m_holtWinters;
    std::vector<double> m_minutes;
    double m_level = 0, m_trend = 0;
    std::vector<double> m_season;
};

} // namespace

std::unique_ptr<ReplicaPolicy> makeReplicaPolicy(const std::string& spec, const ServiceConfig& service, std::string* error)
{
    if (spec == "hpa")
        return std::make_unique<HpaPolicyImpl>(service);
    if (spec == "forecast" || spec == "forecast:hw")
        return std::make_unique<ForecastPolicy>(service, true);
    if (spec == "forecast:naive")
        return std::make_unique<ForecastPolicy>(service, false);
    if (spec.rfind("static:", 0) == 0) {
        char* end = nullptr;
        const long n = std::strtol(spec.c_str() + 7, &end, 10);
        if (end && *end == '\0' && spec.size() > 7 && n >= 0 && n <= 100000)
            return std::make_unique<StaticPolicy>(int(n));
        if (error)
            *error = "'" + spec + "': static:N takes a number of replicas";
        return nullptr;
    }
    if (error)
        *error = spec == "logged" ? "'logged' replays recorded replica counts: it needs an instance log (the DLRM trace) and --app"
                                  : "unknown replica policy '" + spec + "' (hpa, static:N, forecast, forecast:naive, learned:F.slq, logged)";
    return nullptr;
}

std::unique_ptr<ReplicaPolicy> makeLoggedPolicy(const ReplicaRecord& record)
{
    return std::make_unique<LoggedPolicy>(record);
}

std::vector<std::pair<std::string, std::string>> replicaPolicies()
{
    return { { "hpa", "Kubernetes HPA (autoscaling/v2) on utilisation, with its behavior rules" },
        { "static:N", "N replicas throughout" },
        { "forecast", "target tracking of a Holt-Winters forecast (daily season), start-up delay ahead" },
        { "forecast:naive", "target tracking of the same minute a day earlier, start-up delay ahead" },
        { "learned:F.slq", "the learned replica policy (a checkpoint from train --mode autoscale)" },
        { "logged", "the replica counts an instance log recorded (DLRM trace, per app), as they were" } };
}

} // namespace schedlab::autoscale
