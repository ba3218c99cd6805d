// EASY backfilling for the timed replay: the blocked head's reservation (kept, or found on a copy
// of the cluster), which units may start beside it, and the signature bookkeeping that keeps a
// pass from trying what cannot fit (see timed_replay_impl.h and the module README).

#include "timed_replay_impl.h"

#include <array>

namespace schedlab::sim::detail {

bool Replay::fitsFirstFit(cluster::ClusterState& state, const Unit& u, std::vector<char>* nodesUsed) const
{
    std::vector<cluster::Placement> placed;
    bool ok = true;
    for (int32_t k = 0; k < u.count && ok; ++k) {
        const trace::TaskRequest& r = taskOf(u, k).request;
        ok = false;
        for (int n = 0; n < state.nodeCount(); ++n)
            if (state.fits(n, r)) {
                placed.push_back(state.makePlacement(n, r, state.bestFitGpus(n, r)));
                state.allocate(placed.back());
                if (nodesUsed)
                    (*nodesUsed)[std::size_t(n)] = 1;
                ok = true;
                break;
            }
    }
    for (const cluster::Placement& p : placed)
        state.release(p);
    return ok;
}

int32_t Replay::copiesThatFit(cluster::ClusterState& state, int n, const trace::TaskRequest& r, int32_t most)
{
    if (most == 1 || !state.fits(n, r))
        return state.fits(n, r) ? 1 : 0;
    std::vector<cluster::Placement> taken;
    while (int32_t(taken.size()) < most && state.fits(n, r)) {
        taken.push_back(state.makePlacement(n, r, state.bestFitGpus(n, r)));
        state.allocate(taken.back());
    }
    for (std::size_t k = taken.size(); k-- > 0;)
        state.release(taken[k]);
    return int32_t(taken.size());
}

bool Replay::fitsBesideHead(cluster::ClusterState& atShadow, const std::vector<cluster::Placement>& placed, const Unit& head,
    std::vector<char>& headNodes) const
{
    std::size_t taken = 0;
    bool fitsThere = true;
    for (const cluster::Placement& p : placed) {
        const trace::TaskRequest probe { p.cpuMilli, p.memMiB, 0, 0, 0 };
        fitsThere = atShadow.fits(p.node, probe);
        for (uint64_t m = p.gpuMask; m && fitsThere; m &= m - 1)
            fitsThere = atShadow.gpuFree(p.node, std::countr_zero(m)) >= p.gpuMilliPerGpu;
        if (!fitsThere)
            break;
        atShadow.allocate(p);
        ++taken;
    }
    bool allowed = fitsThere;
    if (allowed) {
        if (headNodes.empty()) {
            // The head fits at the reservation (that is what made it one); note where.
            headNodes.assign(std::size_t(atShadow.nodeCount()), 0);
            std::vector<char> scratch(headNodes.size(), 0);
            for (std::size_t k = 0; k < taken; ++k) // without this unit's tasks
                atShadow.release(placed[taken - 1 - k]);
            fitsFirstFit(atShadow, head, &headNodes);
            for (std::size_t k = 0; k < taken; ++k)
                atShadow.allocate(placed[k]);
        }
        // First fit scans nodes in order: taking from nodes its placement does not use changes
        // neither where each of its tasks goes nor whether it fits (nodes it passed over fit
        // even less). Otherwise try it.
        bool touches = false;
        for (const cluster::Placement& p : placed)
            touches = touches || headNodes[std::size_t(p.node)];
        allowed = !touches || fitsFirstFit(atShadow, head);
    }
    if (allowed) {
        headNodes.clear(); // the reservation's cluster changed
        return true;
    }
    for (std::size_t k = taken; k-- > 0;)
        atShadow.release(placed[k]);
    return false;
}

bool Replay::identicalTasks(const Unit& u) const
{
    const trace::TaskRequest& q = taskOf(u, 0).request;
    for (int32_t k = 1; k < u.count; ++k)
        if (!(taskOf(u, k).request == q))
            return false;
    return true;
}

double Replay::shadowTime(int32_t head, double t, cluster::ClusterState& atShadow, uint64_t& released, int32_t& shadowUnit) const
{
    released = 0;
    shadowUnit = -1;
    // Release running units in order of their expected end (start + requested time) on a copy of
    // the cluster until the head job fits: that end is its reservation (EASY).
    // In order of max(t, expected end), ties by unit: the ends at or before t all become t and go
    // first by unit; the rest is m_runningEnds' own order (kept as units start and finish).
    std::vector<int32_t> overdue;
    auto later = m_runningEnds.begin();
    for (; later != m_runningEnds.end() && later->first <= t; ++later)
        overdue.push_back(later->second);
    std::sort(overdue.begin(), overdue.end());
    // Calls `fits` after releasing each unit in that order; the end of the first for which it is
    // true, kInf if none.
    auto firstEndWhere = [&](auto fits) {
        for (int32_t r : overdue)
            if (releaseForShadow(atShadow, r, released), fits())
                return shadowUnit = r, t;
        for (auto it = later; it != m_runningEnds.end(); ++it)
            if (releaseForShadow(atShadow, it->second, released), fits())
                return shadowUnit = it->second, it->first;
        return kInf;
    };
    const Unit& h = m_units[std::size_t(head)];
    const trace::TaskRequest& q = taskOf(h, 0).request;
    bool identical = true;
    for (int32_t k = 1; k < h.count && identical; ++k)
        identical = taskOf(h, k).request == q;
    if (identical) {
        // Copies of one request: first fit fills the nodes in order (a node it passed over fits
        // no later copy either), so it places all `count` exactly when the copies each node can
        // take add up to count. Releases only add room, and only on the released units' nodes.
        std::vector<int32_t> copies(std::size_t(atShadow.nodeCount()), 0);
        int64_t total = 0;
        auto recount = [&](int n) {
            total -= copies[std::size_t(n)];
            copies[std::size_t(n)] = copiesThatFit(atShadow, n, q, h.count);
            total += copies[std::size_t(n)];
        };
        for (int n = 0; n < atShadow.nodeCount() && total < h.count; ++n)
            recount(n);
        m_shadowReleased.clear();
        return firstEndWhere([&] {
            for (int n : m_shadowReleased)
                if (total < h.count)
                    recount(n);
            m_shadowReleased.clear();
            return total >= h.count;
        });
    }
    int64_t needCpu = 0, needMem = 0, needGpu = 0;
    for (int32_t k = 0; k < h.count; ++k) {
        const trace::TaskRequest& r = taskOf(h, k).request;
        needCpu += r.cpuMilli;
        needMem += r.memMiB;
        needGpu += r.needsGpu() ? r.totalGpuMilli() : 0;
    }
    return firstEndWhere([&] {
        m_shadowReleased.clear();
        // Not enough free in the whole cluster: first fit cannot succeed (and changes nothing).
        if (needCpu > atShadow.totalCpu() - atShadow.allocCpu() || needMem > atShadow.totalMem() - atShadow.allocMem()
            || needGpu > atShadow.totalGpuMilli() - atShadow.allocGpuMilli())
            return false;
        return fitsFirstFit(atShadow, h);
    });
}

void Replay::releaseForShadow(cluster::ClusterState& atShadow, int32_t r, uint64_t& released) const
{
    for (const cluster::Placement& p : m_placements[std::size_t(r)]) {
        atShadow.release(p);
        m_shadowReleased.push_back(p.node);
    }
    released += (uint64_t(r) + 1) * 0x9E3779B97F4A7C15ull;
}

void Replay::releasedRoom(uint64_t from, FreeMax& f) const
{
    f = FreeMax { 0, 0, 0, 0, 0 };
    auto take = [&](int n) {
        f.cpu = std::max(f.cpu, m_cluster.freeCpu(n));
        f.mem = std::max(f.mem, m_cluster.freeMem(n));
        f.wholeGpus = std::max(f.wholeGpus, m_cluster.fullyFreeGpus(n));
        f.gpuShare = std::max(f.gpuShare, m_cluster.maxGpuFree(n));
    };
    const std::size_t start = m_epochLogPos[std::size_t(from)];
    const int nodes = m_cluster.nodeCount();
    if (m_releasedNodes.size() - start > std::size_t(nodes)) { // more releases than nodes: each node once
        for (int n = 0; n < nodes; ++n)
            if (const std::size_t last = m_lastReleasePos[std::size_t(n)]; last != SIZE_MAX && last >= start)
                take(n);
        return;
    }
    for (std::size_t i = start; i < m_releasedNodes.size(); ++i)
        take(m_releasedNodes[i]);
}

uint8_t Replay::walkClassOf(const trace::TaskRequest& r)
{
    if (!r.needsGpu())
        return 0;
    if (r.isGpuShare())
        return uint8_t(1 + r.gpuMilli / 100); // 1..10: at least (class - 1) x 100 milli
    return uint8_t(10 + std::min(r.numGpu, 17)); // 11..27: at least class - 10 whole GPUs
}

bool Replay::walkClassMayFit(uint8_t c, const FreeMax& room)
{
    if (c == 0)
        return true;
    if (c <= 10)
        return (c - 1) * 100 <= room.gpuShare;
    return c - 10 <= room.wholeGpus;
}


bool Replay::mayFitSomewhere(const trace::TaskRequest& r) const
{
    FreeMax& f = m_freeMax;
    if (f.stamp != m_stateStamp) {
        f = FreeMax { m_stateStamp, 0, 0, 0, 0 };
        for (int n = 0; n < m_cluster.nodeCount(); ++n) {
            f.cpu = std::max(f.cpu, m_cluster.freeCpu(n));
            f.mem = std::max(f.mem, m_cluster.freeMem(n));
            f.wholeGpus = std::max(f.wholeGpus, m_cluster.fullyFreeGpus(n));
            f.gpuShare = std::max(f.gpuShare, m_cluster.maxGpuFree(n));
        }
    }
    if (r.cpuMilli > f.cpu || r.memMiB > f.mem)
        return false;
    if (!r.needsGpu())
        return true;
    return r.isGpuShare() ? r.gpuMilli <= f.gpuShare : r.numGpu <= f.wholeGpus;
}

bool Replay::fitsOnNodesReleasedSince(uint64_t epoch, const trace::TaskRequest& r) const
{
    const std::size_t from = m_epochLogPos[std::size_t(epoch)];
    const int nodes = m_cluster.nodeCount();
    if (m_releasedNodes.size() - from > std::size_t(nodes)) { // more releases than nodes: each node once
        for (int n = 0; n < nodes; ++n) {
            const std::size_t last = m_lastReleasePos[std::size_t(n)];
            if (last != SIZE_MAX && last >= from && m_cluster.fits(n, r))
                return true;
        }
        return false;
    }
    for (std::size_t i = from; i < m_releasedNodes.size(); ++i)
        if (m_cluster.fits(m_releasedNodes[i], r))
            return true;
    return false;
}

} // namespace schedlab::sim::detail
