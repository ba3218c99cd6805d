#pragma once
/// GPU fragmentation as defined by FGD (ATC'23) and DESIGN §3, and its CPU analogue.
///
/// Target workload M: tasks grouped into classes by request (cpu, mem, numGpu, gpuMilli, model
/// mask), the most popular classes kept until they cover 95 % of tasks, p_m = share among kept.
/// F_n(m) = all free gpu-milli of n when n cannot host m or m needs no GPU; otherwise the free
/// gpu-milli of the GPUs whose free share is below m's per-GPU demand. F_n(M) = sum p_m F_n(m).

#include "sim/cluster_state.h"
#include "trace/trace.h"

#include <vector>

namespace schedlab::metrics {

struct TaskClass {
    trace::TaskRequest request;
    int64_t count = 0;
    double weight = 0; ///< p_m
};

/// The typical task classes of a trace (DESIGN §3), most popular first.
struct TypicalWorkload {
    std::vector<TaskClass> classes;
    int64_t tasksCovered = 0;
    int64_t tasksTotal = 0;

    /// coverage in (0, 1]: keep classes until this share of tasks is covered.
    static TypicalWorkload fromTrace(const trace::Trace& trace, double coverage = 0.95);
};

/// A node's free resources, enough to evaluate fragmentation (also for hypothetical states).
struct NodeView {
    int64_t freeCpu = 0;
    int64_t freeMem = 0;
    int numGpu = 0;
    int16_t model = -1;
    const int32_t* gpuFree = nullptr; ///< numGpu entries
};

NodeView viewOf(const sim::ClusterState& cluster, int node);

/// F_n(m) in gpu-milli.
double nodeGpuFragForClass(const NodeView& n, const trace::TaskRequest& m);
/// F_n(M) in gpu-milli.
double nodeGpuFrag(const NodeView& n, const TypicalWorkload& w);
/// CPU analogue: free cpu of n weighted by the share of classes n cannot host.
double nodeCpuFrag(const NodeView& n, const TypicalWorkload& w);

/// Keeps F_n(M) per node and the cluster sums up to date; call nodeChanged() after every
/// allocate/release on that node. O(|M| x GPUs) per update.
class FragTracker {
public:
    FragTracker(const sim::ClusterState& cluster, const TypicalWorkload& workload);
    void nodeChanged(int node);
    /// Cluster fragmentation amount F, gpu-milli.
    double gpuFragAmount() const { return m_gpuSum; }
    /// F / free gpu-milli; 0 when nothing is free.
    double gpuFragRate() const;
    double cpuFragAmount() const { return m_cpuSum; }
    double cpuFragRate() const;
    double nodeGpuFragValue(int node) const { return m_gpu[std::size_t(node)]; }
    const TypicalWorkload& workload() const { return m_workload; }

private:
    const sim::ClusterState& m_cluster;
    TypicalWorkload m_workload;
    std::vector<double> m_gpu, m_cpu;
    double m_gpuSum = 0, m_cpuSum = 0;
};

} // namespace schedlab::metrics
