#pragma once
/// A run spec as a project stores it: the mode, policy, queue, backfill and seed columns of a run
/// row, and the options JSON holding the rest (ratio and tie rule; timed: window, tick, SLA,
/// power-off). The one place that writes and reads that encoding.

#include "project.h"

#include "base/result.h"
#include "sim/run_spec.h"

#include <string>

namespace schedlab::store {

/// The options JSON of a spec (compact, keys in a fixed order).
std::string optionsJson(const sim::RunSpec& spec);

/// The row a spec is stored as (trace id as given).
RunInfo runInfoOf(const sim::RunSpec& spec, int64_t traceId);

/// The spec of a stored run. Missing keys take the defaults of the build that wrote older
/// projects. Errors name the run id and the bad field.
Result<sim::RunSpec> specFromRow(const RunRow& row);

} // namespace schedlab::store
