#include "cluster_state.h"

#include <algorithm>
#include <bit>

namespace schedlab::cluster {

ClusterState::ClusterState(const trace::Trace& trace)
{
    const std::size_t n = trace.nodes.size();
    m_capCpu.resize(n);
    m_capMem.resize(n);
    m_numGpu.resize(n);
    m_firstGpu.resize(n);
    m_model.resize(n);
    int32_t gpus = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const trace::Node& node = trace.nodes[i];
        m_capCpu[i] = node.cpuMilli;
        m_capMem[i] = node.memMiB;
        m_numGpu[i] = std::min(node.numGpu, kMaxGpusPerNode);
        m_model[i] = node.gpuModel;
        m_firstGpu[i] = gpus;
        gpus += m_numGpu[i];
        m_totalCpu += node.cpuMilli;
        m_totalMem += node.memMiB;
        m_totalGpu += int64_t(m_numGpu[i]) * kGpuMilli;
    }
    m_freeCpu = m_capCpu;
    m_freeMem = m_capMem;
    m_gpuFree.assign(std::size_t(gpus), kGpuMilli);
    m_freeGpuTotal.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_freeGpuTotal[i] = int64_t(m_numGpu[i]) * kGpuMilli;
    m_tasksOn.assign(n, 0);
    m_version.assign(n, 0);
    m_maxGpuFree.assign(n, 0);
    m_fullGpus.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        gpusChanged(int(i));
}

void ClusterState::gpusChanged(int n)
{
    const int32_t* g = gpuFreeArray(n);
    int32_t most = 0, full = 0;
    for (int i = 0; i < numGpu(n); ++i) {
        most = std::max(most, g[i]);
        full += g[i] == kGpuMilli;
    }
    m_maxGpuFree[std::size_t(n)] = most;
    m_fullGpus[std::size_t(n)] = full;
}

double ClusterState::dominantShare(int n) const
{
    double share = 0;
    if (capCpu(n) > 0)
        share = std::max(share, 1.0 - double(freeCpu(n)) / double(capCpu(n)));
    if (capMem(n) > 0)
        share = std::max(share, 1.0 - double(freeMem(n)) / double(capMem(n)));
    if (numGpu(n) > 0)
        share = std::max(share, 1.0 - double(freeGpuMilli(n)) / double(int64_t(numGpu(n)) * kGpuMilli));
    return share;
}


const char* misfitName(Misfit m)
{
    switch (m) {
    case Misfit::Fits: return "fits";
    case Misfit::GpuModel: return "GPU model mismatch";
    case Misfit::TooFewGpus: return "too few GPUs";
    case Misfit::TooSmall: return "node too small";
    case Misfit::Cpu: return "insufficient cpu";
    case Misfit::Memory: return "insufficient memory";
    case Misfit::GpuShare: return "insufficient GPU memory (share)";
    case Misfit::FreeGpus: return "too few free GPUs";
    }
    return "?";
}

Misfit ClusterState::misfit(int n, const trace::TaskRequest& r) const
{
    if (r.needsGpu()) {
        if (!modelAllowed(r, gpuModel(n)))
            return Misfit::GpuModel;
        if (r.numGpu > numGpu(n))
            return Misfit::TooFewGpus;
    }
    if (r.cpuMilli > capCpu(n) || r.memMiB > capMem(n))
        return Misfit::TooSmall;
    if (r.cpuMilli > freeCpu(n))
        return Misfit::Cpu;
    if (r.memMiB > freeMem(n))
        return Misfit::Memory;
    if (!r.needsGpu())
        return Misfit::Fits;
    if (r.isGpuShare()) {
        const int32_t* g = gpuFreeArray(n);
        for (int i = 0; i < numGpu(n); ++i)
            if (g[i] >= r.gpuMilli)
                return Misfit::Fits;
        return Misfit::GpuShare;
    }
    return fullyFreeGpus(n) >= r.numGpu ? Misfit::Fits : Misfit::FreeGpus;
}

bool ClusterState::fitsEmpty(int n, const trace::TaskRequest& r) const
{
    if (r.cpuMilli > capCpu(n) || r.memMiB > capMem(n))
        return false;
    if (!r.needsGpu())
        return true;
    return modelAllowed(r, gpuModel(n)) && r.numGpu <= numGpu(n);
}

