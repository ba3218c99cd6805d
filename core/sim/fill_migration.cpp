#include "fill_migration.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

namespace schedlab::sim::detail {

bool fitsWithout(const cluster::ClusterState& c, const cluster::Placement& p, const trace::TaskRequest& r)
{
    const int n = p.node;
    if (r.cpuMilli > c.freeCpu(n) + p.cpuMilli || r.memMiB > c.freeMem(n) + p.memMiB)
        return false;
    if (!r.needsGpu())
        return true;
    const int32_t* g = c.gpuFreeArray(n);
    int full = 0;
    for (int i = 0; i < c.numGpu(n); ++i) {
        const int32_t free = g[i] + (((p.gpuMask >> i) & 1u) ? p.gpuMilliPerGpu : 0);
        if (r.isGpuShare() && free >= r.gpuMilli)
            return true;
        full += free == cluster::kGpuMilli;
    }
    return !r.isGpuShare() && full >= r.numGpu;
}

void PodMover::placed(const cluster::Placement& p, const trace::TaskRequest& r)
{
    m_onNode[std::size_t(p.node)].push_back(m_pods.size());
    m_pods.push_back({ p, r });
    Most& m = m_most[std::size_t(p.node)];
    m.cpu = std::max(m.cpu, p.cpuMilli);
    m.mem = std::max(m.mem, p.memMiB);
    m.share = std::max(m.share, p.gpuMask ? p.gpuMilliPerGpu : 0);
    m.gpus = std::max(m.gpus, std::popcount(p.gpuMask));
}

void PodMover::recomputeMost(int node)
{
    Most m;
    for (std::size_t k : m_onNode[std::size_t(node)]) {
        const cluster::Placement& p = m_pods[k].p;
        m.cpu = std::max(m.cpu, p.cpuMilli);
        m.mem = std::max(m.mem, p.memMiB);
        m.share = std::max(m.share, p.gpuMask ? p.gpuMilliPerGpu : 0);
        m.gpus = std::max(m.gpus, std::popcount(p.gpuMask));
    }
    m_most[std::size_t(node)] = m;
}

std::optional<PodMover::Move> PodMover::find(const cluster::ClusterState& c, const trace::TaskRequest& r) const
{
    // The most any node has free: a pod asking for more fits on no other node (a cheap test that
    // spares the scan of the nodes for most pods once the cluster fills up).
    int64_t maxCpu = 0, maxMem = 0;
    int32_t maxShare = 0;
    int maxWhole = 0;
    for (int n = 0; n < c.nodeCount(); ++n) {
        maxCpu = std::max(maxCpu, c.freeCpu(n));
        maxMem = std::max(maxMem, c.freeMem(n));
        maxShare = std::max(maxShare, c.maxGpuFree(n));
        maxWhole = std::max(maxWhole, c.fullyFreeGpus(n));
    }
    auto mayFitElsewhere = [&](const trace::TaskRequest& q) {
        if (q.cpuMilli > maxCpu || q.memMiB > maxMem)
            return false;
        return !q.needsGpu() || (q.isGpuShare() ? q.gpuMilli <= maxShare : q.numGpu <= maxWhole);
    };
    // Where a pod of request q would go: the two best nodes for q (the best may be its own), found
    // once per request.
    struct Dest {
        int best = -1, second = -1;
    };
    std::map<std::tuple<int64_t, int64_t, int32_t, int32_t, uint32_t>, Dest> dests;
    auto destOf = [&](const trace::TaskRequest& q) {
        const auto key = std::tuple(q.cpuMilli, q.memMiB, q.numGpu, q.gpuMilli, q.gpuModelMask);
        auto it = dests.find(key);
        if (it != dests.end())
            return it->second;
        Dest d;
        std::tuple<int64_t, int64_t> best { INT64_MAX, INT64_MAX }, second = best;
        for (int m = 0; m < c.nodeCount(); ++m) {
            if (!c.fits(m, q))
                continue;
            const std::tuple<int64_t, int64_t> left = fillKey(c, m, q);
            if (left < best) {
                second = best;
                d.second = d.best;
                best = left;
                d.best = m;
            } else if (left < second) {
                second = left;
                d.second = m;
            }
        }
        return dests.emplace(key, d).first->second;
    };
    // The smallest pod whose removal lets r fit where it is and that has somewhere to go.
    auto size = [&](std::size_t k) {
        const trace::TaskRequest& q = m_pods[k].r;
        return std::tuple(q.totalGpuMilli(), q.cpuMilli, q.memMiB, k);
    };
    std::optional<Move> found;
    for (int n = 0; n < c.nodeCount(); ++n) {
        if (!c.fitsEmpty(n, r))
            continue;
        const Most& most = m_most[std::size_t(n)]; // no pod here can free more than this
        if (r.cpuMilli > c.freeCpu(n) + most.cpu || r.memMiB > c.freeMem(n) + most.mem
            || (r.needsGpu()
                && (r.isGpuShare() ? r.gpuMilli > c.maxGpuFree(n) + most.share : r.numGpu > c.fullyFreeGpus(n) + most.gpus)))
            continue;
        for (std::size_t k : m_onNode[std::size_t(n)]) {
            const Pod& pod = m_pods[k];
            if ((found && size(k) >= size(found->pod)) || !mayFitElsewhere(pod.r) || !fitsWithout(c, pod.p, r))
                continue;
            const Dest d = destOf(pod.r);
            const int to = d.best == pod.p.node ? d.second : d.best;
            if (to >= 0)
                found = Move { k, to };
        }
    }
    if (found)
        return found;
    return std::nullopt;
}

void PodMover::moved(std::size_t pod, const cluster::Placement& to)
{
    const int fromNode = m_pods[pod].p.node;
    auto& from = m_onNode[std::size_t(fromNode)];
    from.erase(std::find(from.begin(), from.end(), pod));
    m_pods[pod].p = to;
    m_onNode[std::size_t(to.node)].push_back(pod);
    recomputeMost(fromNode);
    recomputeMost(to.node);
}

} // namespace schedlab::sim::detail
