#pragma once
/// Parsing of what users type for runs, shared by the CLI options and the workbench fields, so
/// both accept the same text with the same limits and the same messages.

#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/load_profile.h"
#include "trace/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::workflow {

/// At most this many seeds in one list (every seed is one run per policy).
constexpr std::size_t kMaxSeeds = 10'000;

/// "42", "42-51", "1,2,7", "1-3,9" (spaces allowed around items) -> seeds in the given order.
/// Errors: empty, malformed, reversed range, more than kMaxSeeds.
Result<std::vector<uint64_t>> parseSeeds(const std::string& text);

/// "4h", "90m", "90min", "3600s", "2d", "3600" -> seconds (> 0).
Result<double> parseDuration(const std::string& text);

/// A point or span of a run as a user gives it: timed runs, seconds or a duration ("14h");
/// fill runs, a pod number. Never negative.
Result<double> parseRunTime(const std::string& text, sim::RunMode mode);

/// Below this peak requested share of the cluster (GPUs when the workload asks for GPUs) a trace
/// opens in fill mode under "auto": its arrivals alone would leave the cluster nearly idle.
constexpr double kAutoFillBelowShare = 0.20;

/// The mode "auto" picks for a trace, and why (one line, for the status bar and the CLI).
struct ModeChoice {
    sim::RunMode mode = sim::RunMode::Timed;
    std::string reason;
};

/// "auto": fill when the workload asks for GPUs of a cluster that has them and either fewer than
/// half its jobs have a submit and a run time (a pod list) or the peak requested GPU share
/// (trace::loadProfile, 512 bins over the span) is below kAutoFillBelowShare; timed otherwise (no
/// GPUs asked for: the fill experiment measures GPU allocation).
ModeChoice chooseMode(const trace::Trace& trace);
/// The same from a profile already computed (trace::loadProfile with its default bins).
ModeChoice chooseMode(const trace::LoadProfile& profile);
inline sim::RunMode suggestedMode(const trace::Trace& trace) { return chooseMode(trace).mode; }

/// Seconds as the shortest text parseDuration() reads back exactly: "12d", "295h", "90m", "7s",
/// "0" (fractions of a second: "1.5s").
std::string formatDuration(double seconds);

/// The replay window a timed run gets unless the user picks one: the busiest stretch
/// (trace::busiestStretch of trace::defaultWindowLengthS), its ends rounded to whole hours from the
/// first submit, in trace seconds. None when that is the whole span (up to two days of trace).
std::optional<trace::TimeSpan> defaultReplayWindow(const trace::Trace& trace);
std::optional<trace::TimeSpan> defaultReplayWindow(const trace::LoadProfile& profile);

} // namespace schedlab::workflow