uint64_t ClusterState::bestFitGpus(int n, const trace::TaskRequest& r) const
{
    if (!r.needsGpu())
        return 0;
    const int32_t* g = gpuFreeArray(n);
    if (r.isGpuShare()) {
        int best = -1;
        for (int i = 0; i < numGpu(n); ++i)
            if (g[i] >= r.gpuMilli && (best < 0 || g[i] < g[best]))
                best = i;
        return best < 0 ? 0 : (uint64_t(1) << best);
    }
    uint64_t mask = 0;
    int need = r.numGpu;
    for (int i = 0; i < numGpu(n) && need > 0; ++i)
        if (g[i] == kGpuMilli) {
            mask |= uint64_t(1) << i;
            --need;
        }
    return need == 0 ? mask : 0;
}

Placement ClusterState::makePlacement(int n, const trace::TaskRequest& r, uint64_t gpuMask) const
{
    Placement p;
    p.node = n;
    p.cpuMilli = r.cpuMilli;
    p.memMiB = r.memMiB;
    if (r.needsGpu()) {
        p.gpuMask = gpuMask;
        p.gpuMilliPerGpu = r.isGpuShare() ? r.gpuMilli : kGpuMilli;
    }
    return p;
}

void ClusterState::allocate(const Placement& p)
{
    const auto n = std::size_t(p.node);
    m_freeCpu[n] -= p.cpuMilli;
    m_freeMem[n] -= p.memMiB;
    m_allocCpu += p.cpuMilli;
    m_allocMem += p.memMiB;
    for (uint64_t m = p.gpuMask; m; m &= m - 1) {
        const int g = std::countr_zero(m);
        m_gpuFree[std::size_t(m_firstGpu[n] + g)] -= p.gpuMilliPerGpu;
        m_freeGpuTotal[n] -= p.gpuMilliPerGpu;
        m_allocGpu += p.gpuMilliPerGpu;
    }
    if (p.gpuMask)
        gpusChanged(p.node);
    if (m_tasksOn[n]++ == 0)
        ++m_activeNodes;
    ++m_version[n];
    shapeChanged(p.node);
}

void ClusterState::release(const Placement& p)
{
    const auto n = std::size_t(p.node);
    m_freeCpu[n] += p.cpuMilli;
    m_freeMem[n] += p.memMiB;
    m_allocCpu -= p.cpuMilli;
    m_allocMem -= p.memMiB;
    for (uint64_t m = p.gpuMask; m; m &= m - 1) {
        const int g = std::countr_zero(m);
        m_gpuFree[std::size_t(m_firstGpu[n] + g)] += p.gpuMilliPerGpu;
        m_freeGpuTotal[n] += p.gpuMilliPerGpu;
        m_allocGpu -= p.gpuMilliPerGpu;
    }
    if (p.gpuMask)
        gpusChanged(p.node);
    if (--m_tasksOn[n] == 0)
        --m_activeNodes;
    ++m_version[n];
    shapeChanged(p.node);
}

void ClusterState::shapeChanged(int n)
{
    ++m_changes;
    if (!m_shapes.index.valid())
        return;
    m_shapes.index.update(*this, n);
    if (!m_shapes.index.valid()) // too many shapes: try again later
        m_shapes.retryAt = m_changes + uint64_t(nodeCount());
}

const FreeShapeIndex* ClusterState::freeShapes() const
{
    if (m_shapes.index.valid())
        return &m_shapes.index;
    if (m_changes < m_shapes.retryAt)
        return nullptr;
    m_shapes.index.build(*this);
    if (m_shapes.index.valid())
        return &m_shapes.index;
    m_shapes.retryAt = m_changes + uint64_t(nodeCount());
    return nullptr;
}

uint64_t ClusterState::stateHash() const
{
    // FNV-1a over free resources in node order: equal states give equal hashes.
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xFF;
            h *= 1099511628211ull;
        }
    };
    for (std::size_t i = 0; i < m_freeCpu.size(); ++i) {
        mix(uint64_t(m_freeCpu[i]));
        mix(uint64_t(m_freeMem[i]));
    }
    for (int32_t g : m_gpuFree)
        mix(uint64_t(uint32_t(g)));
    return h;
}

} // namespace schedlab::cluster
