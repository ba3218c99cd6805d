#pragma once
/// Where to look first in a run: windows where the p99 wait is above a limit or jumps, bursts of
/// failed placements, SLA violations piling up, GPU fragmentation spikes. Found from the run's
/// series (timed) or fill curve and its decision log; each points at the decision to inspect.

#include "run_index.h"

#include <string>
#include <vector>

namespace schedlab::incident {

enum class IncidentKind { P99Above, P99Jump, FailureBurst, SlaViolations, FragSpike };

/// Thresholds. Windows are the run's p99 window (timed) or 5 points of arrived workload (fill).
struct IncidentOptions {
    double p99AboveS = -1; ///< p99 wait above this is an incident; -1 = the run's default SLA
    double p99JumpFactor = 3; ///< p99 at least this many times its value one window earlier ...
    double p99JumpMinS = 300; ///< ... and at least this many seconds
    int minFailures = 3; ///< failed decisions in a burst (fill: at most 5 decisions apart; timed: one window)
    int minSlaViolations = 5; ///< jobs over their SLA starting in one window
    double fragSpikePts = 5; ///< GPU fragmentation rate rising by this many percentage points within a window
    std::size_t maxIncidents = 500; ///< the most severe kept per kind
};

struct Incident {
    IncidentKind kind = IncidentKind::P99Above;
    double startX = 0, endX = 0; ///< timed: seconds; fill: pod number
    double peak = 0; ///< p99 s, failures, violations or rate points, by kind
    int64_t decision = -1; ///< the decision to inspect first
    std::string text; ///< one line, e.g. "p99 wait 2.1 h (limit 1 h) for 3.0 h"
};

const char* incidentKindName(IncidentKind k);

/// Incidents of an indexed run, ordered by start.
std::vector<Incident> findIncidents(const RunIndex& index, const IncidentOptions& options = {});

} // namespace schedlab::incident
