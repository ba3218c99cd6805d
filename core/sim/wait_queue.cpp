#include "wait_queue.h"

#include <algorithm>
#include <numeric>

namespace schedlab::sim {

WaitQueue::WaitQueue(std::vector<uint32_t> signatureOf, uint32_t signatureCount)
    : m_sigOf(std::move(signatureOf))
    , m_entryOf(m_sigOf.size())
    , m_bySig(signatureCount)
    , m_allAt(m_sigOf.size())
    , m_sigAt(m_sigOf.size())
    , m_unloggedAt(m_sigOf.size())
    , m_isUnlogged(m_sigOf.size(), 0)
    , m_dormantFirst(1)
    , m_listPos(signatureCount, -1)
    , m_isDormant(signatureCount, 0)
{
}

void WaitQueue::setWalkClasses(std::vector<uint8_t> classOf, uint8_t classes)
{
    m_classOf = std::move(classOf);
    m_dormantFirst.assign(std::max<std::size_t>(classes, 1), Set {});
}

void WaitQueue::push(const QueueEntry& e, bool unlogged)
{
    const std::size_t u = std::size_t(e.unit);
    m_entryOf[u] = e;
    // Arrivals mostly come in queue order (FCFS keys are submit times): the end is the hint.
    m_allAt[u] = m_all.insert(m_all.end(), e);
    m_isUnlogged[u] = unlogged ? 1 : 0;
    if (unlogged)
        m_unloggedAt[u] = m_unlogged.insert(e).first;
    const uint32_t s = m_sigOf[std::size_t(e.unit)];
    if (m_listPos[s] >= 0 && m_isDormant[s] && e < *m_bySig[s].begin()) { // a new first unit
        dormantSetOf(s).erase(*m_bySig[s].begin());
        dormantSetOf(s).insert(e);
    }
    m_sigAt[u] = m_bySig[s].insert(m_bySig[s].end(), e);
    if (indexed())
        setLeaf(e.unit, unlogged ? -kAbsent : m_requestedS[std::size_t(e.unit)]);
    if (m_listPos[s] < 0) {
        m_listPos[s] = int32_t(m_awake.size());
        m_awake.push_back(s);
        m_isDormant[s] = 0;
    }
}

void WaitQueue::erase(int32_t unit)
{
    QueueEntry& e = m_entryOf[std::size_t(unit)];
    if (e.unit < 0)
        return;
    const std::size_t u = std::size_t(unit);
    m_all.erase(m_allAt[u]);
    if (m_isUnlogged[u]) {
        m_unlogged.erase(m_unloggedAt[u]);
        m_isUnlogged[u] = 0;
    }
    const uint32_t s = m_sigOf[u];
    const bool dormantFirst = m_isDormant[s] && m_bySig[s].begin()->unit == unit;
    m_bySig[s].erase(m_sigAt[u]);
    if (dormantFirst) {
        dormantSetOf(s).erase(e);
        if (!m_bySig[s].empty())
            dormantSetOf(s).insert(*m_bySig[s].begin());
    }
    if (indexed())
        setLeaf(unit, kAbsent);
    if (m_bySig[s].empty()) {
        removeFrom(m_isDormant[s] ? m_dormant : m_awake, m_listPos, s);
        m_listPos[s] = -1;
        m_isDormant[s] = 0;
    }
    e.unit = -1;
}

void WaitQueue::markLogged(int32_t unit)
{
    const std::size_t u = std::size_t(unit);
    if (m_entryOf[u].unit < 0 || !m_isUnlogged[u])
        return;
    m_unlogged.erase(m_unloggedAt[u]);
    m_isUnlogged[u] = 0;
    if (indexed())
        setLeaf(unit, m_requestedS[u]);
}

void WaitQueue::indexByRequestedTime(const std::vector<QueueEntry>& entries, const std::vector<double>& requestedS)
{
    const std::size_t units = m_sigOf.size();
    m_requestedS = requestedS;
    std::vector<int32_t> order(units);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return entries[std::size_t(a)] < entries[std::size_t(b)]; });
    const std::size_t sigs = m_bySig.size();
    std::vector<uint32_t> count(sigs, 0);
    for (uint32_t s : m_sigOf)
        ++count[s];
    m_treeBase.assign(sigs, 0);
    m_treeLeaves.assign(sigs, 0);
    m_unitBase.assign(sigs, 0);
    std::size_t treeSize = 0, leafSize = 0;
    for (std::size_t s = 0; s < sigs; ++s) {
        uint32_t leaves = 1;
        while (leaves < count[s])
            leaves *= 2;
        m_treeLeaves[s] = leaves;
        m_treeBase[s] = treeSize;
        m_unitBase[s] = leafSize;
        treeSize += 2 * std::size_t(leaves);
        leafSize += leaves;
    }
    m_tree.assign(treeSize, kAbsent);
    m_unitAt.assign(leafSize, -1);
    m_localPos.assign(units, -1);
    std::vector<uint32_t> filled(sigs, 0);
    for (int32_t u : order) {
        const uint32_t s = m_sigOf[std::size_t(u)];
        m_localPos[std::size_t(u)] = int32_t(filled[s]);
        m_unitAt[m_unitBase[s] + filled[s]++] = u;
    }
}

