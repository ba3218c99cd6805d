// The learned replica policy's actions, features and reward (scaler_features.h).

#include "scaler_features.h"

#include "queueing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

namespace schedlab::autoscale {

namespace {

double clip(double v, double lo, double hi) { return std::min(hi, std::max(lo, v)); }

} // namespace

Result<ScalerReward> ScalerReward::parse(const std::string& text, const ScalerReward& base)
{
    ScalerReward r = base;
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t comma = text.find(',', from);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string item = text.substr(from, comma - from);
        from = comma + 1;
        if (item.empty())
            continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos)
            return makeError(ErrorCode::Parse, "reward: '" + item + "' is not key=value");
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
            return makeError(ErrorCode::Parse, "reward: " + key + ": '" + value + "' is not a number >= 0");
        double* field = key == "latency" ? &r.latency
            : key == "cost"              ? &r.cost
            : key == "sla"               ? &r.sla
            : key == "tailScale"         ? &r.tailScale
            : key == "tailRate"          ? &r.tailRate
            : key == "tailCap"           ? &r.tailCap
                                         : nullptr;
        if (!field)
            return makeError(ErrorCode::Parse, "reward: unknown key '" + key + "' (latency, cost, sla, tailScale, tailRate, tailCap)");
        *field = v;
    }
    if (r.latency + r.cost + r.sla <= 0)
        return makeError(ErrorCode::Parse, "reward: the weights latency, cost and sla are all 0");
    return r;
}

Result<ScalerReward> ScalerReward::preset(const std::string& name)
{
    ScalerReward r;
    if (name == "default")
        return r;
    if (name == "cost-first") { // the weights of the README's held-out NASA comparison
        r.latency = 0.05;
        r.cost = 0.8;
        r.sla = 0.15;
        return r;
    }
    if (name == "slo-first") {
        r.latency = 0.3;
        r.cost = 0.1;
        r.sla = 0.6;
        r.tailScale = 2.0;
        return r;
    }
    return makeError(ErrorCode::Invalid, "unknown scaler reward preset '" + name + "' (" + presetNames() + ")");
}

std::string ScalerReward::presetNames() { return "default, cost-first, slo-first"; }

std::string ScalerReward::toString() const
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "latency=%g,cost=%g,sla=%g,tailScale=%g,tailRate=%g,tailCap=%g", latency, cost, sla, tailScale,
        tailRate, tailCap);
    return buf;
}

ScalerRewardTerms scalerReward(const ScalerReward& w, const ServiceConfig& s, int replicas, double lateShare, double p99S, double rate)
{
    ScalerRewardTerms t;
    const double sum = w.latency + w.cost + w.sla;
    const double needed = std::max(1.0, std::ceil(rate / s.capacityRps() - 1e-9));
    t.latency = std::min(1.0, 20 * lateShare);
    t.cost = std::max(0.0, double(replicas) - needed) / needed / 4;
    t.sla = lateShare > 0.01 ? 1 : 0;
    if (p99S > s.sloP99S)
        t.tail = w.tailScale * std::min(w.tailCap, std::exp(w.tailRate * (p99S - s.sloP99S) / s.sloP99S) - 1);
    t.total = -(w.latency * t.latency + w.cost * t.cost + w.sla * t.sla) / sum - t.tail;
    return t;
}

ScalerState::ScalerState(const ServiceConfig& s)
    : m_s(s)
{
}

void ScalerState::observe(const ScalerView& v)
{
    m_current = v.current;
    m_ready = v.ready;
    m_util = v.utilization;
    m_backlog = v.backlog;
    m_late = v.periodMissedShare;
    // Prefix sums of the load seen so far (extended as the replay goes; a new run restarts them).
    const std::vector<float>& load = *v.load;
    const auto now = std::ptrdiff_t(v.step);
    if (std::ptrdiff_t(m_prefix.size()) > now + 1 || m_loadSeen != &load)
        m_prefix.assign(1, 0.0);
    m_loadSeen = &load;
    for (std::size_t k = m_prefix.size() - 1; k < std::size_t(now); ++k)
        m_prefix.push_back(m_prefix.back() + double(load[k]));
    // Mean of steps [from, to), clamped to the steps seen.
    auto meanOf = [&](std::ptrdiff_t from, std::ptrdiff_t to) {
        from = std::max<std::ptrdiff_t>(0, from);
        to = std::min(to, now);
        return to <= from ? 0.0 : (m_prefix[std::size_t(to)] - m_prefix[std::size_t(from)]) / double(to - from);
    };
    m_rateNow = meanOf(now - 60, now);
    const auto lead = std::ptrdiff_t(std::lround(m_s.startupDelayS + m_s.hpa.syncPeriodS));
    constexpr std::ptrdiff_t kDay = 86400;
    if (now >= kDay + 3600) {
        const double yesterday = meanOf(now - kDay + lead - 60, now - kDay + lead);
        const double ratio = clip((meanOf(now - 3600, now) + 1e-3) / (meanOf(now - kDay - 3600, now - kDay) + 1e-3), 0.25, 4);
        m_rateAhead = yesterday * ratio;
    } else {
        const double r5 = meanOf(now - 300, now);
        m_rateAhead = std::max(0.0, m_rateNow + (m_rateNow - r5) * double(lead + 30) / 120.0);
    }
    m_dayPhase = 2 * std::numbers::pi * double(now % kDay) / double(kDay);
    const int c = std::max(1, m_current);
    const int big = std::max(2, int(std::ceil(0.2 * c))), huge = std::max(4, int(std::ceil(0.5 * c)));
    m_deltas = { -big, -1, 0, 1, big, huge };
}

std::array<int, kScalerActions> ScalerState::deltas() const { return m_deltas; }

bool ScalerState::allowed(int a) const
{
    const int d = m_deltas[std::size_t(a)];
    const int after = m_current + d;
    if (after < m_s.minReplicas || after > m_s.maxReplicas)
        return d == 0; // staying put is always possible (the rails clamp it, as for any policy)
    return m_s.maxChangePerDecision <= 0 || std::abs(d) <= m_s.maxChangePerDecision;
}

void ScalerState::features(int a, float* row) const
{
    const int d = m_deltas[std::size_t(a)];
    const int after = std::max(0, m_current + d);
    const double mu = m_s.serviceRate();
    const double capacity = std::max(1e-9, double(after) * m_s.capacityRps());
    auto late = [&](double rate) { return after < 1 ? 1.0 : std::min(1.0, 20 * responseTail(after, rate, mu, m_s.sloP99S)); };
    row[0] = 1;
    row[1] = float(clip(double(d) / std::max(1, m_current), -1, 1));
    row[2] = float(std::min(1.0, m_rateNow / capacity / 4));
    row[3] = float(std::min(1.0, m_rateAhead / capacity / 4));
    row[4] = float(late(m_rateNow));
    row[5] = float(late(m_rateAhead));
    row[6] = float(clip(m_util, 0, 1));
    row[7] = float(m_current > 0 ? double(m_ready) / m_current : 0);
    row[8] = float(std::min(1.0, m_backlog / std::max(1e-9, 60 * std::max(1, m_current) * m_s.capacityRps())));
    row[9] = float(std::min(1.0, 20 * m_late));
    row[10] = float(std::sin(m_dayPhase));
    row[11] = float(std::cos(m_dayPhase));
    row[12] = float(double(after) / std::max(1, m_s.maxReplicas));
}

} // namespace schedlab::autoscale
