#pragma once
/// Features of one (task, candidate node) pair for the learned scorer (docs/rl.md §1). Every feature
/// is dimensionless and normalised to about [0, 1] (the fragmentation delta to [-1, 1]) so one
/// shared network can score any node of any cluster:
///
///  #  name               meaning (before = node state now, after = with the task placed)
///  0  free_cpu           free cpu / node cpu capacity, before
///  1  free_mem           free memory / node memory capacity, before
///  2  free_gpu           free gpu-milli / (GPUs x 1000), before; 0 for a node without GPUs
///  3  req_cpu            requested cpu / node cpu capacity
///  4  req_mem            requested memory / node memory capacity
///  5  req_gpu            requested gpu-milli / (GPUs x 1000); 0 without GPUs
///  6  frag_delta         FGD: (F_n(M) after - before) in GPUs / 8, clipped to [-1, 1] (lower is better)
///  7  balance_after      1 - |cpu share - gpu share| after (cpu vs memory on nodes without GPUs)
///  8  idle               1 when nothing runs on the node
///  9  dominant_after     largest of the allocated cpu / memory / GPU fractions after
/// 10  heuristic_score    the preselection heuristic's score / 100 (BestFit by default)
/// 11  queue_len          log(1 + queued units) / log(1 + 1000), clipped to 1 (0 in fill runs)
/// 12  head_wait          w / (w + target) of the queue head's wait w (0 in fill runs)
/// 13  task_wait          w / (w + target) of this task's own wait
/// 14  free_gpus_after    fully free GPUs after / GPUs (0 without GPUs)
/// 15  cluster_alloc      allocated gpu-milli / cluster gpu-milli (cpu when there are no GPUs)
///
/// The wait row (learned_policy.h: waitRow) has 0 for the node features but 10-13 and 15; when
/// it stands for skipping (LearnedOptions::skip) it also has in 0 log(1 + k) / log(1 + 1000),
/// clipped to 1, of the k units behind this one in the queue that request less time, in 1
/// r / (r + target) of its requested run time r, in 2 whether k > 0 and in 3 whether the unit
/// fits a node now; the row of keeping the unit's turn is the same with kTurnMarker in 10.

#include "metrics/fragmentation.h"
#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <array>
#include <optional>
#include <string>

namespace schedlab::rl {

inline constexpr int kFeatureCount = 16;
using FeatureRow = std::array<float, kFeatureCount>;

/// Names of the features, in order (for docs, CSV export and the inspector).
const std::array<const char*, kFeatureCount>& featureNames();

/// Context of the decision shared by all candidates.
struct DecisionContext {
    int32_t queued = 0;
    double headWaitS = 0;
    double taskWaitS = 0;
    double waitTargetS = 600; ///< scale of the wait features (the reward's p99 target)
    int32_t shorterQueued = -1; ///< skipping offered: units behind it in the queue requesting less time; else -1
    double requestedS = 0; ///< skipping offered: the unit's requested run time
};

/// Computes feature rows. Holds the typical workload used for the fragmentation delta.
class FeatureExtractor {
public:
    explicit FeatureExtractor(metrics::TypicalWorkload workload);
    /// Features of placing `r` on feasible node n using `gpuMask` (from the heuristic).
    FeatureRow compute(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, uint64_t gpuMask,
        double heuristicScore, const DecisionContext& ctx) const;
    const metrics::TypicalWorkload& workload() const { return m_workload; }

private:
    metrics::TypicalWorkload m_workload;
    /// The classes grouped by GPU request when their counts make the weights (as fromTrace
    /// builds them): the same F_n(M) in a fraction of the time. Else nodeGpuFrag on the weights.
    std::optional<metrics::GroupedWorkload> m_grouped;
    double gpuFrag(const metrics::NodeView& v) const;
};

} // namespace schedlab::rl
