#pragma once
/// Small strong id types, so a node index is never mixed up with a job index.

#include <compare>
#include <cstdint>

namespace schedlab::trace {

/// Index of a node in Trace::nodes; -1 = none / unknown.
struct NodeId {
    int32_t value = -1;
    bool valid() const { return value >= 0; }
    auto operator<=>(const NodeId&) const = default;
};

/// The job id as written in the source trace (SWF job number, Google job id, openb row index).
struct JobId {
    int64_t value = -1;
    auto operator<=>(const JobId&) const = default;
};

} // namespace schedlab::trace
