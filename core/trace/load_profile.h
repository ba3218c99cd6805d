#pragma once
/// What a trace asks of its cluster over time: the requested load (every job counted from its
/// submit for its run time, as if it started at once) against the capacity, in bins over the
/// whole span. The workbench's overview strip draws it, "auto" mode reads its peak, and the
/// default replay window is its busiest stretch.

#include "trace/trace.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::trace {

struct LoadProfile {
    /// "GPU" when gpuIsPrimary(), else "CPU".
    std::string resource;
    std::size_t tasks = 0, gpuTasks = 0; ///< all tasks, and those asking for a GPU
    double capacity = 0; ///< GPUs or cores (Google: fractions of the largest machine) of all nodes
    double startS = 0, endS = 0; ///< trace seconds: first submit, last end (submit + run)
    double binS = 0; ///< (endS - startS) / bins; 0 when no job has times
    std::vector<double> requested; ///< mean requested GPUs or cores in each bin
    /// Submits in each bin (a job, or a non-gang task at its own submit) and the latest of them
    /// (-1 when none); empty = not counted.
    std::vector<std::size_t> arrivals;
    std::vector<double> lastSubmit;
    std::size_t jobs = 0, jobsWithTimes = 0; ///< jobs, and those with a submit and a run time

    bool empty() const { return requested.empty(); }
    double spanS() const { return endS - startS; }
    /// The largest bin's requested share of the capacity (0 with no capacity or no bins).
    double peakShare() const;
};

/// Share of a trace's tasks that must ask for GPUs for GPUs to be what the trace is about.
inline constexpr double kGpuPrimaryTaskShare = 0.01;
/// True when the cluster has GPUs and at least 1 % of the tasks ask for one: a CPU cluster with a
/// GPU node or two and a handful of GPU jobs (a Slurm log) is about cores. The one rule for the
/// load profile, the auto mode and the GUI's default metrics.
bool gpuIsPrimary(const Trace& trace);

/// The profile in `bins` bins (>= 1). Non-gang tasks count from their own submit for their own run.
LoadProfile loadProfile(const Trace& trace, std::size_t bins = 512);

/// A stretch of trace time, [fromS, toS) in trace seconds.
struct TimeSpan {
    double fromS = 0, toS = 0;
    double lengthS() const { return toS - fromS; }
};

/// The default length of a replay window: the whole span up to two days, else a tenth of it
/// within [1 day, 7 days].
double defaultWindowLengthS(const LoadProfile& profile);

/// The stretch of `lengthS` (whole bins, at least one) with the most requested load (the earliest
/// of equals) among those something is submitted in, its start taken back to a multiple of
/// `roundS` from the profile's start (as the caller will round it; 0 = as is): after the last
/// submit the load of jobs still running can be the highest, but a replay of it has nothing to
/// schedule. The whole span when `lengthS` covers it.
TimeSpan busiestStretch(const LoadProfile& profile, double lengthS, double roundS = 0);

/// Unix seconds of trace time 0 when the trace says (SWF `UnixStartTime`, or `epoch.unixS` set
/// by an importer of timestamped logs); none otherwise.
std::optional<double> epochOf(const Trace& trace);

} // namespace schedlab::trace
