#pragma once
/// GPU fragmentation as defined by FGD (ATC'23) and docs/metrics.md §3, and its CPU analogue.
///
/// Target workload M: tasks grouped into classes by request (cpu, mem, numGpu, gpuMilli, model
/// mask), the most popular classes kept until they cover 95 % of tasks, p_m = share among kept.
/// F_n(m) = all free gpu-milli of n when n cannot host m or m needs no GPU; otherwise the free
/// gpu-milli of the GPUs whose free share is below m's per-GPU demand. F_n(M) = sum p_m F_n(m).

#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <vector>

namespace schedlab::metrics {

struct TaskClass {
    trace::TaskRequest request;
    int64_t count = 0;
    double weight = 0; ///< p_m
};

/// The typical task classes of a trace (docs/metrics.md §3), most popular first.
struct TypicalWorkload {
    std::vector<TaskClass> classes;
    int64_t tasksCovered = 0;
    int64_t tasksTotal = 0;

    /// coverage in (0, 1]: keep classes until this share of tasks is covered.
    static TypicalWorkload fromTrace(const trace::Trace& trace, double coverage = 0.95);
    /// The target workload the FGD authors' simulator scores with (their GetTypicalPods): classes
    /// keyed by cpu and GPU request only (their pod resource has no memory, so memMiB is 0 in every
    /// class and never limits what a node can host), CPU-only pods included, 95 % coverage, equal
    /// counts ordered by the larger request first. Used by the fgd policy; the fragmentation metric
    /// keeps fromTrace (memory counted, docs/metrics.md §3).
    static TypicalWorkload fgdTargets(const trace::Trace& trace);
};

/// A node's free resources, enough to evaluate fragmentation (also for hypothetical states).
struct NodeView {
    int64_t freeCpu = 0;
    int64_t freeMem = 0;
    int numGpu = 0;
    int16_t model = -1;
    const int32_t* gpuFree = nullptr; ///< numGpu entries
};

NodeView viewOf(const cluster::ClusterState& cluster, int node);

/// F_n(m) in gpu-milli.
double nodeGpuFragForClass(const NodeView& n, const trace::TaskRequest& m);
/// F_n(M) in gpu-milli.
double nodeGpuFrag(const NodeView& n, const TypicalWorkload& w);
/// CPU analogue: free cpu of n weighted by the share of classes n cannot host.
double nodeCpuFrag(const NodeView& n, const TypicalWorkload& w);

/// The workload's classes grouped by their GPU request: what a node's GPUs allow is worked out once
/// per group, then each member only compares CPU and memory (openb default: 156 classes, 24
/// groups). Values are exact integers x covered tasks, so the same node state always gives the
/// same value.
class GroupedWorkload {
public:
    explicit GroupedWorkload(const TypicalWorkload& workload);
    /// F_n(M) and the CPU fragmentation of n, both x covered tasks.
    void counts(const NodeView& n, int64_t& gpu, int64_t& cpu) const;
    /// F_n(M) in gpu-milli (nodeGpuFrag up to rounding, in a fraction of the time).
    double gpuFrag(const NodeView& n) const;
    int64_t covered() const { return m_covered; }

private:
    struct Member {
        int64_t cpuMilli, memMiB, count;
    };
    struct Group {
        trace::TaskRequest gpuPart; ///< numGpu, gpuMilli, gpuModelMask of the members
        int64_t count = 0; ///< tasks of all members
        std::vector<Member> members;
    };
    std::vector<Group> m_groups;
    int64_t m_covered = 1;
};

/// Keeps F_n(M) per node and the cluster sums up to date; call nodeChanged() after every
/// allocate/release on that node. Nodes are re-evaluated when a value is next read (a tentative
/// placement taken back before then costs nothing): O(|M| x GPUs) per changed node, O(GPUs)
/// when it is back in its state at the last read or the one before. Not thread-safe, not even
/// for concurrent reads (a read updates the sums); one per replay.
class FragTracker {
public:
    FragTracker(const cluster::ClusterState& cluster, const TypicalWorkload& workload);
    void nodeChanged(int node);
    /// Cluster fragmentation amount F, gpu-milli.
    double gpuFragAmount() const;
    /// F / free gpu-milli; 0 when nothing is free.
    double gpuFragRate() const;
    double cpuFragAmount() const;
    double cpuFragRate() const;
    double nodeGpuFragValue(int node) const;
    const TypicalWorkload& workload() const { return m_workload; }

    /// A node state and its F_n(M) and CPU fragmentation.
    struct Cached {
        bool valid = false;
        int64_t freeCpu = 0, freeMem = 0;
        std::vector<int32_t> gpuFree;
        int64_t gpu = 0, cpu = 0; ///< x covered tasks
    };

private:
    void flush() const;
    void update(int node) const;
    const cluster::ClusterState& m_cluster;
    TypicalWorkload m_workload;
    GroupedWorkload m_grouped;
    // Per node and summed, as integers x covered tasks (the weights' common denominator), so the
    // sums are exact: the same state gives the same value whatever was tried and taken back.
    mutable std::vector<int64_t> m_gpu, m_cpu;
    /// Per node: the current state's values and the previous state's (nodes often go back).
    mutable std::vector<std::pair<Cached, Cached>> m_cache;
    __extension__ using Wide = __int128;
    mutable Wide m_gpuSum = 0, m_cpuSum = 0;
    mutable std::vector<int32_t> m_dirty; ///< nodes changed since the last read
    mutable std::vector<char> m_isDirty;
    int64_t m_covered = 1;
};

} // namespace schedlab::metrics
