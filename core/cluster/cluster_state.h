#pragma once
/// Free and allocated resources of every node and every GPU during a replay. Pure state, no policy:
/// feasibility checks, allocate and release. A node has at most 64 GPUs (a bit mask per placement).

#include "free_shape_index.h"
#include "trace/trace.h"

#include <cstdint>
#include <vector>

namespace schedlab::cluster {

/// Per-GPU capacity in gpu-milli.
inline constexpr int32_t kGpuMilli = 1000;
/// Largest GPU count per node the simulator supports.
inline constexpr int kMaxGpusPerNode = 64;

/// Where and how much of one task sits on a node.
struct Placement {
    int32_t node = -1; ///< node index; -1 = not placed
    int64_t cpuMilli = 0;
    int64_t memMiB = 0;
    int32_t gpuMilliPerGpu = 0; ///< taken from each GPU in gpuMask
    uint64_t gpuMask = 0; ///< bit i = GPU i of the node
    bool operator==(const Placement&) const = default;
};

/// Why a node cannot host a request now: the first check of ClusterState::fits() that fails,
/// static reasons (the node could never host it) before momentary ones.
enum class Misfit : int8_t {
    Fits = 0,
    GpuModel, ///< the request is limited to GPU models this node does not have
    TooFewGpus, ///< the node has fewer GPUs than the request asks for
    TooSmall, ///< cpu or memory capacity below the request
    Cpu, ///< not enough free cpu now
    Memory, ///< not enough free memory now
    GpuShare, ///< no GPU with enough free share (GPU memory) now
    FreeGpus, ///< not enough fully free GPUs now
};
inline constexpr int kMisfitKinds = 8;
/// "fits", "GPU model mismatch", "too few GPUs", "node too small", "insufficient cpu",
/// "insufficient memory", "insufficient GPU memory (share)", "too few free GPUs".
const char* misfitName(Misfit m);

class ClusterState {
public:
    /// Copies capacities from the trace's nodes. Nodes with more than 64 GPUs are refused by
    /// Simulation before this is built (see validateCluster()).
    explicit ClusterState(const trace::Trace& trace);

    int nodeCount() const { return int(m_capCpu.size()); }
    int64_t capCpu(int n) const { return m_capCpu[std::size_t(n)]; }
    int64_t capMem(int n) const { return m_capMem[std::size_t(n)]; }
    int64_t freeCpu(int n) const { return m_freeCpu[std::size_t(n)]; }
    int64_t freeMem(int n) const { return m_freeMem[std::size_t(n)]; }
    int numGpu(int n) const { return m_numGpu[std::size_t(n)]; }
    int16_t gpuModel(int n) const { return m_model[std::size_t(n)]; }
    /// Free gpu-milli of GPU g of node n.
    int32_t gpuFree(int n, int g) const { return m_gpuFree[std::size_t(m_firstGpu[std::size_t(n)] + g)]; }
    const int32_t* gpuFreeArray(int n) const { return m_gpuFree.data() + m_firstGpu[std::size_t(n)]; }
    /// Sum of free gpu-milli on node n.
    int64_t freeGpuMilli(int n) const { return m_freeGpuTotal[std::size_t(n)]; }
    /// GPUs of node n with nothing allocated.
    int fullyFreeGpus(int n) const { return m_fullGpus[std::size_t(n)]; }
    /// Free gpu-milli of node n's freest GPU (0 without GPUs).
    int32_t maxGpuFree(int n) const { return m_maxGpuFree[std::size_t(n)]; }
    /// Largest of node n's allocated cpu, memory and GPU fractions, 0..1 (heatmap, inspector).
    double dominantShare(int n) const;
    /// Anything allocated on node n.
    bool isActive(int n) const { return m_tasksOn[std::size_t(n)] > 0; }
    /// Changes each time node n is allocated or released (for score caches).
    uint64_t version(int n) const { return m_version[std::size_t(n)]; }

