#pragma once
// Private to the timed replay (see timed_replay_impl.h): EASY's reservation for a blocked head
// whose tasks are `count` copies of one request, kept up to date as units start and finish
// instead of being recomputed by releasing the running units on a copy of the cluster.
//
// First fit places `count` copies exactly when the copies each node can take add up to `count`
// (it fills nodes in order; a node it passed over takes no later copy). Releasing the running
// units in order of expected end, node n can take copies_n(j) after the first j of them; that is
// a step function changing only where one of n's own units is released. So each running unit
// carries a delta (the copies its release adds over its nodes), the copies after j releases are
// total0 + the sum of the first j deltas, and the reservation is the first unit where that sum
// reaches `count`. A start or finish changes the steps of its own nodes only: O(units on those
// nodes), not O(running units).

#include "cluster/cluster_state.h"

#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace schedlab::sim::detail {

class EasyReservation {
public:
    using Placements = std::vector<std::vector<cluster::Placement>>;
    using Ends = std::set<std::pair<double, int32_t>>;

    /// The reservation as the replay uses it: time, the running unit whose end makes the head fit
    /// (-1 when none does: time is +inf) and an order-free hash of the units released to reach it.
    struct Shadow {
        double timeS = std::numeric_limits<double>::infinity();
        int32_t unit = -1;
        uint64_t released = 0;
    };

    bool active() const { return m_head >= 0; }
    int32_t head() const { return m_head; }
    /// Stops tracking (no head blocked, or one this class does not model).
    void clear() { m_head = -1; }
    /// Tracks `head`, `count` copies of `q`, over the running units `ends` (expected end, unit)
    /// with their placements in `placements`, on the cluster `real`. O(running placements).
    void reset(int32_t head, const trace::TaskRequest& q, int32_t count, const cluster::ClusterState& real, const Ends& ends,
        const Placements& placements);
    /// A unit started (already allocated in `real`) or finished (already released).
    void started(int32_t unit, double endS, const cluster::ClusterState& real, const Placements& placements);
    void finished(int32_t unit, double endS, const cluster::ClusterState& real, const Placements& placements);

    /// The reservation now (releasing units strictly in order of expected end, ties by unit).
    Shadow shadow() const;

    /// Node n's state at the reservation of `shadow` (as computed by shadow() before any change)
    /// as the EASY pass sees it: `real`, plus the released prefix's placements on n, plus
    /// `alsoFree` (placements of units started in this pass that end before the reservation).
    /// Returns the copies of the head's request it takes with and without `extra` allocated.
    std::pair<int32_t, int32_t> copiesAtShadow(int n, const Shadow& shadow, const cluster::ClusterState& real,
        const Placements& placements, const std::vector<const std::vector<cluster::Placement>*>& alsoFree,
        const std::vector<cluster::Placement>& extra) const;
    /// The copies all nodes take at the reservation of `shadow` (before any change).
    int64_t copiesAt(const Shadow& shadow) const;
    int32_t count() const { return m_count; }

private:
    struct NodeUnit {
        double endS;
        int32_t unit;
        int32_t step; ///< copies node n gains when this unit is released (after those before it)
    };
    /// One node's free resources, scratch for counting copies.
    struct Scratch {
        int64_t cpu = 0, mem = 0;
        int32_t gpus = 0;
        int32_t gpu[cluster::kMaxGpusPerNode] = {};
        void load(const cluster::ClusterState& c, int n);
        void release(const cluster::Placement& p);
    };
    int32_t copies(const Scratch& s, int n) const;
    /// Recomputes node n's steps from `real` and propagates changed steps to the units' deltas.
    void recomputeNode(int n, const cluster::ClusterState& real, const Placements& placements);
    std::size_t orderIndex(double endS, int32_t unit) const;
    static void insertSorted(std::vector<NodeUnit>& v, double endS, int32_t unit);

    int32_t m_head = -1;
    trace::TaskRequest m_q;
    int32_t m_count = 0;
    std::vector<int16_t> m_model; ///< by node: can host the request at all (model, GPU count)
    int64_t m_total0 = 0; ///< copies all nodes take now
    std::vector<int32_t> m_nodeCopies; ///< by node: copies it takes now
    std::vector<std::vector<NodeUnit>> m_onNode; ///< by node: running units on it, in order of end
    // The running units in order of (expected end, unit), as parallel arrays.
    std::vector<double> m_endS;
    std::vector<int32_t> m_unit, m_delta;
    mutable bool m_shadowKnown = false; ///< m_shadow holds shadow() (until the next change)
    mutable Shadow m_shadow;
};

} // namespace schedlab::sim::detail
