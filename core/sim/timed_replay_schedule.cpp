// The scheduling pass of the timed replay: the queue head, and placing, committing, rolling back
// and releasing units (EASY backfilling is in timed_replay_easy.cpp; see timed_replay_impl.h).

#include "timed_replay_impl.h"

namespace schedlab::sim::detail {

bool Replay::tryPlace(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    m_tryPos = statePos();
    const Unit& u = m_units[std::size_t(ui)];
    const trace::Job& job = m_trace.jobs[std::size_t(u.job)];
    placed.clear();
    ds.clear();
    m_attemptByPolicy = true;
    const int topK = m_rec.decisions ? m_rec.topK : 0;
    for (int32_t k = 0; k < u.count; ++k) {
        const trace::Task& task = taskOf(u, k);
        policy::PlacementRequest req { task.request, &job, &task, t, m_passQueued, m_headWaitS, u.submit };
        if (m_skipsLeft > 0 && k == 0) {
            req.maySkip = true;
            req.requestedS = u.req;
            req.shorterQueued = shorterQueued(ui);
        }
        policy::PlacementDecision d = m_policy->place(m_cluster, req, m_rng, topK);
        d.skip = d.skip && req.maySkip && d.node < 0;
        for (ReplayObserver* o : m_observers)
            o->decided(DecidedEvent { m_cluster, req, d, int(k) });
        if (d.node < 0) {
            ds.push_back(std::move(d));
            rollback(ui, placed, m_rec.decisions && !m_waitRecorded[std::size_t(ui)]);
            return false;
        }
        placed.push_back(m_cluster.makePlacement(d.node, task.request, d.gpuMask));
        allocate(placed.back(), task.request);
        ds.push_back(std::move(d));
    }
    return true;
}

void Replay::stateChanged(const cluster::Placement& p, StateOp op)
{
    m_statePos += op == StateOp::Undone ? -1 : 1;
    for (ReplayObserver* o : m_observers)
        switch (op) {
        case StateOp::Allocated: o->allocated(p, m_cluster); break;
        case StateOp::Released: o->released(p, m_cluster); break;
        case StateOp::Undone: o->undone(p, m_cluster); break;
        }
}

void Replay::rollback(int32_t ui, std::vector<cluster::Placement>& placed, bool referenced)
{
    m_undoing = !referenced;
    const Unit& u = m_units[std::size_t(ui)];
    for (std::size_t k = placed.size(); k-- > 0;)
        release(placed[k], taskOf(u, int(k)).request);
    placed.clear();
    m_undoing = false;
}

void Replay::commit(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    const Unit& u = m_units[std::size_t(ui)];
    UnitResult& r = m_results[std::size_t(ui)];
    r.startS = t;
    r.finishS = t + u.run;
    m_p99.add(t, t - u.submit);
    if (m_rec.decisions)
        for (std::size_t k = 0; k < placed.size(); ++k) {
            Decision d;
            d.timeS = t;
            d.job = u.job;
            d.task = u.firstTask + int32_t(k);
            d.node = placed[k].node;
            d.feasible = ds[k].feasible;
            d.statePos = m_tryPos < 0 ? -1 : m_tryPos + int64_t(k);
            const std::size_t logged = m_out.decisions.add(d, ds[k].top);
            if (m_attemptByPolicy)
                for (ReplayObserver* o : m_observers)
                    o->logged(m_out.decisions, logged, int(k));
        }
    if (u.user >= 0) {
        auto& a = m_userAlloc[std::size_t(u.user)];
        for (const cluster::Placement& p : placed) {
            a[0] += p.cpuMilli;
            a[1] += p.memMiB;
            a[2] += int64_t(std::popcount(p.gpuMask)) * p.gpuMilliPerGpu;
        }
    }
    auto mix = [this](uint64_t v) { m_out.scheduleHash = (m_out.scheduleHash ^ v) * 0x100000001b3ull; };
    uint64_t tBits;
    std::memcpy(&tBits, &t, sizeof tBits);
    mix(uint64_t(ui));
    mix(tBits);
    for (const cluster::Placement& p : placed) {
        mix(uint64_t(p.node));
        mix(p.gpuMask);
    }
    m_placements[std::size_t(ui)] = std::move(placed);
    m_wait->erase(ui);
    ++m_stateStamp;
    m_running.push_back(ui);
    m_runningEnds.insert({ expectedEnd(ui), ui });
    if (m_easy.active()) {
        if (m_inEasyPass)
            m_easyStarted.push_back(ui);
        else
            m_easy.started(ui, expectedEnd(ui), m_cluster, m_placements);
    }
    if (!m_finishSeq.empty())
        m_finishSeq[std::size_t(ui)] = m_seq;
    push(r.finishS, EventType::Finish, ui);
}

void Replay::finish(int32_t ui)
{
    // The first unit to end on the way to the head's reservation (not the one that makes it):
    // releasing it now leaves the same later states, so the same reservation.
    ShadowMemo& sm = m_shadowMemo;
    const bool keepShadow = sm.state && sm.stamp == m_stateStamp && sm.shadowUnit >= 0 && sm.shadowUnit != ui
        && m_runningEnds.begin()->second == ui
        && std::pair(expectedEnd(ui), ui) < std::pair(expectedEnd(sm.shadowUnit), sm.shadowUnit);
    releaseRunning(ui);
    if (keepShadow) {
        sm.stamp = m_stateStamp;
        sm.minEndS = m_runningEnds.empty() ? kInf : m_runningEnds.begin()->first;
    }
    ++m_out.completed;
    ++m_done;
}

void Replay::releaseRunning(int32_t ui)
{
    const Unit& u = m_units[std::size_t(ui)];
    std::vector<cluster::Placement>& placed = m_placements[std::size_t(ui)];
    if (u.user >= 0) {
        auto& a = m_userAlloc[std::size_t(u.user)];
        for (const cluster::Placement& p : placed) {
            a[0] -= p.cpuMilli;
            a[1] -= p.memMiB;
            a[2] -= int64_t(std::popcount(p.gpuMask)) * p.gpuMilliPerGpu;
        }
    }
    if (m_lastReleasePos.empty())
        m_lastReleasePos.assign(std::size_t(m_cluster.nodeCount()), SIZE_MAX);
    for (std::size_t k = 0; k < placed.size(); ++k) {
        release(placed[k], taskOf(u, int(k)).request);
        m_lastReleasePos[std::size_t(placed[k].node)] = m_releasedNodes.size();
        m_releasedNodes.push_back(placed[k].node);
    }
    bumpReleaseEpoch();
    ++m_stateStamp;
    if (m_easy.active())
        m_easy.finished(ui, expectedEnd(ui), m_cluster, m_placements);
    placed.clear();
    placed.shrink_to_fit();
    m_running.erase(std::find(m_running.begin(), m_running.end(), ui));
    m_runningEnds.erase({ expectedEnd(ui), ui });
}

void Replay::recordWait(int32_t ui, double t, const policy::PlacementDecision* d, int attempt, int64_t statePos)
{
    if (!m_rec.decisions || m_waitRecorded[std::size_t(ui)])
        return;
    m_waitRecorded[std::size_t(ui)] = 1;
    m_wait->markLogged(ui);
    const Unit& u = m_units[std::size_t(ui)];
    Decision rec;
    rec.timeS = t;
    rec.job = u.job;
    rec.task = u.firstTask;
    rec.node = -1;
    rec.outcome = Outcome::Waited;
    rec.feasible = d ? d->feasible : 0;
    rec.statePos = statePos;
    const std::size_t logged = m_out.decisions.add(rec, d ? d->top : std::vector<policy::Candidate> {});
    if (d && m_attemptByPolicy)
        for (ReplayObserver* o : m_observers)
            o->logged(m_out.decisions, logged, attempt);
}

void Replay::noteBlockedHead(int32_t ui)
{
    char& seen = m_blockedWithRoom[std::size_t(ui)];
    if (seen)
        return;
    const Unit& u = m_units[std::size_t(ui)];
    int64_t cpu = 0, mem = 0, gpu = 0;
    for (int32_t k = 0; k < u.count; ++k) {
        const trace::TaskRequest& r = taskOf(u, k).request;
        cpu += r.cpuMilli;
        mem += r.memMiB;
        gpu += r.totalGpuMilli();
    }
    if (gpu > 0 && cpu <= m_cluster.totalCpu() - m_cluster.allocCpu() && mem <= m_cluster.totalMem() - m_cluster.allocMem()
        && gpu <= m_cluster.totalGpuMilli() - m_cluster.allocGpuMilli()) {
        seen = 1;
        ++m_out.gpuBlockedWithRoom;
    }
}

int32_t Replay::shorterQueued(int32_t ui) const
{
    const double req = m_units[std::size_t(ui)].req;
    const WaitQueue::Set& all = m_wait->all();
    int32_t n = 0;
    for (auto it = std::next(all.find(m_wait->entryOf(ui))); it != all.end(); ++it)
        n += m_units[std::size_t(it->unit)].req < req ? 1 : 0;
    return n;
}

double Replay::userShare(int32_t user) const
{
    if (user < 0 || std::size_t(user) >= m_userAlloc.size())
        return 0;
    const auto& a = m_userAlloc[std::size_t(user)];
    double s = 0;
    if (m_cluster.totalCpu())
        s = std::max(s, double(a[0]) / double(m_cluster.totalCpu()));
    if (m_cluster.totalMem())
        s = std::max(s, double(a[1]) / double(m_cluster.totalMem()));
    if (m_cluster.totalGpuMilli())
        s = std::max(s, double(a[2]) / double(m_cluster.totalGpuMilli()));
    return s;
}

double Replay::keyOf(int32_t ui, double t) const
{
    const Unit& u = m_units[std::size_t(ui)];
    policy::QueueItem item { u.submit, u.req, u.procs, u.priority, 0 };
    if (m_opt.queue == policy::QueueOrder::FairShare)
        item.userShare = userShare(u.user);
    return policy::queueKey(m_opt.queue, item, t);
}

bool Replay::attempt(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    const uint32_t s = m_wait->signatureOf(ui);
    // Within one pass resources are only taken, never freed: a request that did not fit once
    // will not fit later in the pass, so units with the same requests are not tried again.
    // Across passes the same holds until something is released, when a try would change nothing:
    // the policy fails only when nothing fits, the failure was at the first task (nothing was
    // placed, nothing drawn), and this unit's first wait is already logged.
    const bool memoFails
        = m_memo && m_sigFailEpoch[s] == m_releaseEpoch && (!m_rec.decisions || m_waitRecorded[std::size_t(ui)]);
    if (m_sigFailPass[s] == m_pass || memoFails) {
        m_sigFailPass[s] = m_pass;
        return false;
    }
    // Its first task fits no node: the try would fail there, placing and drawing nothing, and log
    // the same wait (no candidates, the state before it).
    const trace::TaskRequest& first = taskOf(m_units[std::size_t(ui)], 0).request;
    if (m_memo
        && !(failureKnown(s) ? fitsOnNodesReleasedSince(m_sigFailEpoch[s], first) : mayFitSomewhere(first))) {
        m_sigFailPass[s] = m_pass;
        m_sigFailEpoch[s] = m_releaseEpoch;
        return false;
    }
    if (tryPlace(ui, t, placed, ds))
        return true;
    if (ds.back().skip)
        return false; // passed over, not refused for room: its signature is still in play
    m_sigFailPass[s] = m_pass;
    if (m_memo && ds.size() == 1)
        m_sigFailEpoch[s] = m_releaseEpoch;
    return false;
}

void Replay::schedule(double t)
{
    if (m_wait->empty())
        return;
    if (!m_keysFixed)
        m_wait->rekey([&](int32_t ui) { return keyOf(ui, t); });
    ++m_pass;
    m_passQueued = int32_t(m_wait->size());
    m_headWaitS = t - m_wait->all().begin()->submitS;
    std::vector<cluster::Placement> placed;
    std::vector<policy::PlacementDecision> ds;
    auto logWait = [&](int32_t ui) {
        recordWait(ui, t, ds.empty() ? nullptr : &ds.back(), int(ds.size()) - 1,
            ds.empty() ? statePos() : m_tryPos + int64_t(ds.size()) - 1);
    };

    // Units start in queue order until one does not: the head. Without backfilling that ends the
    // pass, so a pass costs what it starts, whatever the queue's length.
    QueueEntry head;
    bool blocked = false;
    const WaitQueue::Set& all = m_wait->all();
    // HeadRule::Commit: the committed head goes first; only once it starts does the order pick.
    const bool roomMaking = m_opt.preemption != Preemption::None || m_opt.migration != Migration::None;
    auto skippedLast = [&] { return !ds.empty() && ds.back().skip; };
    auto start = [&](int32_t ui) { return attempt(ui, t, placed, ds) || (roomMaking && !skippedLast() && makeRoom(ui, t, placed, ds)); };
    if (m_committedHead >= 0) {
        const QueueEntry e = m_wait->entryOf(m_committedHead);
        ds.clear();
        if (start(e.unit)) {
            commit(e.unit, t, placed, ds);
            m_committedHead = -1;
        } else {
            logWait(e.unit);
            noteBlockedHead(e.unit);
            head = e;
            blocked = true;
        }
    }
    // A policy that skips may pass over units until the head: they stay queued. Skipped units
    // left on an idle cluster would wait for nothing: the pass is then made again without skips.
    m_skipsLeft = m_policy->skips();
    for (bool skipped = false;; skipped = false) {
        for (auto it = all.begin(); !blocked && it != all.end();) {
            const QueueEntry e = *it++; // commit erases e only (an eviction adds units, which moves nothing)
            ds.clear();
            if (start(e.unit)) {
                commit(e.unit, t, placed, ds);
                continue;
            }
            logWait(e.unit);
            if (skippedLast()) {
                skipped = true;
                --m_skipsLeft;
                continue;
            }
            noteBlockedHead(e.unit);
            head = e;
            blocked = true;
            if (m_opt.head == HeadRule::Commit)
                m_committedHead = e.unit;
            break;
        }
        if (blocked || !skipped || !m_running.empty())
            break;
        m_skipsLeft = 0;
    }
    m_skipsLeft = 0;
    if (!blocked || m_opt.backfill == Backfill::None) {
        m_easy.clear(); // no head waits for a reservation
        return;
    }
    backfill(t, head, placed, ds);
}

} // namespace schedlab::sim::detail
