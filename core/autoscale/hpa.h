#pragma once
/// The Kubernetes Horizontal Pod Autoscaler (autoscaling/v2), as the Kubernetes documentation and
/// its replica calculator define it (module README has the rules and a worked sequence):
///  - desired = ceil(ready x utilisation / target); no change while |utilisation / target - 1| <= tolerance;
///  - scaling up with pods not yet ready: those count as 0 % utilisation; no change when that
///    brings the ratio within the tolerance or reverses its direction;
///  - behaviour: a stabilisation window per direction (scale-down: the highest recommendation of
///    the last 300 s; scale-up: the lowest of its window, 0 s by default) and rate policies per
///    period (Pods: start + value; Percent: up ceil(start x (1 + value/100)), down
///    trunc(start x (1 - value/100)); start = replicas at the period's start), combined by
///    selectPolicy Max (the biggest change), Min or Disabled; defaults up {100 %, 4 pods} per 15 s,
///    Max; down 100 % per 15 s;
///  - min / max replicas.

#include <deque>
#include <string>
#include <vector>

namespace schedlab::autoscale {

/// ceil(x) as a replica count, saturated to [0, 2^30]: a ratio of a huge recorded load (10^11
/// requests in a second) asks for more replicas than an int holds; NaN is 0. Guard rails then
/// clamp it to the service's max.
int ceilReplicas(double x);

struct HpaPolicy {
    enum Type { Pods, Percent } type = Percent;
    int value = 100;
    int periodS = 15;
};

struct HpaRules {
    int stabilizationS = 0;
    enum Select { Max, Min, Disabled } select = Max;
    std::vector<HpaPolicy> policies;
};

struct HpaConfig {
    double tolerance = 0.1;
    double syncPeriodS = 15;
    HpaRules scaleUp { 0, HpaRules::Max, { { HpaPolicy::Percent, 100, 15 }, { HpaPolicy::Pods, 4, 15 } } };
    HpaRules scaleDown { 300, HpaRules::Max, { { HpaPolicy::Percent, 100, 15 } } };
};

class Hpa {
public:
    Hpa(HpaConfig config, int minReplicas, int maxReplicas);
    /// The replica calculator alone: the raw recommendation for `current` replicas of which
    /// `ready` report `utilization` (mean, as a fraction of the request) against `target`.
    static int recommend(int current, int ready, double utilization, double target, double tolerance);
    /// One sync at time `t` (seconds): the replicas the HPA sets (after stabilisation, rate
    /// policies and min/max), remembering recommendations and scale events.
    int sync(double t, int current, int ready, double utilization, double target);
    const HpaConfig& config() const { return m_config; }

private:
    int limitUp(double t, int current) const;
    int limitDown(double t, int current) const;
    HpaConfig m_config;
    int m_min, m_max;
    std::deque<std::pair<double, int>> m_recommendations; ///< (time, raw recommendation)
    std::deque<std::pair<double, int>> m_upEvents, m_downEvents; ///< (time, replicas added / removed)
};

} // namespace schedlab::autoscale
