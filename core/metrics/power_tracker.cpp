#include "power_tracker.h"

namespace schedlab::metrics {

PowerTracker::PowerTracker(const trace::Trace& trace, const cluster::ClusterState& cluster, bool powerOffIdle)
    : m_trace(trace)
    , m_cluster(cluster)
    , m_offIdle(powerOffIdle)
    , m_node(trace.nodes.size(), 0)
{
    for (const trace::Node& n : trace.nodes)
        m_hasModel = m_hasModel || n.power.idleW >= 0;
    for (int n = 0; n < cluster.nodeCount(); ++n)
        nodeChanged(n);
}

double PowerTracker::nodePower(int n) const
{
    const trace::PowerModel& pm = m_trace.nodes[std::size_t(n)].power;
    if (pm.idleW < 0)
        return 0;
    if (m_offIdle && !m_cluster.isActive(n))
        return 0;
    const int64_t cap = m_cluster.capCpu(n);
    const double util = cap > 0 ? double(cap - m_cluster.freeCpu(n)) / double(cap) : 0.0;
    return pm.idleW + (pm.peakW - pm.idleW) * util;
}

void PowerTracker::nodeChanged(int node)
{
    const double p = nodePower(node);
    m_total += p - m_node[std::size_t(node)];
    m_node[std::size_t(node)] = p;
}

void PowerTracker::advance(double nowS)
{
    if (m_started && nowS > m_lastS)
        m_joules += m_total * (nowS - m_lastS);
    m_lastS = nowS;
    m_started = true;
}

} // namespace schedlab::metrics
