#pragma once
/// The service being scaled and its guard rails (module README lists the defaults). A per-trace
/// file (JSON) overrides any of them:
///   { "serviceTimeMs": 100, "targetUtilization": 0.6, "startupDelayS": 30, "minReplicas": 1,
///     "maxReplicas": 50, "initialReplicas": 2, "costPerReplicaHour": 0.10, "sloP99Ms": 1000,
///     "maxChangePerDecision": 0, "overrides": [ { "fromS": 3600, "toS": 7200, "replicas": 10 } ],
///     "hpa": { "tolerance": 0.1, "syncPeriodSeconds": 15, "behavior": { "scaleUp": {
///       "stabilizationWindowSeconds": 0, "selectPolicy": "Max",
///       "policies": [ { "type": "Percent", "value": 100, "periodSeconds": 15 } ] }, "scaleDown": { ... } } } }
/// (the HPA's `behavior` as Kubernetes writes it).

#include "hpa.h"

#include "base/result.h"

#include <string>
#include <vector>

namespace schedlab::autoscale {

/// Replicas pinned by the user for [fromS, toS) (seconds from the load's start).
struct OverrideWindow {
    double fromS = 0, toS = 0;
    int replicas = 0;
};

struct ServiceConfig {
    double serviceTimeS = 0.1; ///< mean service time of a request on one replica (mu = 1 / this)
    double targetUtilization = 0.6; ///< the HPA target; a replica's capacity = target / service time
    double startupDelayS = 30; ///< a new replica serves only after this (cold start)
    int minReplicas = 1, maxReplicas = 50;
    int initialReplicas = -1; ///< -1: enough for the first minute's load at the target
    double costPerReplicaHour = 0.10;
    double sloP99S = 1.0;
    int maxChangePerDecision = 0; ///< guard rail: replicas added or removed per decision (0 = any)
    std::vector<OverrideWindow> overrides;
    HpaConfig hpa;

    double serviceRate() const { return 1.0 / serviceTimeS; }
    /// Requests per second one replica serves at the target utilisation.
    double capacityRps() const { return targetUtilization / serviceTimeS; }
};

/// Reads a service file; errors name the file and the JSON path of the bad field.
Result<ServiceConfig> readServiceConfig(const std::string& path);

} // namespace schedlab::autoscale
