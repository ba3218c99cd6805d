// EASY backfilling's pass (Replay::backfill, Replay::EasyPass): the head's reservation, the
// candidates in queue order, the walk over dormant signatures (timed_replay_impl.h; the
// reservation's arithmetic and the shadow time are in timed_replay_easy.cpp).

#include "timed_replay_impl.h"

#include <array>
#include <cstring>

namespace schedlab::sim::detail {

namespace {

/// The dormant signatures' first units of several walk classes, merged in queue order.
class DormantWalk {
public:
    void add(const WaitQueue::Set& s, uint8_t walkClass)
    {
        if (!s.empty())
            m_src[m_n++] = { s.begin(), s.end(), walkClass };
    }
    void start() { pick(); }
    /// Keeps only the classes `keep(walkClass)` accepts.
    template <class Keep>
    void keepIf(Keep keep)
    {
        int n = 0;
        for (int i = 0; i < m_n; ++i)
            if (m_src[i].it != m_src[i].end && keep(m_src[i].walkClass))
                m_src[n++] = m_src[i];
        m_n = n;
        pick();
    }
    bool done() const { return m_cur < 0; }
    const QueueEntry& top() const { return *m_src[m_cur].it; }
    /// Moves past top() (before anything erases it).
    void next()
    {
        ++m_src[m_cur].it;
        pick();
    }

private:
    void pick()
    {
        m_cur = -1;
        for (int i = 0; i < m_n; ++i)
            if (m_src[i].it != m_src[i].end && (m_cur < 0 || *m_src[i].it < *m_src[m_cur].it))
                m_cur = i;
    }
    struct Src {
        WaitQueue::Set::const_iterator it, end;
        uint8_t walkClass;
    };
    std::array<Src, kWalkClasses> m_src {};
    int m_n = 0, m_cur = -1;
};

} // namespace

/// One EASY backfilling pass (Replay::backfill): its reservation for the head, the frontier of
/// candidate signatures, the walk over dormant ones and the units whose first wait is to be logged.
struct Replay::EasyPass {
    EasyPass(Replay& replay, double now, const QueueEntry& headEntry, std::vector<cluster::Placement>& placedOut,
        std::vector<policy::PlacementDecision>& decisions)
        : r(replay)
        , t(now)
        , head(headEntry)
        , placed(placedOut)
        , ds(decisions)
        , headUnit(replay.m_units[std::size_t(headEntry.unit)])
        , sm(replay.m_shadowMemo)
        , frontier(replay.m_frontier)
        , unlogged(replay.m_wait->unlogged())
        , un(unlogged.begin())
    {
    }

    Replay& r;
    const double t;
    const QueueEntry& head;
    std::vector<cluster::Placement>& placed;
    std::vector<policy::PlacementDecision>& ds;
    const Unit& headUnit;
    ShadowMemo& sm;
    Frontier& frontier;
    const WaitQueue::Set& unlogged;
    WaitQueue::Set::const_iterator un;
    bool kept = false;
    EasyReservation::Shadow keptShadow;
    int64_t keptCopies = -1; // copies the nodes take at the kept reservation (when first needed)
    std::vector<const std::vector<cluster::Placement>*> endedBefore; // started in this pass, ending before it
    cluster::ClusterState* atShadow = nullptr; // a backfill below changes it, and the stamp with it
    uint64_t released = 0;
    double shadow = kInf;
    bool refusalsHold = false;
    std::vector<char> headNodes; // nodes the head's first-fit placement at the reservation uses
    bool walk = false;
    FreeMax room;
    uint64_t roomStamp = UINT64_MAX;
    uint64_t walkFrom = 0;
    DormantWalk cursor;

