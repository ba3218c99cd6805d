#include "free_shape_index.h"

#include "cluster_state.h"

#include <bit>

namespace schedlab::cluster {

std::size_t FreeShapeIndex::ShapeHash::operator()(const FreeShape& s) const
{
    uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
    mix(uint64_t(s.capCpu));
    mix(uint64_t(s.capMem));
    mix(uint64_t(s.freeCpu));
    mix(uint64_t(s.freeMem));
    mix(uint64_t(s.freeGpuMilli));
    mix(uint64_t(uint32_t(s.numGpu)) << 32 | uint32_t(s.maxGpuFree));
    mix(uint64_t(uint32_t(s.fullyFreeGpus)) << 16 | uint16_t(s.gpuModel));
    return std::size_t(h);
}

FreeShape FreeShapeIndex::shapeOf(const ClusterState& c, int n)
{
    FreeShape s;
    s.capCpu = c.capCpu(n);
    s.capMem = c.capMem(n);
    s.freeCpu = c.freeCpu(n);
    s.freeMem = c.freeMem(n);
    s.freeGpuMilli = c.freeGpuMilli(n);
    s.numGpu = c.numGpu(n);
    s.maxGpuFree = c.maxGpuFree(n);
    s.fullyFreeGpus = c.fullyFreeGpus(n);
    s.gpuModel = c.gpuModel(n);
    return s;
}

void FreeShapeIndex::clear()
{
    m_valid = false;
    m_slotOf.clear();
    m_shape.clear();
    m_size.clear();
    m_rep.clear();
    m_activePos.clear();
    m_active.clear();
    m_freeSlots.clear();
    m_bits.clear();
    m_groupOf.clear();
}

void FreeShapeIndex::build(const ClusterState& c)
{
    clear();
    m_words = (c.nodeCount() + 63) / 64;
    m_groupOf.assign(std::size_t(c.nodeCount()), -1);
    for (int n = 0; n < c.nodeCount(); ++n) {
        const int32_t g = slotFor(shapeOf(c, n));
        if (g < 0) {
            clear();
            return;
        }
        add(g, n);
    }
    m_valid = true;
}

int32_t FreeShapeIndex::slotFor(const FreeShape& s)
{
    if (auto it = m_slotOf.find(s); it != m_slotOf.end())
        return it->second;
    int32_t g;
    if (!m_freeSlots.empty()) {
        g = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        if (int(m_shape.size()) >= kMaxShapes)
            return -1;
        g = int32_t(m_shape.size());
        m_shape.emplace_back();
        m_size.push_back(0);
        m_rep.push_back(-1);
        m_activePos.push_back(-1);
        m_bits.resize(m_bits.size() + std::size_t(m_words), 0);
    }
    m_shape[std::size_t(g)] = s;
    m_slotOf.emplace(s, g);
    return g;
}

void FreeShapeIndex::add(int32_t g, int n)
{
    const auto gi = std::size_t(g);
    m_bits[gi * std::size_t(m_words) + std::size_t(n / 64)] |= uint64_t(1) << (n % 64);
    if (m_size[gi]++ == 0) {
        m_activePos[gi] = int32_t(m_active.size());
        m_active.push_back(g);
        m_rep[gi] = n;
    } else if (n < m_rep[gi]) {
        m_rep[gi] = n;
    }
    m_groupOf[std::size_t(n)] = g;
}

void FreeShapeIndex::remove(int32_t g, int n)
{
    const auto gi = std::size_t(g);
    uint64_t* bits = m_bits.data() + gi * std::size_t(m_words);
    bits[n / 64] &= ~(uint64_t(1) << (n % 64));
    if (--m_size[gi] == 0) {
        // Swap-remove from the active list; the slot is reused by the next new shape.
        const int32_t pos = m_activePos[gi];
        m_active[std::size_t(pos)] = m_active.back();
        m_activePos[std::size_t(m_active.back())] = pos;
        m_active.pop_back();
        m_activePos[gi] = -1;
        m_rep[gi] = -1;
        m_slotOf.erase(m_shape[gi]);
        m_freeSlots.push_back(g);
    } else if (m_rep[gi] == n) {
        // The lowest member left: it lies above n, which was the lowest.
        for (int w = n / 64; w < m_words; ++w)
            if (bits[w]) {
                m_rep[gi] = w * 64 + std::countr_zero(bits[w]);
                break;
            }
    }
}

void FreeShapeIndex::update(const ClusterState& c, int n)
{
    if (!m_valid)
        return;
    const FreeShape s = shapeOf(c, n);
    const int32_t old = m_groupOf[std::size_t(n)];
    if (m_shape[std::size_t(old)] == s)
        return;
    remove(old, n);
    const int32_t g = slotFor(s);
    if (g < 0) {
        clear();
        return;
    }
    add(g, n);
}

} // namespace schedlab::cluster
