#pragma once
/// What the learned replica policy sees and is rewarded for (module README, "Learned scaler").
///
/// Actions at a sync: change the replicas by a delta of {-big, -1, 0, +1, +big, +huge}, with
/// big = max(2, ceil(20 % of current)) and huge = max(4, ceil(50 % of current)); an action the
/// guard rails would alter (below min, above max, beyond maxChangePerDecision) is masked out.
///
/// Features of (state, action), kScalerFeatures floats, each scaled to about [-1, 1]:
///   0 bias (1)                       7 ready / current
///   1 delta / current, clipped       8 backlog / (one minute of the current replicas' capacity), clipped 1
///   2 rate now / capacity after      9 the last period's late share x 20, clipped 1
///   3 rate ahead / capacity after   10 sin of the time of day
///   4 P(T > SLO) after, rate now    11 cos of the time of day
///   5 P(T > SLO) after, rate ahead  12 replicas after / maxReplicas
///   6 utilisation of the last period
/// "capacity after" = (current + delta) x capacity per replica at the target; ratios / 4, clipped
/// to 1. "Rate now" = the last minute's mean; "rate ahead" = the rate a start-up delay + one sync
/// ahead: the same time a day earlier scaled by today / yesterday over the last hour when a day is
/// known, else the last minute's trend extrapolated. P(T > SLO): the M/M/c tail (queueing.h) with
/// the action's replicas, x 20, clipped 1 (1 = 5 % late).
///
/// Reward of the interval after a decision, weights editable and normalised to sum 1:
///   r = -(latency x min(1, 20 x late share) + cost x max(0, replicas - needed) / needed / 4
///         + sla x [late share > 1 %]) - tail,
/// needed = max(1, ceil(rate / capacity per replica)), and the tail penalty of the placement agent
/// on the period's p99: tailScale x min(tailCap, exp(tailRate x (p99 - SLO) / SLO) - 1) above the SLO.

#include "replica_policy.h"
#include "service.h"

#include "base/result.h"

#include <array>
#include <string>
#include <vector>

namespace schedlab::autoscale {

inline constexpr int kScalerFeatures = 13;
inline constexpr int kScalerActions = 6;

struct ScalerReward {
    double latency = 0.3, cost = 0.3, sla = 0.4;
    double tailScale = 1.0, tailRate = 1.0, tailCap = 10.0;

    /// "latency=0.3,cost=0.3,sla=0.4[,tailScale=1,tailRate=1,tailCap=10]": any subset of keys;
    /// errors name the key or value; weights finite, >= 0, not all zero.
    static Result<ScalerReward> parse(const std::string& text, const ScalerReward& base);
    std::string toString() const;
    /// "default" (the weights above), "cost-first" (0.05, 0.8, 0.15), "slo-first" (0.3, 0.1, 0.6,
    /// tail scale 2).
    static Result<ScalerReward> preset(const std::string& name);
    static std::string presetNames(); ///< "default, cost-first, slo-first"
};

struct ScalerRewardTerms {
    double latency = 0, cost = 0, sla = 0, tail = 0, total = 0;
};

/// The reward of a period with `replicas` (ready + starting), late share, p99 and mean rate.
ScalerRewardTerms scalerReward(const ScalerReward& w, const ServiceConfig& s, int replicas, double lateShare, double p99S,
    double rate);

/// The state at a sync, from which every action's feature row follows.
class ScalerState {
public:
    explicit ScalerState(const ServiceConfig& s);
    /// Reads the view (the load so far: rates now and ahead).
    void observe(const ScalerView& v);
    /// The six deltas for the current replicas.
    std::array<int, kScalerActions> deltas() const;
    /// Whether the guard rails leave action `a` as it is.
    bool allowed(int a) const;
    /// The feature row of action `a`.
    void features(int a, float* row) const;
    int current() const { return m_current; }
    double rateNow() const { return m_rateNow; }

private:
    const ServiceConfig& m_s;
    int m_current = 0, m_ready = 0;
    double m_rateNow = 0, m_rateAhead = 0, m_util = 0, m_backlog = 0, m_late = 0, m_dayPhase = 0;
    std::array<int, kScalerActions> m_deltas {};
    std::vector<double> m_prefix { 0.0 }; ///< sums of the load's first k steps
    const std::vector<float>* m_loadSeen = nullptr;
};

} // namespace schedlab::autoscale
