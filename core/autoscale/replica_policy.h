#pragma once
/// Replica policies: what each decides at a sync (every HPA sync period, 15 s by default) from
/// what a controller could see then — never the future load.
///  - `hpa`: the Kubernetes HPA on utilisation (hpa.h);
///  - `static:N`: N replicas throughout;
///  - `forecast` (Holt-Winters, additive, daily season on per-minute rates) and `forecast:naive`
///    (seasonal naive: the same minute a day earlier): target tracking of the forecast rate at
///    now + start-up delay + one sync period, never below the rate arriving now; desired = the
///    least replicas at or under the target utilisation whose M/M/c p99 at that rate meets the SLO;
///  - `logged`: the replica counts a log recorded (instance_log.h), as they were.
/// Guard rails (every policy): min / max replicas, at most `maxChangePerDecision` replicas per
/// decision, and override windows (replicas pinned by the user) — applied by the replay.

#include "service.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::autoscale {

/// What a policy sees at a sync.
struct ScalerView {
    double t = 0; ///< seconds from the load's start
    int current = 0; ///< replicas (ready + starting)
    int ready = 0;
    double utilization = 0; ///< of the ready replicas over the last sync period (served / capacity at mu)
    double arrivalRate = 0; ///< requests/s over the last sync period
    const std::vector<float>* load = nullptr; ///< the load so far: steps [0, step) only
    std::size_t step = 0;
    double backlog = 0; ///< requests waiting now
    /// The last sync period's outcome, for policies that learn from it (wantsOutcome()): the share
    /// of its requests over the SLO and its p99 (M/M/c at its mean rate and ready replicas, plus
    /// its mean backlog drain time; as the per-minute series).
    double periodMissedShare = 0, periodP99S = 0;
};

/// One action a learned policy weighed at its last decision: the change, whether the guard rails
/// allowed it, its Q-value.
struct ActionValue {
    int delta = 0;
    bool allowed = false;
    float q = 0;
};

class ReplicaPolicy {
public:
    virtual ~ReplicaPolicy() = default;
    virtual std::string name() const = 0;
    /// Replicas wanted now (before the guard rails).
    virtual int decide(const ScalerView& view) = 0;
    /// A record of what was (`logged`): replayed as it is, the guard rails do not apply.
    virtual bool isRecord() const { return false; }
    /// Fill ScalerView's period outcome (costs a little per step).
    virtual bool wantsOutcome() const { return false; }
    /// The guard rails' verdict on the last decision (what the replay applied), before the next.
    virtual void applied(int /*replicas*/) { }
    /// What a learned policy weighed at its last decision (empty for the others, and when it
    /// explored at random while training).
    virtual std::vector<ActionValue> lastValues() const { return {}; }
};

/// "hpa", "static:N", "forecast", "forecast:naive"; nullptr with `error` set when unknown.
/// (`learned:F.slq` too: makeAnyReplicaPolicy, learned_scaler.h.)
std::unique_ptr<ReplicaPolicy> makeReplicaPolicy(const std::string& spec, const ServiceConfig& service, std::string* error);

struct ReplicaRecord;
/// `logged`: the record's replica count at each sync (instance_log.h). Keeps a reference to it.
std::unique_ptr<ReplicaPolicy> makeLoggedPolicy(const ReplicaRecord& record);

/// The policy names `makeReplicaPolicy` takes, with a line each.
std::vector<std::pair<std::string, std::string>> replicaPolicies();

} // namespace schedlab::autoscale
