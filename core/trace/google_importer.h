#pragma once
/// Google cluster trace 2011 (clusterdata-2011-2): machine_events, job_events, task_events CSVs
/// (usually .csv.gz, no header). Events are folded into jobs of independent tasks with their
/// logged machine, start and end. Capacities and requests stay normalised to the largest machine:
/// 1.0 is stored as 1e9 in cpuMilli / memMiB (ResourceUnit::NormalizedNano), exactly, without
/// going through floating point.

#include "base/result.h"

#include <cstdint>
#include <memory>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// Accumulates the files of one Google trace, then builds the Trace. Feed machine_events first
/// (so task placements can be resolved), then job_events, then task_events part files in order.
class GoogleImporter {
public:
    GoogleImporter();
    ~GoogleImporter();
    Status addMachineEvents(LineReader& reader, ImportContext& ctx);
    Status addJobEvents(LineReader& reader, ImportContext& ctx);
    Status addTaskEvents(LineReader& reader, ImportContext& ctx);
    /// Moves nodes, jobs and tasks into `trace` (which must be empty of them).
    Status finish(Trace& trace, ImportContext& ctx);

    /// Scale of a normalised 1.0 (the largest machine).
    static constexpr int kDecimals = 9;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// Google event types (task and job events).
enum class GoogleEvent : int {
    Submit = 0,
    Schedule = 1,
    Evict = 2,
    Fail = 3,
    Finish = 4,
    Kill = 5,
    Lost = 6,
    UpdatePending = 7,
    UpdateRunning = 8,
};

} // namespace schedlab::trace
