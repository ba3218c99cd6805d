#include "easy_reservation.h"

#include <algorithm>
#include <bit>

namespace schedlab::sim::detail {

void EasyReservation::Scratch::load(const cluster::ClusterState& c, int n)
{
    cpu = c.freeCpu(n);
    mem = c.freeMem(n);
    gpus = c.numGpu(n);
    const int32_t* g = c.gpuFreeArray(n);
    std::copy(g, g + gpus, gpu);
}

void EasyReservation::Scratch::release(const cluster::Placement& p)
{
    cpu += p.cpuMilli;
    mem += p.memMiB;
    for (uint64_t m = p.gpuMask; m; m &= m - 1)
        gpu[std::countr_zero(m)] += p.gpuMilliPerGpu;
}

int32_t EasyReservation::copies(const Scratch& s, int n) const
{
    // What placing copies one by one with cluster::ClusterState::fits / bestFitGpus until one does not fit
    // gives: each copy takes its cpu, memory and GPUs; a GPU share goes to any GPU with room, so
    // the GPUs take sum(floor(free / share)); whole GPUs take fully free ones.
    if (!m_model[std::size_t(n)])
        return 0;
    int64_t most = m_count;
    if (m_q.cpuMilli > 0)
        most = std::min(most, s.cpu / m_q.cpuMilli);
    if (m_q.memMiB > 0)
        most = std::min(most, s.mem / m_q.memMiB);
    if (m_q.needsGpu()) {
        int64_t byGpu = 0;
        if (m_q.isGpuShare()) {
            for (int g = 0; g < s.gpus; ++g)
                byGpu += s.gpu[g] / m_q.gpuMilli;
        } else {
            for (int g = 0; g < s.gpus; ++g)
                byGpu += s.gpu[g] == cluster::kGpuMilli;
            byGpu /= m_q.numGpu;
        }
        most = std::min(most, byGpu);
    }
    return int32_t(std::max<int64_t>(most, 0));
}

void EasyReservation::reset(int32_t head, const trace::TaskRequest& q, int32_t count, const cluster::ClusterState& real,
    const Ends& ends, const Placements& placements)
{
    m_head = head;
    m_shadowKnown = false;
    m_q = q;
    m_count = count;
    const int nodes = real.nodeCount();
    m_model.assign(std::size_t(nodes), 0);
    for (int n = 0; n < nodes; ++n)
        m_model[std::size_t(n)] = real.fitsEmpty(n, q) ? 1 : 0;
    m_onNode.resize(std::size_t(nodes));
    for (auto& v : m_onNode)
        v.clear();
    m_endS.clear();
    m_unit.clear();
    m_delta.clear();
    for (const auto& [endS, unit] : ends) { // in order already
        m_endS.push_back(endS);
        m_unit.push_back(unit);
        m_delta.push_back(0);
        for (const cluster::Placement& p : placements[std::size_t(unit)]) {
            auto& v = m_onNode[std::size_t(p.node)];
            if (v.empty() || v.back().unit != unit) // units come in order: one entry per node
                v.push_back(NodeUnit { endS, unit, 0 });
        }
    }
    m_nodeCopies.assign(std::size_t(nodes), 0);
    m_total0 = 0;
    for (int n = 0; n < nodes; ++n)
        recomputeNode(n, real, placements);
}

std::size_t EasyReservation::orderIndex(double endS, int32_t unit) const
{
    // Binary search on (end, unit) over the parallel arrays.
    std::size_t lo = 0, hi = m_endS.size();
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (std::pair(m_endS[mid], m_unit[mid]) < std::pair(endS, unit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void EasyReservation::insertSorted(std::vector<NodeUnit>& v, double endS, int32_t unit)
{
    const auto at = std::lower_bound(v.begin(), v.end(), std::pair(endS, unit),
        [](const NodeUnit& a, const std::pair<double, int32_t>& b) { return std::pair(a.endS, a.unit) < b; });
    if (at == v.end() || at->unit != unit)
        v.insert(at, NodeUnit { endS, unit, 0 });
}

void EasyReservation::recomputeNode(int n, const cluster::ClusterState& real, const Placements& placements)
{
    Scratch s;
    s.load(real, n);
    int32_t prev = copies(s, n);
    m_total0 += prev - m_nodeCopies[std::size_t(n)];
    m_nodeCopies[std::size_t(n)] = prev;
    for (NodeUnit& nu : m_onNode[std::size_t(n)]) {
        int32_t step = 0;
        if (prev < m_count) { // at the cap nothing more counts
            for (const cluster::Placement& p : placements[std::size_t(nu.unit)])
                if (p.node == n)
                    s.release(p);
            const int32_t cur = copies(s, n);
            step = cur - prev;
            prev = cur;
        }
        if (step != nu.step) {
            m_delta[orderIndex(nu.endS, nu.unit)] += step - nu.step;
            nu.step = step;
        }
    }
}

void EasyReservation::started(int32_t unit, double endS, const cluster::ClusterState& real, const Placements& placements)
{
    m_shadowKnown = false;
    const std::size_t at = orderIndex(endS, unit);
    m_endS.insert(m_endS.begin() + std::ptrdiff_t(at), endS);
    m_unit.insert(m_unit.begin() + std::ptrdiff_t(at), unit);
    m_delta.insert(m_delta.begin() + std::ptrdiff_t(at), 0);
    for (const cluster::Placement& p : placements[std::size_t(unit)])
        insertSorted(m_onNode[std::size_t(p.node)], endS, unit);
    int last = -1;
    for (const cluster::Placement& p : placements[std::size_t(unit)])
        if (p.node != last) {
            recomputeNode(p.node, real, placements);
            last = p.node;
        }
}

void EasyReservation::finished(int32_t unit, double endS, const cluster::ClusterState& real, const Placements& placements)
{
    // Called after the replay released the unit, before its placements are dropped.
    const std::size_t at = orderIndex(endS, unit);
    if (at >= m_unit.size() || m_unit[at] != unit)
        return;
    m_shadowKnown = false;
    m_endS.erase(m_endS.begin() + std::ptrdiff_t(at));
    m_unit.erase(m_unit.begin() + std::ptrdiff_t(at));
    m_delta.erase(m_delta.begin() + std::ptrdiff_t(at));
    for (const cluster::Placement& p : placements[std::size_t(unit)]) {
        auto& v = m_onNode[std::size_t(p.node)];
        const auto it = std::find_if(v.begin(), v.end(), [&](const NodeUnit& x) { return x.unit == unit; });
        if (it != v.end())
            v.erase(it);
    }
    int last = -1;
    for (const cluster::Placement& p : placements[std::size_t(unit)])
        if (p.node != last) {
            recomputeNode(p.node, real, placements);
            last = p.node;
        }
}

EasyReservation::Shadow EasyReservation::shadow() const
{
    if (m_shadowKnown)
        return m_shadow;
    m_shadowKnown = true;
    Shadow& s = m_shadow;
    s = Shadow {};
    int64_t total = m_total0;
    for (std::size_t i = 0; i < m_unit.size(); ++i) {
        total += m_delta[i];
        s.released += (uint64_t(m_unit[i]) + 1) * 0x9E3779B97F4A7C15ull;
        if (total >= m_count) {
            s.timeS = m_endS[i];
            s.unit = m_unit[i];
            return s;
        }
    }
    s.timeS = std::numeric_limits<double>::infinity();
    s.unit = -1;
    return s;
}

int64_t EasyReservation::copiesAt(const Shadow& shadow) const
{
    int64_t total = m_total0;
    if (shadow.unit < 0)
        return total; // unused: an infinite reservation lets every unit backfill
    const std::size_t last = orderIndex(shadow.timeS, shadow.unit);
    for (std::size_t i = 0; i <= last && i < m_delta.size(); ++i)
        total += m_delta[i];
    return total;
}

std::pair<int32_t, int32_t> EasyReservation::copiesAtShadow(int n, const Shadow& shadow, const cluster::ClusterState& real,
    const Placements& placements, const std::vector<const std::vector<cluster::Placement>*>& alsoFree,
    const std::vector<cluster::Placement>& extra) const
{
    Scratch s;
    s.load(real, n);
    for (const NodeUnit& nu : m_onNode[std::size_t(n)]) {
        if (std::pair(nu.endS, nu.unit) > std::pair(shadow.timeS, shadow.unit))
            break;
        for (const cluster::Placement& p : placements[std::size_t(nu.unit)])
            if (p.node == n)
                s.release(p);
    }
    for (const std::vector<cluster::Placement>* ps : alsoFree)
        for (const cluster::Placement& p : *ps)
            if (p.node == n)
                s.release(p);
    const int32_t with = copies(s, n);
    for (const cluster::Placement& p : extra)
        if (p.node == n)
            s.release(p);
    return { with, copies(s, n) };
}

} // namespace schedlab::sim::detail
