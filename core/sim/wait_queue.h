#pragma once
/// The timed replay's queue of waiting units, kept ordered between scheduling passes so a pass
/// costs what it tries, not the queue's length (DESIGN §3: order by the queue policy's key, ties
/// by submit time, then unit index). Units are also indexed by their request signature (the same
/// requests for every task: within a pass one failure stands for all of them) and by whether
/// their first wait is still to be logged. Not thread-safe; one per replay.

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

namespace schedlab::sim {

/// A waiting unit's place in the order.
struct QueueEntry {
    double key = 0; ///< queue policy's key (smaller first)
    double submitS = 0;
    int32_t unit = -1;
    bool operator<(const QueueEntry& o) const
    {
        if (key != o.key)
            return key < o.key;
        if (submitS != o.submitS)
            return submitS < o.submitS;
        return unit < o.unit;
    }
    bool operator==(const QueueEntry& o) const { return unit == o.unit; }
};

class WaitQueue {
public:
    using Set = std::set<QueueEntry>;

    /// `signatureOf[u]` is unit u's signature id, < signatureCount.
    WaitQueue(std::vector<uint32_t> signatureOf, uint32_t signatureCount);

    /// Adds a unit; `unlogged`: its first wait is still to be logged.
    void push(const QueueEntry& e, bool unlogged);
    /// Removes a started unit.
    void erase(int32_t unit);
    /// Its first wait was logged.
    void markLogged(int32_t unit);
    /// New keys for every unit (orders whose key depends on the time); O(n log n).
    template <class KeyFn>
    void rekey(KeyFn key)
    {
        std::vector<QueueEntry> all(m_all.begin(), m_all.end());
        std::vector<char> unlogged(all.size());
        for (std::size_t i = 0; i < all.size(); ++i)
            unlogged[i] = m_unlogged.count(all[i]) ? 1 : 0;
        clear();
        for (std::size_t i = 0; i < all.size(); ++i) {
            all[i].key = key(all[i].unit);
            push(all[i], unlogged[i] != 0);
        }
    }

    std::size_t size() const { return m_all.size(); }
    bool empty() const { return m_all.empty(); }
    const Set& all() const { return m_all; }
    const Set& ofSignature(uint32_t s) const { return m_bySig[s]; }
    const Set& unlogged() const { return m_unlogged; }
    uint32_t signatureOf(int32_t unit) const { return m_sigOf[std::size_t(unit)]; }
    /// A queued unit's entry (its current key).
    const QueueEntry& entryOf(int32_t unit) const { return m_entryOf[std::size_t(unit)]; }
    /// Signatures with at least one waiting unit, in no particular order.
    const std::vector<uint32_t>& activeSignatures() const { return m_active; }

private:
    void clear();
    std::vector<uint32_t> m_sigOf;
    std::vector<QueueEntry> m_entryOf; ///< by unit; unit == -1 when not queued
    Set m_all, m_unlogged;
    std::vector<Set> m_bySig;
    std::vector<uint32_t> m_active;
    std::vector<int32_t> m_activePos; ///< by signature; -1 = not active
};

} // namespace schedlab::sim
