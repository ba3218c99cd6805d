// The Kubernetes HPA (hpa.h).

#include "hpa.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace schedlab::autoscale {

int ceilReplicas(double x)
{
    constexpr double kMostReplicas = double(1 << 30);
    if (!(x > 0))
        return 0;
    return int(std::ceil(std::min(x, kMostReplicas)));
}

Hpa::Hpa(HpaConfig config, int minReplicas, int maxReplicas)
    : m_config(std::move(config))
    , m_min(minReplicas)
    , m_max(maxReplicas)
{
}

int Hpa::recommend(int current, int ready, double utilization, double target, double tolerance)
{
    if (ready <= 0 || !(target > 0))
        return current; // no metrics: the HPA does not act
    const int unready = std::max(0, current - ready);
    const double ratio = utilization / target;
    if (!(unready > 0 && ratio > 1.0)) {
        if (std::abs(1.0 - ratio) <= tolerance)
            return current;
        return ceilReplicas(ratio * double(ready));
    }
    // Scaling up with pods not yet ready: they count as using 0 % of the target.
    const double newRatio = utilization * double(ready) / (target * double(ready + unready));
    if (std::abs(1.0 - newRatio) <= tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0))
        return current;
    const int replicas = ceilReplicas(newRatio * double(ready + unready));
    if ((newRatio < 1.0 && replicas > current) || (newRatio > 1.0 && replicas < current))
        return current;
    return replicas;
}

namespace {
/// Replicas changed by events strictly after `t - period`.
int changedWithin(const std::deque<std::pair<double, int>>& events, double t, int periodS)
{
    int sum = 0;
    for (const auto& [when, n] : events)
        if (when > t - periodS)
            sum += n;
    return sum;
}
} // namespace

int Hpa::limitUp(double t, int current) const
{
    const HpaRules& r = m_config.scaleUp;
    if (r.select == HpaRules::Disabled)
        return current;
    int result = r.select == HpaRules::Min ? INT_MAX : INT_MIN;
    for (const HpaPolicy& p : r.policies) {
        const int start = current - changedWithin(m_upEvents, t, p.periodS);
        const int proposed = p.type == HpaPolicy::Pods ? start + p.value : int(std::ceil(double(start) * (1.0 + double(p.value) / 100.0)));
        result = r.select == HpaRules::Min ? std::min(result, proposed) : std::max(result, proposed);
    }
    return result;
}

int Hpa::limitDown(double t, int current) const
{
    const HpaRules& r = m_config.scaleDown;
    if (r.select == HpaRules::Disabled)
        return current;
    int result = r.select == HpaRules::Min ? INT_MIN : INT_MAX;
    for (const HpaPolicy& p : r.policies) {
        const int start = current + changedWithin(m_downEvents, t, p.periodS);
        const int proposed = p.type == HpaPolicy::Pods ? start - p.value : int(double(start) * (1.0 - double(p.value) / 100.0));
        result = r.select == HpaRules::Min ? std::max(result, proposed) : std::min(result, proposed);
    }
    return result;
}

int Hpa::sync(double t, int current, int ready, double utilization, double target)
{
    const int raw = recommend(current, ready, utilization, target, m_config.tolerance);
    // Stabilisation: the lowest recommendation of the scale-up window, the highest of the
    // scale-down window (this one included), then kept between them.
    int up = raw, down = raw;
    for (const auto& [when, rec] : m_recommendations) {
        if (when > t - m_config.scaleUp.stabilizationS)
            up = std::min(up, rec);
        if (when > t - m_config.scaleDown.stabilizationS)
            down = std::max(down, rec);
    }
    m_recommendations.emplace_back(t, raw);
    const double keep = std::max(m_config.scaleUp.stabilizationS, m_config.scaleDown.stabilizationS);
    while (!m_recommendations.empty() && m_recommendations.front().first <= t - keep)
        m_recommendations.pop_front();
    int desired = current;
    if (desired < up)
        desired = up;
    if (desired > down)
        desired = down;
    // Rate policies.
    if (desired > current) {
        const int limit = std::max(current, limitUp(t, current));
        desired = std::min(desired, std::min(m_max, limit));
    } else if (desired < current) {
        const int limit = std::min(current, limitDown(t, current));
        desired = std::max(desired, std::max(m_min, limit));
    }
    desired = std::clamp(desired, m_min, m_max);
    if (desired > current)
        m_upEvents.emplace_back(t, desired - current);
    else if (desired < current)
        m_downEvents.emplace_back(t, current - desired);
    int longest = 0;
    for (const auto* rules : { &m_config.scaleUp, &m_config.scaleDown })
        for (const HpaPolicy& p : rules->policies)
            longest = std::max(longest, p.periodS);
    for (auto* events : { &m_upEvents, &m_downEvents })
        while (!events->empty() && events->front().first <= t - longest)
            events->pop_front();
    return desired;
}

} // namespace schedlab::autoscale
