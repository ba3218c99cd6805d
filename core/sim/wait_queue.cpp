#include "wait_queue.h"

namespace schedlab::sim {

WaitQueue::WaitQueue(std::vector<uint32_t> signatureOf, uint32_t signatureCount)
    : m_sigOf(std::move(signatureOf))
    , m_entryOf(m_sigOf.size())
    , m_bySig(signatureCount)
    , m_activePos(signatureCount, -1)
{
}

void WaitQueue::push(const QueueEntry& e, bool unlogged)
{
    m_entryOf[std::size_t(e.unit)] = e;
    m_all.insert(e);
    if (unlogged)
        m_unlogged.insert(e);
    const uint32_t s = m_sigOf[std::size_t(e.unit)];
    m_bySig[s].insert(e);
    if (m_activePos[s] < 0) {
        m_activePos[s] = int32_t(m_active.size());
        m_active.push_back(s);
    }
}

void WaitQueue::erase(int32_t unit)
{
    QueueEntry& e = m_entryOf[std::size_t(unit)];
    if (e.unit < 0)
        return;
    m_all.erase(e);
    m_unlogged.erase(e);
    const uint32_t s = m_sigOf[std::size_t(unit)];
    m_bySig[s].erase(e);
    if (m_bySig[s].empty()) {
        const int32_t pos = m_activePos[s];
        m_activePos[m_active.back()] = pos;
        m_active[std::size_t(pos)] = m_active.back();
        m_active.pop_back();
        m_activePos[s] = -1;
    }
    e.unit = -1;
}

void WaitQueue::markLogged(int32_t unit)
{
    const QueueEntry& e = m_entryOf[std::size_t(unit)];
    if (e.unit >= 0)
        m_unlogged.erase(e);
}

void WaitQueue::clear()
{
    for (const QueueEntry& e : m_all)
        m_entryOf[std::size_t(e.unit)].unit = -1;
    m_all.clear();
    m_unlogged.clear();
    for (uint32_t s : m_active) {
        m_bySig[s].clear();
        m_activePos[s] = -1;
    }
    m_active.clear();
}

} // namespace schedlab::sim