void WaitQueue::setLeaf(int32_t unit, double v)
{
    const uint32_t s = m_sigOf[std::size_t(unit)];
    double* t = m_tree.data() + m_treeBase[s];
    std::size_t i = m_treeLeaves[s] + std::size_t(m_localPos[std::size_t(unit)]);
    t[i] = v;
    for (i /= 2; i >= 1; i /= 2) {
        const double m = std::min(t[2 * i], t[2 * i + 1]);
        if (t[i] == m)
            break; // the rest of the path already holds it
        t[i] = m;
    }
}

int32_t WaitQueue::nextOfSignature(int32_t unit, double maxRequestedS) const
{
    const uint32_t s = m_sigOf[std::size_t(unit)];
    const double* t = m_tree.data() + m_treeBase[s];
    const std::size_t leaves = m_treeLeaves[s];
    std::size_t i = leaves + std::size_t(m_localPos[std::size_t(unit)]);
    // Up until a right sibling's subtree holds a match, then down to its leftmost match.
    for (;;) {
        if (i == 1)
            return -1;
        if (i % 2 == 0 && t[i + 1] <= maxRequestedS) {
            ++i;
            break;
        }
        i /= 2;
    }
    while (i < leaves)
        i = t[2 * i] <= maxRequestedS ? 2 * i : 2 * i + 1;
    return m_unitAt[m_unitBase[s] + (i - leaves)];
}

void WaitQueue::removeFrom(std::vector<uint32_t>& list, std::vector<int32_t>& pos, uint32_t s)
{
    const int32_t at = pos[s];
    pos[list.back()] = at;
    list[std::size_t(at)] = list.back();
    list.pop_back();
}

void WaitQueue::setDormant(uint32_t s)
{
    if (m_listPos[s] < 0 || m_isDormant[s])
        return;
    removeFrom(m_awake, m_listPos, s);
    m_listPos[s] = int32_t(m_dormant.size());
    m_dormant.push_back(s);
    m_isDormant[s] = 1;
    dormantSetOf(s).insert(*m_bySig[s].begin());
}

void WaitQueue::wake(uint32_t s)
{
    if (m_listPos[s] < 0 || !m_isDormant[s])
        return;
    removeFrom(m_dormant, m_listPos, s);
    dormantSetOf(s).erase(*m_bySig[s].begin());
    m_listPos[s] = int32_t(m_awake.size());
    m_awake.push_back(s);
    m_isDormant[s] = 0;
}

void WaitQueue::wakeAll()
{
    while (!m_dormant.empty())
        wake(m_dormant.back());
}

void WaitQueue::clear()
{
    for (const QueueEntry& e : m_all) {
        m_entryOf[std::size_t(e.unit)].unit = -1;
        m_isUnlogged[std::size_t(e.unit)] = 0;
    }
    m_all.clear();
    m_unlogged.clear();
    for (const auto* list : { &m_awake, &m_dormant })
        for (uint32_t s : *list) {
            m_bySig[s].clear();
            m_listPos[s] = -1;
            m_isDormant[s] = 0;
        }
    m_awake.clear();
    m_dormant.clear();
    for (Set& d : m_dormantFirst)
        d.clear();
}

} // namespace schedlab::sim
