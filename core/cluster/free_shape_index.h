#pragma once
/// Nodes grouped by their free shape: the capacities and free resources that fits() and the
/// capacity-based scores read (cpu, memory, GPU count and model, total free gpu-milli, the freest
/// GPU, fully free GPUs). Nodes of one shape are alike for feasibility and for any score computed
/// from those values, so a policy can score one node per shape instead of every node. Members are
/// kept as a bit set in node order, so ties can still be broken by node index (see ScoringPolicy).

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace schedlab::cluster {

class ClusterState;

/// Everything fits() and the shape-based scores read of one node.
struct FreeShape {
    int64_t capCpu = 0, capMem = 0, freeCpu = 0, freeMem = 0, freeGpuMilli = 0;
    int32_t numGpu = 0, maxGpuFree = 0, fullyFreeGpus = 0;
    int16_t gpuModel = -1;
    bool operator==(const FreeShape&) const = default;
};

class FreeShapeIndex {
public:
    /// Most shapes kept; with more (every node different, e.g. openb's fractional requests) the
    /// index gives up (valid() false) and policies scan every node, as grouping would not pay.
    static constexpr int kMaxShapes = 64;

    /// Groups every node of `c`; valid() false when there are more than kMaxShapes shapes.
    void build(const ClusterState& c);
    /// Moves node n to the group of its current shape. Call after every change of node n.
    void update(const ClusterState& c, int n);
    /// False when the index was never built or gave up (too many shapes).
    bool valid() const { return m_valid; }
    /// Forgets everything (valid() false).
    void clear();

    /// Slots of the non-empty groups, in no particular order.
    const std::vector<int32_t>& groups() const { return m_active; }
    /// Any node of group g (its lowest-numbered one).
    int32_t representative(int32_t g) const { return m_rep[std::size_t(g)]; }
    /// Nodes in group g.
    int32_t size(int32_t g) const { return m_size[std::size_t(g)]; }
    /// Bit set of group g's nodes: bit i of word i / 64 = node i; words() words.
    const uint64_t* members(int32_t g) const { return m_bits.data() + std::size_t(g) * std::size_t(m_words); }
    int words() const { return m_words; }

private:
    struct ShapeHash {
        std::size_t operator()(const FreeShape& s) const;
    };
    static FreeShape shapeOf(const ClusterState& c, int n);
    int32_t slotFor(const FreeShape& s);
    void add(int32_t g, int n);
    void remove(int32_t g, int n);

    bool m_valid = false;
    int m_words = 0;
    std::unordered_map<FreeShape, int32_t, ShapeHash> m_slotOf;
    std::vector<FreeShape> m_shape; ///< per slot
    std::vector<int32_t> m_size, m_rep, m_activePos; ///< per slot; m_activePos -1 = free slot
    std::vector<int32_t> m_active, m_freeSlots;
    std::vector<uint64_t> m_bits; ///< kMaxShapes x m_words
    std::vector<int32_t> m_groupOf; ///< per node
};

} // namespace schedlab::cluster
