#pragma once
/// kube-scheduler's resource score plugins as schedlab models them (integer arithmetic, docs/policies.md §3),
/// each on 0..100 before its weight: NodeResourcesFit with the LeastAllocated strategy (cpu and
/// memory, weight 1 each) and NodeResourcesBalancedAllocation (1 - the standard deviation of the
/// requested fractions). "Requested" includes the task being placed. k8s-default's score is their
/// sum (weights 1), which kube-scheduler logs at verbosity 10 as
/// "Plugin scored node for pod" / "Calculated node's final score for pod".

#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <cstdint>

namespace schedlab::policy {

struct KubernetesPluginScores {
    int64_t leastAllocated = 0; ///< NodeResourcesFit (LeastAllocated)
    int64_t balancedAllocation = 0; ///< NodeResourcesBalancedAllocation
    int64_t mostAllocated = 0; ///< NodeResourcesFit (MostAllocated)
};

/// The plugins' scores of placing `r` on node n of `c` (n should fit r).
KubernetesPluginScores kubernetesPluginScores(const cluster::ClusterState& c, int n, const trace::TaskRequest& r);

/// kube-scheduler's plugin names, as its logs spell them.
inline constexpr const char* kNodeResourcesFit = "NodeResourcesFit";
inline constexpr const char* kNodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation";

} // namespace schedlab::policy
