#include "node_heat.h"

#include <algorithm>
#include <cmath>

namespace schedlab::sim {

NodeHeatRecorder::NodeHeatRecorder(int nodes, int maxColumns)
    : m_maxColumns(std::max(2, maxColumns & ~1))
{
    m_heat.nodes = nodes;
}

uint8_t NodeHeatRecorder::nodeUtilPct(const cluster::ClusterState& c, int n)
{
    return uint8_t(std::lround(std::clamp(c.dominantShare(n), 0.0, 1.0) * 100.0));
}

void NodeHeatRecorder::offer(double x, const cluster::ClusterState& cluster)
{
    if (m_calls++ % m_stride != 0)
        return;
    if (m_heat.columns() == m_maxColumns)
        halve();
    m_heat.x.push_back(x);
    for (int n = 0; n < m_heat.nodes; ++n)
        m_heat.util.push_back(nodeUtilPct(cluster, n));
}

void NodeHeatRecorder::halve()
{
    // Column k becomes the mean of columns 2k and 2k+1, positioned at the earlier one.
    const std::size_t nodes = std::size_t(m_heat.nodes);
    const int half = m_heat.columns() / 2;
    for (int k = 0; k < half; ++k) {
        m_heat.x[std::size_t(k)] = m_heat.x[std::size_t(2 * k)];
        for (std::size_t n = 0; n < nodes; ++n) {
            const int a = m_heat.util[std::size_t(2 * k) * nodes + n];
            const int b = m_heat.util[std::size_t(2 * k + 1) * nodes + n];
            m_heat.util[std::size_t(k) * nodes + n] = uint8_t((a + b + 1) / 2);
        }
    }
    m_heat.x.resize(std::size_t(half));
    m_heat.util.resize(std::size_t(half) * nodes);
    // Kept columns now sit at call indices 0, 2s, 4s, ... (s = old stride), and the call being
    // offered is maxColumns x s, a multiple of 2s since maxColumns is even: keep counting calls.
    m_stride *= 2;
}

} // namespace schedlab::sim
