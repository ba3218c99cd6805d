#pragma once
// `schedlab --bench-step`: the cost of one step through a run's decisions in the Incidents tab.

#include <string>
#include <vector>

namespace schedlab::app {

/// Opens `files`, runs `policy`, indexes the run and times `steps` Alt+Down steps; prints figures.
int benchStep(const std::vector<std::string>& files, const std::string& policy, int steps);

} // namespace schedlab::app
