#pragma once
/// Everything needed to replay a run again exactly: mode, policy and the options that steer its
/// decisions. Written into a project run's options JSON and read back from it.

#include "base/result.h"
#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "store/project.h"

#include <string>

namespace schedlab::incident {

struct RunSpec {
    bool fill = false;
    std::string policy; ///< registry name or model spec ("learned:F.slq")
    sim::FillOptions fillOptions; ///< when fill
    sim::TimedOptions timedOptions; ///< when timed
    uint64_t seed() const { return fill ? fillOptions.seed : timedOptions.seed; }
};

/// The options JSON stored with a run (ratio, tie-break; timed: window, tick, SLA, power-off).
std::string optionsJson(const sim::FillOptions& o);
std::string optionsJson(const sim::TimedOptions& o);

/// The spec of a stored run (mode, policy, queue, backfill, seed and its options JSON).
/// Missing keys take the defaults of the build that wrote older projects.
Result<RunSpec> specFromRow(const store::RunRow& row);

} // namespace schedlab::incident