    /// Can node n host `r` right now (cpu, memory, model constraint, GPUs)? O(1); inline, as
    /// the replays call it millions of times.
    bool fits(int n, const trace::TaskRequest& r) const
    {
        if (r.cpuMilli > freeCpu(n) || r.memMiB > freeMem(n))
            return false;
        if (!r.needsGpu())
            return true;
        if (!modelAllowed(r, gpuModel(n)) || r.numGpu > numGpu(n))
            return false;
        return r.isGpuShare() ? maxGpuFree(n) >= r.gpuMilli : fullyFreeGpus(n) >= r.numGpu;
    }
    /// The request allows GPU model `model` (-1 = none).
    static bool modelAllowed(const trace::TaskRequest& r, int16_t model)
    {
        return r.gpuModelMask == 0 || (model >= 0 && (r.gpuModelMask >> model) & 1u);
    }
    /// Why node n cannot host `r` now; Misfit::Fits exactly when fits(n, r).
    Misfit misfit(int n, const trace::TaskRequest& r) const;
    /// Could node n host `r` if it were empty?
    bool fitsEmpty(int n, const trace::TaskRequest& r) const;
    /// GPUs chosen by "best fit" (docs/policies.md §4): for a GPU share, the fitting GPU with the least free
    /// share; for whole GPUs, the lowest-numbered fully free ones. 0 when it does not fit.
    uint64_t bestFitGpus(int n, const trace::TaskRequest& r) const;
    /// Placement of `r` on node n using the given GPUs.
    Placement makePlacement(int n, const trace::TaskRequest& r, uint64_t gpuMask) const;

    void allocate(const Placement& p);
    void release(const Placement& p);

    // Cluster totals (allocated and capacity), in the trace's units.
    int64_t allocCpu() const { return m_allocCpu; }
    int64_t allocMem() const { return m_allocMem; }
    int64_t allocGpuMilli() const { return m_allocGpu; }
    int64_t totalCpu() const { return m_totalCpu; }
    int64_t totalMem() const { return m_totalMem; }
    int64_t totalGpuMilli() const { return m_totalGpu; }
    int activeNodes() const { return m_activeNodes; }

    /// Order-independent hash of the whole state (used to check deterministic replay).
    uint64_t stateHash() const;

    /// Nodes grouped by free shape (free_shape_index.h), or null while there are too many shapes
    /// for grouping to pay. Built on the first call, then kept up to date by allocate() / release()
    /// (a state nobody asks never pays for it; a copy starts without it); after giving up it is
    /// tried again once nodeCount() more changes have passed. Not thread-safe: the first call
    /// writes (call it from the thread that owns the state, as the replays do).
    const FreeShapeIndex* freeShapes() const;

private:
    std::vector<int64_t> m_capCpu, m_capMem, m_freeCpu, m_freeMem, m_freeGpuTotal;
    std::vector<int32_t> m_numGpu, m_firstGpu, m_tasksOn;
    std::vector<int16_t> m_model;
    std::vector<int32_t> m_gpuFree;
    std::vector<uint64_t> m_version;
    std::vector<int32_t> m_maxGpuFree, m_fullGpus; ///< per node, kept by gpusChanged()
    void gpusChanged(int n);
    int64_t m_allocCpu = 0, m_allocMem = 0, m_allocGpu = 0;
    int64_t m_totalCpu = 0, m_totalMem = 0, m_totalGpu = 0;
    int m_activeNodes = 0;
    void shapeChanged(int n);
    uint64_t m_changes = 0; ///< allocate() and release() calls so far
    /// The free-shape index and when to try it again. A copy of the state starts without one (it
    /// is built when that copy is asked): snapshots and the EASY shadow states never pay for it.
    struct Shapes {
        FreeShapeIndex index;
        uint64_t retryAt = 0; ///< m_changes at which a given-up index is built again
        Shapes() = default;
        Shapes(const Shapes&) { }
        Shapes& operator=(const Shapes&)
        {
            index.clear();
            retryAt = 0;
            return *this;
        }
    };
    mutable Shapes m_shapes;
};

} // namespace schedlab::cluster
