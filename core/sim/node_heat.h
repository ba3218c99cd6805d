#pragma once
/// Per-node utilization over time for the cluster heatmap: nodes x columns of 0..100 %.
///
/// A node's utilization is its dominant share: the largest of its allocated cpu, memory and GPU
/// fractions (a node full on GPUs but idle on cpu counts as full). The recorder keeps at most
/// `maxColumns` columns whatever the run length: when full it averages neighbouring pairs and
/// samples half as often, so memory stays nodes x maxColumns bytes (1523 nodes x 512 = 0.8 MB).
/// The recorder observes a run's samples (replay_observer.h: sampled; Recording::heat adds it).

#include "replay_observer.h"

#include "cluster/cluster_state.h"

#include <cstdint>
#include <vector>

namespace schedlab::sim {

struct NodeHeat {
    int32_t nodes = 0;
    std::vector<double> x; ///< column positions: time in s (timed) or arrived workload % (fill)
    std::vector<uint8_t> util; ///< column-major: util[col * nodes + node], percent 0..100
    int columns() const { return int(x.size()); }
    uint8_t at(int column, int node) const { return util[std::size_t(column) * std::size_t(nodes) + std::size_t(node)]; }
};

class NodeHeatRecorder : public ReplayObserver {
public:
    /// `maxColumns` must be even and >= 2.
    explicit NodeHeatRecorder(int nodes, int maxColumns = 512);
    /// Offers a sample at position x; it is kept every `stride`-th call.
    void offer(double x, const cluster::ClusterState& cluster);
    /// Each sample of the run is offered.
    void sampled(double x, const cluster::ClusterState& cluster) override { offer(x, cluster); }
    NodeHeat take() { return std::move(m_heat); }
    /// Dominant share of node n in percent, rounded.
    static uint8_t nodeUtilPct(const cluster::ClusterState& cluster, int n);

private:
    void halve();
    NodeHeat m_heat;
    int m_maxColumns;
    int64_t m_stride = 1;
    int64_t m_calls = 0;
};

} // namespace schedlab::sim
