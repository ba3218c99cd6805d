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
        r.recordWait(ui, t, ds.empty() ? nullptr : &ds.back(), ds.empty() ? r.journalPos() : r.m_tryPos + int64_t(ds.size()) - 1);
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
    refusalsHold = r.m_memo && !r.m_policy->drawsRandomly(r.m_opt.recordDecisions ? r.m_opt.topK : 0);
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
    if (r.m_opt.recordDecisions && !r.m_waitRecorded[std::size_t(unit())])
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
        && (!r.m_opt.recordDecisions || r.m_waitRecorded[std::size_t(ui)])) {
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
