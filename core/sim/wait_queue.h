#pragma once
/// The timed replay's queue of waiting units, kept ordered between scheduling passes so a pass
/// costs what it tries, not the queue's length (docs/policies.md §1: order by the queue policy's key, ties
/// by submit time, then unit index). Units are also indexed by their request signature (the same
/// requests for every task: within a pass one failure stands for all of them) and by whether
/// their first wait is still to be logged. Not thread-safe; one per replay.

#include <cstddef>
#include <cstdint>
#include <limits>
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
            unlogged[i] = m_isUnlogged[std::size_t(all[i].unit)];
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
    /// Signatures with at least one waiting unit that may fit somewhere (not known to fit
    /// nowhere), in no particular order. A signature that gets its first waiting unit is awake.
    const std::vector<uint32_t>& awakeSignatures() const { return m_awake; }
    /// Signatures with waiting units whose first task is known to fit no node (until woken).
    const std::vector<uint32_t>& dormantSignatures() const { return m_dormant; }
    /// The dormant signatures' first waiting units of one walk class, in queue order (an EASY
    /// pass walks them in step with the candidates, instead of waking every one a released node
    /// fits, and skips the classes nothing released can fit).
    const Set& dormantFirsts(uint8_t walkClass) const { return m_dormantFirst[walkClass]; }
    /// Walk classes: a grouping of signatures chosen by the caller (e.g. by GPUs asked for);
    /// `classOf[s]` < `classes`. By default every signature is in class 0. Set while empty.
    void setWalkClasses(std::vector<uint8_t> classOf, uint8_t classes);
    uint8_t walkClasses() const { return uint8_t(m_dormantFirst.size()); }
    bool anyDormant() const { return !m_dormant.empty(); }
    /// Moves an awake signature to the dormant ones (swapping the last awake one into its place)
    /// and back.
    void setDormant(uint32_t s);
    void wake(uint32_t s);
    void wakeAll();

    /// For queue orders whose key never changes (so every unit's place among all units is known
    /// before it arrives): indexes each signature's units by their entry, so that the first one
    /// after a given unit with a requested time at most some bound is found in O(log n) instead
    /// of walking the signature. `entries[u]` is unit u's entry, `requestedS[u]` its requested
    /// time. Must be called while the queue is empty; `rekey` may not be used afterwards.
    void indexByRequestedTime(const std::vector<QueueEntry>& entries, const std::vector<double>& requestedS);
    bool indexed() const { return !m_tree.empty(); }
    /// indexed(): the first waiting unit of `unit`'s signature after `unit` in queue order whose
    /// requested time is at most `maxRequestedS` or whose first wait is still to be logged; -1
    /// when there is none. `unit` itself need not be waiting.
    int32_t nextOfSignature(int32_t unit, double maxRequestedS) const;

private:
    void clear();
    std::vector<uint32_t> m_sigOf;
    std::vector<QueueEntry> m_entryOf; ///< by unit; unit == -1 when not queued
    Set m_all, m_unlogged;
    std::vector<Set> m_bySig;
    /// By queued unit: its place in m_all, in its signature's set and (when unlogged) in
    /// m_unlogged, so a start erases without searching.
    std::vector<Set::iterator> m_allAt, m_sigAt, m_unloggedAt;
    std::vector<char> m_isUnlogged;
    std::vector<uint32_t> m_awake, m_dormant;
    std::vector<Set> m_dormantFirst; ///< by walk class: *m_bySig[s].begin() of every dormant s
    std::vector<uint8_t> m_classOf; ///< by signature: its walk class (empty: all 0)
    Set& dormantSetOf(uint32_t s) { return m_dormantFirst[m_classOf.empty() ? 0 : m_classOf[s]]; }
    std::vector<int32_t> m_listPos; ///< by signature: place in m_awake or m_dormant; -1 = no unit waits
    std::vector<char> m_isDormant; ///< by signature
    static void removeFrom(std::vector<uint32_t>& list, std::vector<int32_t>& pos, uint32_t s);
    // The index by requested time: per signature a min-tree over its units in queue order (leaf
    // = requested time of a waiting unit, -inf while its first wait is unlogged, +inf when not
    // waiting), all trees in one array.
    static constexpr double kAbsent = std::numeric_limits<double>::infinity();
    void setLeaf(int32_t unit, double v);
    std::vector<double> m_tree;
    std::vector<std::size_t> m_treeBase; ///< by signature: offset of its tree in m_tree
    std::vector<uint32_t> m_treeLeaves; ///< by signature: leaves (a power of two)
    std::vector<int32_t> m_localPos; ///< by unit: its leaf in its signature's tree
    std::vector<int32_t> m_unitAt; ///< by leaf, flat like m_tree's leaves: the unit there, -1 = none
    std::vector<std::size_t> m_unitBase; ///< by signature: offset of its leaves in m_unitAt
    std::vector<double> m_requestedS; ///< by unit
};

} // namespace schedlab::sim
