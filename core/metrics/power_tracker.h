#pragma once
/// Cluster power and energy (docs/metrics.md §6): node power = idle + (peak - idle) x cpu utilisation; with
/// powerOffIdle a node with nothing allocated draws 0. Nodes without a power model draw 0 and the
/// energy is unknown (-1) when no node has one. Integrated piecewise-constant between events.

#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <vector>

namespace schedlab::metrics {

class PowerTracker {
public:
    PowerTracker(const trace::Trace& trace, const cluster::ClusterState& cluster, bool powerOffIdle);
    void nodeChanged(int node);
    /// Accumulates energy up to nowS (call before changing the state at nowS).
    void advance(double nowS);
    double powerW() const { return m_total; }
    /// kWh so far; -1 when no node has a power model.
    double energyKWh() const { return m_hasModel ? m_joules / 3.6e6 : -1.0; }

private:
    double nodePower(int node) const;
    const trace::Trace& m_trace;
    const cluster::ClusterState& m_cluster;
    bool m_offIdle;
    bool m_hasModel = false;
    std::vector<double> m_node;
    double m_total = 0, m_joules = 0, m_lastS = 0;
    bool m_started = false;
};

} // namespace schedlab::metrics
