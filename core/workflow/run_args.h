#pragma once
/// Parsing of what users type for runs, shared by the CLI options and the workbench fields, so
/// both accept the same text with the same limits and the same messages.

#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/trace.h"

#include <cstdint>
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

/// The mode a trace suits when the user picks "auto": timed when at least half its jobs have a
/// submit and a run time, else fill (a pod list such as openb).
sim::RunMode suggestedMode(const trace::Trace& trace);

} // namespace schedlab::workflow
