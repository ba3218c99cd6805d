#pragma once
/// The messages of kube-scheduler's pod events, old and new wordings:
/// `Scheduled`: "Successfully assigned ns/pod to node" (since 1.14; "pod to node" before);
/// `FailedScheduling`: "0/3 nodes are available: 1 node(s) had untolerated taint {...}, 2
/// Insufficient cpu. preemption: ..." (1.17+), "No nodes are available that match all of the
/// predicates: Insufficient cpu (1), NodeNotReady (2)." (1.8-era), or a sentence without node
/// counts ("pod has unbound immediate PersistentVolumeClaims").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

/// The node a Scheduled event names; nullopt when the message is not of that form.
std::optional<std::string> scheduledNode(std::string_view message);

struct FailureReason {
    std::string reason; ///< "Insufficient cpu", "node(s) had untolerated taint {...}"
    int32_t nodes = -1; ///< nodes that gave it; -1 = the message does not say
};

struct FailedScheduling {
    int32_t totalNodes = -1; ///< "0/N nodes": N; -1 = not said
    std::vector<FailureReason> reasons; ///< never empty (the whole sentence when it has no counts)
};

/// The reasons of a FailedScheduling message (the preemption part is left out).
FailedScheduling parseFailedScheduling(std::string_view message);

} // namespace schedlab::trace
