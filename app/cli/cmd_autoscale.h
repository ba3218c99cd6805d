#pragma once
// Shared by the `autoscale` command's files (cmd_autoscale.cpp: load files, forks, bench;
// cmd_autoscale_logged.cpp: instance logs with recorded replica counts, per app).

#include "cli_args.h"

#include "autoscale/autoscale_replay.h"
#include "autoscale/instance_log.h"
#include "store/project.h"
#include "workflow/autoscale_record.h"

#include <QJsonObject>

#include <memory>
#include <string>
#include <vector>

namespace schedlab::cli {

using workflow::autoscaleRecord;
using workflow::lagQuantile;

struct AutoscaleSetup {
    autoscale::LoadSeries load;
    autoscale::ServiceConfig service;
    autoscale::AutoscaleOptions options;
    /// An instance log was given: its record of the chosen app (the load is its demand).
    std::unique_ptr<autoscale::InstanceLog> log;
    autoscale::ReplicaRecord record;
    bool allApps = false; ///< --app all
    int role = -1; ///< --role (index into the log's roles; -1 all)
};

/// The run's figures as JSON (schema schedlab.autoscale/1, docs/cli-json.md).
QJsonObject autoscaleJson(const autoscale::AutoscaleResult& r, bool series);

/// `spec` for this setup: "logged" is the record's replay, the others makeReplicaPolicy's.
std::unique_ptr<autoscale::ReplicaPolicy> autoscalePolicy(const std::string& spec, const AutoscaleSetup& s);

/// LOAD is an instance log: reads it, checks --app / --role and, for one app, sets the record and
/// its demand as the load. An error text.
std::string setUpInstanceLog(const Args& a, const std::string& path, AutoscaleSetup& s);

/// `--app all`: every app's record next to the policies on its demand, a table (or --json).
int autoscaleAllApps(const Args& a, AutoscaleSetup& s, const std::vector<std::string>& specs);

/// `autoscale --project P` without a load: the stored runs.
int listAutoscaleRuns(const std::string& projectPath, bool json);

} // namespace schedlab::cli
