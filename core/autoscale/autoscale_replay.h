#pragma once
/// Replays a service's load under a replica policy, one-second steps (module README):
///  - replicas start `startupDelayS` after they are asked for and serve only then; removing takes
///    starting replicas first, then ready ones; every replica (starting or ready) is paid for;
///  - each step serves min(backlog + arrivals, ready x mu) requests; what is left is the backlog;
///  - a step's requests see the M/M/c response time at the step's arrival rate (at most 0.99 of the
///    ready capacity) plus the drain time of the backlog at the step's end; P(T > SLO) for them
///    follows (queueing.h); with no ready replica every request misses the SLO;
///  - a minute violates the SLO when more than 1 % of its requests miss it (its p99 is above the
///    SLO); the minute's p99 series value is the M/M/c p99 at its mean rate and its mean ready
///    replicas (rounded down) plus its mean drain time;
///  - a scale-up lag runs from a minute whose mean rate is above the ready capacity at the target
///    (ready x capacityRps) to the first minute where it is not; a burst lag (to the second) from
///    the start of a burst minute to the first step whose ready replicas meet the SLO (below);
///  - decisions every HPA sync period (policy, then guard rails: min/max, max change, override).
/// Deterministic: the same load, service and policy give the same result.

#include "load_series.h"
#include "replica_policy.h"
#include "service.h"

#include "base/progress.h"
#include "base/result.h"

#include <functional>
#include <string>
#include <vector>

namespace schedlab::autoscale {

struct MinutePoint {
    double t = 0; ///< minute start, seconds from the load's start
    float arrivalRate = 0, ready = 0, replicas = 0, capacityRps = 0, p99S = 0, missedShare = 0, backlog = 0;
};

struct AutoscaleDecision;

struct AutoscaleOptions {
    double fromS = 0; ///< replay [fromS, fromS + durationS) of the load (policies see the load before too)
    double durationS = 0; ///< 0 = to the end
    /// A fork: from `switchAtS` (seconds from the replay's start) on, `switchTo` decides instead of
    /// the run's policy, from the state the run had there (replicas ready and starting, backlog).
    double switchAtS = -1;
    ReplicaPolicy* switchTo = nullptr;
    /// Called after every decision (with the deciding policy), e.g. to keep the one of interest.
    std::function<void(const AutoscaleDecision&, const ReplicaPolicy&)> onDecision;
};

/// A policy's decision as the replay saw it: the state, what the policy asked for, what the guard
/// rails let through, and (a learned policy) the value of each action.
struct AutoscaleDecision {
    double t = -1; ///< seconds from the replay's start; -1 = none made
    int current = 0, ready = 0, desired = 0, applied = 0;
    double arrivalRate = 0, utilization = 0, backlog = 0;
    std::vector<ActionValue> values;
    std::string what() const; ///< "3 replicas (2 ready), 1.28 req/s, 87 % busy, backlog 0 -> asks 4, gets 4"
};

/// The last decision `policy` makes at or before `atS` (seconds from options.fromS) in the run
/// `options` describes (replayed up to there, not further).
Result<AutoscaleDecision> decisionAt(const LoadSeries& load, const ServiceConfig& service, ReplicaPolicy& policy,
    const AutoscaleOptions& options, double atS, CancelToken cancel = {});

struct AutoscaleResult {
    std::string policy;
    int64_t steps = 0;
    double requests = 0;
    double replicaHours = 0, cost = 0;
    int minutes = 0, sloViolationMinutes = 0;
    double missedShare = 0; ///< requests over the SLO / requests
    int scalingActions = 0; ///< decisions that changed the replica count
    double meanUtilization = 0; ///< served / ready capacity at mu, over steps with a ready replica
    double maxBacklog = 0;
    int maxReplicas = 0;
    std::vector<double> scaleUpLagsS;
    /// Per burst of the load (a minute at >= 1.5 x the mean rate of the 10 before it, not right
    /// after another such minute; the same minutes for every policy): seconds from its start to the first step whose ready replicas
    /// serve its rate within the SLO (M/M/c, at most 1 % late at the burst minute's rate; when no
    /// replica count can, capacity at the target instead), 0 when they do at its start, to the
    /// run's end when they never do. Shortest first.
    std::vector<double> burstLagsS;
    std::vector<MinutePoint> series;
    double simSeconds = 0;
};

/// A stretch of trouble in a run: consecutive minutes over the SLO (more than 1 % of requests
/// late), or a scale-up lag of at least `minLagS`, merged when they overlap or touch.
struct AutoscaleIncident {
    double fromS = 0, toS = 0; ///< minute starts, [from, to)
    int sloMinutes = 0; ///< minutes over the SLO in it
    double worstP99S = 0;
    double missedRequests = 0;
    float replicasAtStart = 0, readyAtStart = 0, rateAtStart = 0, peakRate = 0;
    std::string what() const; ///< "18 min over the SLO, worst p99 45.2 s, rate 3.1 -> 9.4 req/s, 3 ready"
};

/// The incidents of a run, worst first (most late requests, then most SLO minutes, then longest).
std::vector<AutoscaleIncident> findIncidents(const AutoscaleResult& run, double minLagS = 300);

/// A run's figures over [fromS, toS) of its series (whole minutes): SLO minutes, replica-hours,
/// missed requests, scaling actions are not kept per minute and are left 0.
AutoscaleResult sliceResult(const AutoscaleResult& run, double fromS, double toS, double costPerReplicaHour);

Result<AutoscaleResult> runAutoscale(const LoadSeries& load, const ServiceConfig& service, ReplicaPolicy& policy,
    const AutoscaleOptions& options = {}, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::autoscale
