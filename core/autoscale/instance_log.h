#pragma once
/// Logged replica counts: a log of a service's instances (each created, then deleted), read as the
/// replicas each application had over time. Read from the Alibaba GPU-disaggregated DLRM serving
/// trace (v2025, `disaggregated_DLRM_trace.csv`: instance_sn, role, app_name, ..., creation_time,
/// scheduled_time, deletion_time; seconds since the trace start, an empty time = outside it).
///
/// An instance counts as a replica of its app from its creation time (empty: before the trace,
/// so from 0) to its deletion time (empty: still alive, so to the log's end, its latest time).
/// The trace has no request counts; demandOf() gives the load the logged replicas served (module
/// README: each instance, once started, busy at the target utilisation until it is deleted), so
/// HPA and the others can be replayed next to the record on the same load.

#include "load_series.h"

#include "base/result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::autoscale {

struct InstanceLog {
    struct Instance {
        int32_t app = 0;
        int8_t role = 0; ///< index into roles
        bool before = false; ///< created before the log starts (createS = 0)
        double createS = 0, deleteS = 0;
    };
    std::string name; ///< file name
    std::vector<std::string> apps; ///< in order of first appearance
    std::vector<std::string> roles; ///< "CN", "HN", ... in order of first appearance
    std::vector<Instance> instances;
    double endS = 0; ///< the latest time in the log

    int appIndex(const std::string& app) const;
    int roleIndex(const std::string& role) const;
};

/// True when the file starts with the DLRM instance log's header (instance_sn,role,app_name,...).
bool isInstanceLog(const std::string& path);

/// Reads the log; errors name the file, line and column.
Result<InstanceLog> readInstanceLog(const std::string& path);

/// One app's replica count over time: (time, count) change points in time order, the count
/// holding from each time until the next; starts at time 0.
struct ReplicaRecord {
    std::string app; ///< "app_12" or "app_12/HN"
    std::vector<std::pair<double, int32_t>> changes;
    double endS = 0;
    int32_t instances = 0;

    /// The count at time t (seconds from the log's start).
    int32_t at(double t) const;
    /// Replica-hours over [0, endS).
    double replicaHours() const;
};

/// The record of app `app` (index), instances of role `role` only (-1: all roles). With
/// `servingAfterS` > 0, the instances serving: each from its creation + servingAfterS (those
/// alive when the log starts from 0) until its deletion.
ReplicaRecord replicaRecord(const InstanceLog& log, int app, int role = -1, double servingAfterS = 0);

/// The request load a record's replicas serve: count(step) x capacityRps in each second step
/// (a step takes the count at its start). Given the serving record (servingAfterS = the
/// start-up delay), the demand each logged instance met once started.
LoadSeries demandOf(const ReplicaRecord& serving, double capacityRps);

} // namespace schedlab::autoscale