    void logWait(int32_t ui)
    {
        r.recordWait(ui, t, ds.empty() ? nullptr : &ds.back(), int(ds.size()) - 1,
            ds.empty() ? r.statePos() : r.m_tryPos + int64_t(ds.size()) - 1);
    }
    void reserve();
    bool fitsBesideKept(const std::vector<cluster::Placement>& taken);
    uint64_t refusalKey() const;
    template <class UnitFn>
    bool knownToFail(uint32_t s, UnitFn unit);
    void seedFrontier();
    void startWalk();
    void wakeInTurn();
    /// Tries the frontier's next unit: commits it when EASY allows, else logs its wait.
    void tryNext();
    void afterBackfill(int32_t ui, const QueueEntry& e, bool endsBefore, uint64_t stampBefore);
    void run();
};

// EASY: a later job may start now if it ends (by its requested time) before the head's
// reservation, or if the head still fits at the reservation with this job running. Only the
// first unit of each request signature still in play is tried (a failure stands for the rest
// of its signature), plus units whose first wait is still to be logged, all in queue order.
// The kept reservation serves a head of identical tasks while no running unit is overdue
// (an end at or before now is clamped to now, which reorders the ends); otherwise the head's
// reservation is found by releasing running units on a copy of the cluster (shadowTime).
void Replay::EasyPass::reserve()
{
    const bool identicalHead = r.identicalTasks(headUnit);
    if (!identicalHead)
        r.m_easy.clear();
    else if (!r.m_easy.active() || r.m_easy.head() != head.unit)
        r.m_easy.reset(head.unit, r.taskOf(headUnit, 0).request, headUnit.count, r.m_cluster, r.m_runningEnds, r.m_placements);
    kept = identicalHead && (r.m_runningEnds.empty() || r.m_runningEnds.begin()->first > t);
    keptShadow = kept ? r.m_easy.shadow() : EasyReservation::Shadow {};
    if (!kept && !(r.m_memo && sm.state && sm.head == head.unit && sm.stamp == r.m_stateStamp && t <= sm.minEndS && sm.computedAtS <= sm.minEndS)) {
        if (sm.state)
            *sm.state = r.m_cluster; // keeps the storage
        else
            sm.state = std::make_unique<cluster::ClusterState>(r.m_cluster);
        sm.shadowS = r.shadowTime(head.unit, t, *sm.state, sm.released, sm.shadowUnit);
        sm.head = head.unit;
        sm.stamp = r.m_stateStamp;
        sm.computedAtS = t;
        sm.minEndS = r.m_runningEnds.empty() ? kInf : r.m_runningEnds.begin()->first;
    }
    atShadow = sm.state.get();
    released = kept ? keptShadow.released : sm.released;
    shadow = kept ? keptShadow.timeS : sm.shadowS;
    refusalsHold = r.m_memo && !r.m_policy->drawsRandomly(r.m_rec.decisions ? r.m_rec.topK : 0);
}

// The head still fits at the kept reservation with `taken` (taken now, ending after it): the
// copies its nodes take there drop by no more than the others have to spare.
bool Replay::EasyPass::fitsBesideKept(const std::vector<cluster::Placement>& taken)
{
    if (keptCopies < 0)
        keptCopies = r.m_easy.copiesAt(keptShadow);
    int64_t change = 0;
    for (std::size_t k = 0; k < taken.size(); ++k) {
        bool seen = false;
        for (std::size_t j = 0; j < k && !seen; ++j)
            seen = taken[j].node == taken[k].node;
        if (seen)
            continue;
        const auto [with, without] = r.m_easy.copiesAtShadow(taken[k].node, keptShadow, r.m_cluster, r.m_placements, endedBefore, taken);
        change += with - without;
    }
    if (keptCopies + change < r.m_easy.count())
        return false;
    keptCopies += change;
    return true;
}

// What a refusal depends on: the cluster (and so the running units), the head, the units
// released to reach its reservation and the reservation's time. With a policy that draws
// nothing, the same unit there gets the same placement and the same refusal; a later time only
// makes "ends before the reservation" harder. A backfill changes the stamp.
uint64_t Replay::EasyPass::refusalKey() const
{
    uint64_t k = r.m_stateStamp * 0xff51afd7ed558ccdull ^ released;
    k = (k ^ uint64_t(head.unit)) * 0xc4ceb9fe1a85ec53ull;
    double sh = shadow;
    uint64_t bits;
    std::memcpy(&bits, &sh, sizeof bits);
    return (k ^ bits) | 1; // never 0, the "none" key
}

// attempt() would fail at a signature's next unit when its first task fitted no node at a known
// failure and no node released since fits it (backfills below only take resources): nothing to
// try. That unit's first wait must be logged already (else attempt() logs it); `unit` gives it
// (a walk into the signature's set, done last).
template <class UnitFn>
bool Replay::EasyPass::knownToFail(uint32_t s, UnitFn unit)
{
    if (!(r.m_memo && r.failureKnown(s)))
        return false;
    if (r.m_sigFailEpoch[s] != r.m_releaseEpoch && r.fitsOnNodesReleasedSince(r.m_sigFailEpoch[s], r.m_sigFirstRequest[s]))
        return false;
    if (r.m_rec.decisions && !r.m_waitRecorded[std::size_t(unit())])
        return false;
    r.m_sigFailPass[s] = r.m_pass;
    r.m_sigFailEpoch[s] = r.m_releaseEpoch;
    return true;
}

// The next unit of each live signature, a min-heap in queue order: its first but the head (with
// HeadRule::Resort every waiting unit comes after the head, those before it started; with Commit
// units that sort before the committed head are candidates too). Dormant signatures (their first
// task fitted no node, and no node released since does) are left out: finish() wakes those a
// released node fits.
void Replay::EasyPass::seedFrontier()
{
    frontier.clear();
    const std::vector<uint32_t>& awake = r.m_wait->awakeSignatures();
    for (std::size_t i = 0; i < awake.size(); ++i) {
        const uint32_t s = awake[i];
        if (r.m_sigFailPass[s] == r.m_pass)
            continue;
        const WaitQueue::Set& units = r.m_wait->ofSignature(s);
        auto first = [&] {
            auto it = units.begin();
            return it->unit == head.unit ? std::next(it) : it;
        };
        // (A signature holding only the head failed with it, so is skipped above.)
        if (knownToFail(s, [&] {
                const auto it = first();
                return it == units.end() ? head.unit : it->unit;
            })) {
            r.m_wait->setDormant(s); // the last awake one takes its place
            --i;
            continue;
        }
        const auto it = first();
        if (it != units.end())
            frontier.add(it);
    }
    frontier.heapify();
}

// Dormant signatures (their first task fitted no node when last looked at) can fit only a node
// released since the last walk over them: when something was released, they are walked in queue
// order in step with the candidates, each woken into the frontier when such a node fits it now,
// else known to fit nowhere now. Without a release there is nothing to walk. Only the walk
// classes the released nodes' room can hold are walked (the room only shrinks within a pass:
// backfills take, nothing is released).
void Replay::EasyPass::startWalk()
{
    walk = r.m_memo && r.m_releaseEpoch != r.m_lastWalkEpoch && r.m_wait->anyDormant();
    walkFrom = r.m_lastWalkEpoch;
    if (walk) {
        r.releasedRoom(walkFrom, room);
        roomStamp = r.m_stateStamp;
        for (uint8_t c = 0; c < r.m_wait->walkClasses(); ++c)
            if (walkClassMayFit(c, room))
                cursor.add(r.m_wait->dormantFirsts(c), c);
        cursor.start();
    }
    if (r.m_memo)
        r.m_lastWalkEpoch = r.m_releaseEpoch; // this pass walks them all
}

void Replay::EasyPass::wakeInTurn()
{
    while (!cursor.done()) {
        if (roomStamp != r.m_stateStamp) { // a backfill took room: fewer classes may fit
            r.releasedRoom(walkFrom, room);
            roomStamp = r.m_stateStamp;
            cursor.keepIf([&](uint8_t c) { return walkClassMayFit(c, room); });
            continue;
        }
        const QueueEntry d = cursor.top();
        if ((!frontier.empty() && frontier.top() < d) || (un != unlogged.end() && *un < d))
            return;
        cursor.next(); // before a wake erases d
        const uint32_t s = r.m_wait->signatureOf(d.unit);
        if (r.m_sigFailPass[s] == r.m_pass)
            continue; // failed in this pass (the head's signature)
        const trace::TaskRequest& q = r.m_sigFirstRequest[s];
        const bool mayFit = q.cpuMilli <= room.cpu && q.memMiB <= room.mem
            && (!q.needsGpu() || (q.isGpuShare() ? q.gpuMilli <= room.gpuShare : q.numGpu <= room.wholeGpus));
        if (r.failureKnown(s) && (!mayFit || !r.fitsOnNodesReleasedSince(std::max(walkFrom, r.m_sigFailEpoch[s]), q))) {
            r.m_sigFailEpoch[s] = r.m_releaseEpoch; // fits no node now
            continue;
        }
        r.m_wait->wake(s);
        frontier.push(r.m_wait->ofSignature(s).begin());
        return;
    }
}

void Replay::EasyPass::afterBackfill(int32_t ui, const QueueEntry& e, bool endsBefore, uint64_t stampBefore)
{
    const Unit& u = r.m_units[std::size_t(ui)];
    frontier.rewind(e);
    // What it took leaves most signatures in play without a node (one freed node was all they
    // had): drop them now, exactly as attempt() would fail them when their turn comes (an
    // unlogged unit among them is logged by the walk over unlogged ones).
    if (r.m_memo)
        frontier.dropIf([&](const QueueEntry& q) {
            const uint32_t s = r.m_wait->signatureOf(q.unit);
            const trace::TaskRequest& req = r.m_sigFirstRequest[s];
            if (r.failureKnown(s) ? r.fitsOnNodesReleasedSince(r.m_sigFailEpoch[s], req) : r.mayFitSomewhere(req))
                return false;
            r.m_sigFailPass[s] = r.m_pass;
            r.m_sigFailEpoch[s] = r.m_releaseEpoch;
            return true;
        });
    ++r.m_out.backfilled;
    if (kept && endsBefore)
        endedBefore.push_back(&r.m_placements[std::size_t(ui)]);
    // The reservation stands: a unit ending before it is released on the way there (if it comes
    // before the reservation's unit in the order of ends), one beside the head is in atShadow
    // already.
    if (!kept && sm.stamp == stampBefore && sm.shadowUnit >= 0
        && (!endsBefore || std::pair(t + u.req, ui) < std::pair(r.expectedEnd(sm.shadowUnit), sm.shadowUnit))) {
        sm.stamp = r.m_stateStamp;
        sm.minEndS = std::min(sm.minEndS, t + u.req);
    }
}

void Replay::EasyPass::tryNext()
{
    const WaitQueue::Set::const_iterator at = frontier.pop();
    const QueueEntry e = *at;
    const auto next = std::next(at); // before a commit erases e
    if (un != unlogged.end() && un->unit == e.unit)
        ++un;
    const int32_t ui = e.unit;
    const Unit& u = r.m_units[std::size_t(ui)];
    const uint32_t sig = r.m_wait->signatureOf(ui);
    const WaitQueue::Set& units = r.m_wait->ofSignature(sig);
    ds.clear();
    // Refused with this key: the same placement (the policy draws nothing, the cluster is the
    // same), so the same answer beside the head; only ending before the reservation can change it.
    if (refusalsHold && r.m_sigRefusal[sig].key == refusalKey() && t + u.req > shadow
        && (!r.m_rec.decisions || r.m_waitRecorded[std::size_t(ui)])) {
        // Refused again: nothing to log, nothing changes; so are the signature's next units until
        // one ends before the reservation or has its first wait to log. The index jumps there (a
        // bound a little above shadow - t lets rounding only add candidates, which meet this test
        // again).
        if (r.m_wait->indexed()) {
            const double bound = (shadow - t) + 1e-9 * std::max(1.0, std::abs(shadow));
            const int32_t nu = r.m_wait->nextOfSignature(ui, bound);
            frontier.pushJump(nu >= 0 ? units.find(r.m_wait->entryOf(nu)) : units.end(), units);
        } else if (next != units.end())
            frontier.push(next);
        return;
    }
    if (!r.attempt(ui, t, placed, ds)) {
        logWait(ui);
        return; // its signature is out of play for this pass
    }
    bool allowed = t + u.req <= shadow;
    if (!allowed && shadow < kInf)
        allowed = kept ? fitsBesideKept(placed) : r.fitsBesideHead(*atShadow, placed, headUnit, headNodes);
    if (allowed) {
        const bool endsBefore = t + u.req <= shadow;
        const uint64_t stampBefore = r.m_stateStamp;
        r.commit(ui, t, placed, ds);
        afterBackfill(ui, e, endsBefore, stampBefore);
    } else {
        r.rollback(ui, placed);
        ds.clear();
        logWait(ui);
        if (refusalsHold)
            r.m_sigRefusal[sig].key = refusalKey();
    }
    if (next != units.end())
        frontier.push(next);
}

void Replay::EasyPass::run()
{
    reserve();
    seedFrontier();
    un = unlogged.begin();
    startWalk();
    while (!frontier.empty() || un != unlogged.end() || !cursor.done()) {
        wakeInTurn();
        if (frontier.empty() && un == unlogged.end())
            continue; // the walk went on past everything else
        if (un != unlogged.end() && un->unit == head.unit) {
            ++un; // logged as the head
            continue;
        }
        if (frontier.empty() || (un != unlogged.end() && *un < frontier.top())) {
            // Before every live signature's next unit: its signature failed in this pass.
            const int32_t ui = (un++)->unit;
            ds.clear();
            logWait(ui);
            continue;
        }
        tryNext();
    }
}

void Replay::backfill(double t, const QueueEntry& head, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    m_inEasyPass = true;
    struct PassEnd {
        Replay& r;
        ~PassEnd()
        {
            r.m_inEasyPass = false;
            if (r.m_easy.active())
                for (int32_t ui : r.m_easyStarted)
                    r.m_easy.started(ui, r.expectedEnd(ui), r.m_cluster, r.m_placements);
            r.m_easyStarted.clear();
        }
    } passEnd { *this };
    EasyPass pass(*this, t, head, placed, ds);
    pass.run();
}

} // namespace schedlab::sim::detail
