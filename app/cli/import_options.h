#pragma once

#include <cstdio>
// Options shared by the commands that import traces.

#include "cli_args.h"
#include "trace/import_context.h"
#include "trace/slurm_fields.h"

#include <cctype>
#include <cmath>
#include <cstring>
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
        { "sacct-delimiter", "C", "sacct output written with --delimiter C, without a header (with one it is detected); tab: '\\t'" },
        { "log-year", "Y", "kube-scheduler klog lines carry no year (default: the file's modification year)" },
        { "max-stream", "SIZE", "the most read from a pipe, FIFO or stdin, e.g. 16G (default 4G)" },
    };
    return options;
}

/// "16G", "500M", "2T", "1048576": bytes (binary multiples, optional "iB"/"B"); 0 when not a size.
inline int64_t parseByteSize(const std::string& text)
{
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (...) {
        return 0;
    }
    std::string unit = text.substr(used);
    for (const char* suffix : { "iB", "B" })
        if (unit.size() > std::strlen(suffix) && unit.ends_with(suffix))
            unit.resize(unit.size() - std::strlen(suffix));
    static const std::string units = "KMGTP";
    double scale = 1;
    if (!unit.empty()) {
        const std::size_t u = unit.size() == 1 ? units.find(char(std::toupper(static_cast<unsigned char>(unit[0])))) : std::string::npos;
        if (u == std::string::npos)
            return 0;
        scale = std::pow(1024.0, double(u + 1));
    }
    const double bytes = v * scale;
    return std::isfinite(bytes) && bytes >= 1 && bytes < 9.2e18 ? int64_t(bytes) : 0;
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
    if (const auto d = args.value("sacct-delimiter")) {
        const std::string c = *d == "\\t" || *d == "tab" ? std::string("\t") : *d;
        if (c.size() != 1 || std::isalnum(static_cast<unsigned char>(c[0])) || c[0] == ' ' || c[0] == '"')
            return "--sacct-delimiter: '" + *d + "' is not one punctuation character or \\t";
        out.sacctDelimiter = c[0];
    }
    // kube-scheduler's klog lines carry no year.
    const long long year = args.integer("log-year", 0, error);
    if (!error.empty())
        return error;
    if (year != 0 && (year < 1970 || year > 9999))
        return "--log-year must be a year such as 2025";
    out.logYear = int(year);
    if (auto size = args.value("max-stream")) {
        const int64_t bytes = parseByteSize(*size);
        if (bytes <= 0)
            return "--max-stream takes a size such as 16G, 500M or 1T";
        out.stream.maxBytes = bytes;
    }
    // As tools that read stdin do: say why nothing happens (a FIFO without a writer); Ctrl+C stops.
    out.waitingForInput = [](const std::string& name) {
        std::fprintf(stderr, "schedlab-cli: waiting for input on %s\n", name.c_str());
        std::fflush(stderr);
    };
    return {};
}

} // namespace schedlab::cli
