#pragma once

#include <cstdio>
// Options shared by the commands that import traces.

#include "cli_args.h"
#include "trace/import_context.h"
#include "trace/slurm_fields.h"

#include <set>
#include <string>
#include <vector>

namespace schedlab::cli {

/// The options importOptionsFrom() reads, for the command table.
inline const std::vector<OptionSpec>& importOptions()
{
    static const std::vector<OptionSpec> options = {
        { "procs-per-node", "K", "SWF: processors per node (the cluster's shape)" },
        { "max-tasks", "N", "stop importing after N tasks" },
        { "strict", "", "the first row warning is an error" },
        { "timezone", "ZONE", "Slurm sacct's local times: UTC (default), UTC-06:00, America/New_York" },
        { "sacct-fields", "F1,F2,...", "sacct output without a header: its field names (as for sacct --format)" },
        { "log-year", "Y", "kube-scheduler klog lines carry no year (default: the file's modification year)" },
    };
    return options;
}

/// Fills ImportOptions from parsed args; returns an error text, empty on success.
inline std::string importOptionsFrom(const Args& args, trace::ImportOptions& out)
{
    std::string error;
    long long k = args.integer("procs-per-node", 0, error);
    if (!error.empty())
        return error;
    if (k < 0 || k > (1 << 30))
        return "--procs-per-node must be a positive processor count";
    out.procsPerNode = int(k);
    const long long maxTasks = args.integer("max-tasks", out.maxTasks, error);
    if (!error.empty())
        return error;
    if (maxTasks < 1)
        return "--max-tasks must be positive";
    out.maxTasks = maxTasks;
    out.strict = args.flag("strict");
    // Slurm: the zone of sacct's local times, and the field order of a header-less export;
    // checked here so a typo fails before any work.
    out.timezone = args.value("timezone").value_or("UTC");
    if (!trace::LocalTimeZone::make(out.timezone, error))
        return "--timezone: " + error;
    out.sacctFields = args.value("sacct-fields").value_or("");
    // kube-scheduler's klog lines carry no year.
    const long long year = args.integer("log-year", 0, error);
    if (!error.empty())
        return error;
    if (year != 0 && (year < 1970 || year > 9999))
        return "--log-year must be a year such as 2025";
    out.logYear = int(year);
    // As tools that read stdin do: say why nothing happens (a FIFO without a writer); Ctrl+C stops.
    out.waitingForInput = [](const std::string& name) {
        std::fprintf(stderr, "schedlab-cli: waiting for input on %s\n", name.c_str());
        std::fflush(stderr);
    };
    return {};
}

} // namespace schedlab::cli
