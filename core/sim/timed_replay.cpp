#include "timed_replay.h"

#include "metrics/fragmentation.h"
#include "metrics/power_tracker.h"
#include "metrics/windowed_percentile.h"
#include "trace/import_context.h"
#include "wait_queue.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_map>

namespace schedlab::sim {

namespace {

constexpr uint64_t kPolicyStream = 0xD1B54A32D192ED03ull;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Unit {
    int32_t job = -1, firstTask = -1, count = 0;
    double submit = 0, run = 0, req = 0, procs = 1, loggedStart = -1;
    int32_t user = -1, priority = 0;
    int16_t qos = -1;
};

// At equal times: finishes free resources before arrivals and logged starts are handled, and ticks
// sample the state after all of them.
enum class EventType : uint8_t { Finish = 0, Arrival = 1, LoggedStart = 2, Tick = 3 };

struct Event {
    double t;
    EventType type;
    uint64_t seq;
    int32_t unit;
    bool operator>(const Event& o) const
    {
        if (t != o.t)
            return t > o.t;
        if (type != o.type)
            return type > o.type;
        return seq > o.seq;
    }
};

class Replay {
public:
    Replay(const trace::Trace& trace, policy::PlacementPolicy& policy, const TimedOptions& options)
        : m_trace(trace)
        , m_policy(&policy)
        , m_opt(options)
        , m_cluster(trace)
        , m_frag(m_cluster, metrics::TypicalWorkload::fromTrace(trace))
        , m_power(trace, m_cluster, options.powerOffIdle)
        , m_p99(options.p99WindowS)
        , m_rng(options.seed ^ kPolicyStream)
        , m_logged(policy.name() == "logged")
        , m_heat(int(trace.nodes.size()))
    {
    }

    Result<TimedResult> run(ProgressFn progressFn, const CancelToken& cancel);

private:
    void buildUnits();
    void push(double t, EventType type, int32_t unit) { m_events.push(Event { t, type, m_seq++, unit }); }
    void advanceTo(double t);
    void nodeChanged(int node)
    {
        m_frag.nodeChanged(node);
        m_power.nodeChanged(node);
    }
    int64_t journalPos() const { return m_opt.journal ? m_opt.journal->position() : -1; }
    void allocate(const Placement& p, const trace::TaskRequest& r)
    {
        m_cluster.allocate(p);
        if (m_opt.journal)
            m_opt.journal->allocate(p, m_cluster);
        nodeChanged(p.node);
        m_policy->onAllocated(p, r);
    }
    void release(const Placement& p, const trace::TaskRequest& r)
    {
        m_cluster.release(p);
        if (m_opt.journal && m_undoing)
            m_opt.journal->undoAllocate(p, m_cluster);
        else if (m_opt.journal)
            m_opt.journal->release(p, m_cluster);
        nodeChanged(p.node);
        m_policy->onReleased(p, r);
    }
    const trace::Task& taskOf(const Unit& u, int k) const { return m_trace.tasks[std::size_t(u.firstTask + k)]; }
    /// Places every task of the unit with the policy; on failure rolls back and returns false.
    bool tryPlace(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    /// `referenced`: a decision will point into the tentative placements (the unit's first wait),
    /// so the journal keeps them; otherwise they are taken back from it.
    void rollback(int32_t ui, std::vector<Placement>& placed, bool referenced = false);
    void commit(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    void finish(int32_t ui);
    void schedule(double t);
    /// The queue policy's key of a waiting unit at time t.
    double keyOf(int32_t ui, double t) const;
    /// Tries to place a unit (tryPlace) unless it is known to fail: its request signature failed
    /// earlier in this pass, or failed at its first task since the last release (then, for a
    /// policy that fails only when nothing fits, trying again would change nothing). On failure
    /// the signature is marked; `ds` stays empty when nothing was tried.
    bool attempt(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    /// `released`: an order-free hash of the running units released to reach the reservation.
    double shadowTime(int32_t head, double t, ClusterState& atShadow, uint64_t& released) const;
    bool fitsFirstFit(ClusterState& state, const Unit& u, std::vector<char>* nodesUsed = nullptr) const;
    /// EASY's second chance: `placed` (taken now) also fits at the reservation `atShadow`, at the
    /// same nodes and GPUs, and the head still fits there by first fit. When so, `atShadow` keeps
    /// them. `headNodes` caches the nodes of the head's placement there (empty = not known).
    bool fitsBesideHead(ClusterState& atShadow, const std::vector<Placement>& placed, const Unit& head,
        std::vector<char>& headNodes) const;
    double userShare(int32_t user) const;
    void sample(double t);
    void recordWait(int32_t ui, double t, const policy::PlacementDecision* d, int64_t statePos);

    const trace::Trace& m_trace;
    policy::PlacementPolicy* m_policy; ///< the fork's policy once the fork time is reached
    int64_t m_tryPos = 0; ///< journal position when the current tryPlace started
    bool m_undoing = false; ///< releases take tentative allocations back from the journal
    TimedOptions m_opt;
    ClusterState m_cluster;
    metrics::FragTracker m_frag;
    metrics::PowerTracker m_power;
    metrics::WindowedPercentile m_p99;
    Rng m_rng;
    bool m_logged;

    std::vector<Unit> m_units;
    std::vector<UnitResult> m_results;
    std::vector<std::vector<Placement>> m_placements;
    std::vector<char> m_waitRecorded;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    uint64_t m_seq = 0;
    std::unique_ptr<WaitQueue> m_wait; ///< made by buildUnits
    bool m_keysFixed = true; ///< the queue order's key does not change with time
    uint32_t m_pass = 0; ///< scheduling passes so far
    int32_t m_passQueued = 0; ///< queue length when the current pass began
    uint64_t m_releaseEpoch = 0; ///< bumped whenever resources are freed or the policy changes
    bool m_memo = false; ///< the policy fails only when nothing fits (failsOnlyWhenInfeasible)
    std::vector<uint32_t> m_sigFailPass; ///< by signature: pass in which it last failed
    std::vector<uint64_t> m_sigFailEpoch; ///< by signature: epoch of its last failure at task 0
    /// EASY, deterministic policies: a unit of this signature that fit but would have delayed the
    /// head was refused with the cluster, head and reservation of `key`; any unit of the signature
    /// with at least `minReqS` requested is refused again while `key` holds.
    struct Refusal {
        uint64_t key = 0;
        double minReqS = 0;
    };
    std::vector<Refusal> m_sigRefusal;
    uint64_t m_stateStamp = 0; ///< bumped whenever a unit starts or finishes
    /// The most any one node has free, for the state of `stamp`: a request above it fits nowhere.
    struct FreeMax {
        uint64_t stamp = UINT64_MAX;
        int64_t cpu = 0, mem = 0;
        int32_t gpuShare = 0; ///< free milli of the freest GPU
        int32_t wholeGpus = 0; ///< fully free GPUs on the best node
    };
    mutable FreeMax m_freeMax;
    /// False only when the request certainly fits no node now (a cheap necessary test).
    bool mayFitSomewhere(const trace::TaskRequest& r) const;
    double m_headWaitS = 0; ///< wait of the head of the current scheduling pass
    std::vector<int32_t> m_running;
    std::vector<std::array<int64_t, 3>> m_userAlloc; // cpu, mem, gpu per user
    TimedResult m_out;
    NodeHeatRecorder m_heat;
    double m_lastT = 0, m_firstT = 0;
    bool m_started = false;
    double m_cpuInt = 0, m_memInt = 0, m_gpuInt = 0, m_fragInt = 0;
    int64_t m_done = 0;
};

void Replay::buildUnits()
{
    const trace::FeasibilityChecker feasible(m_trace);
    int32_t maxUser = -1;
    for (std::size_t j = 0; j < m_trace.jobs.size(); ++j) {
        const trace::Job& job = m_trace.jobs[j];
        auto add = [&](int32_t first, int32_t count, double submit, double run) {
            if (submit < 0 || run < 0) {
                ++m_out.skipped;
                return;
            }
            Unit u;
            u.job = int32_t(j);
            u.firstTask = first;
            u.count = count;
            u.submit = submit;
            u.run = run;
            u.req = job.requestedTimeS > 0 && job.gang ? job.requestedTimeS : run;
            double cpu = 0;
            u.loggedStart = kInf;
            for (int32_t k = 0; k < count; ++k) {
                const trace::Task& task = m_trace.tasks[std::size_t(first + k)];
                cpu += double(task.request.cpuMilli);
                if (task.logged.startTimeS >= 0)
                    u.loggedStart = std::min(u.loggedStart, task.logged.startTimeS);
            }
            if (u.loggedStart == kInf)
                u.loggedStart = -1;
            u.procs = std::max(1.0, cpu / 1000.0);
            u.user = job.user;
            u.priority = job.priority;
            u.qos = job.qos;
            maxUser = std::max(maxUser, job.user);
            m_units.push_back(u);
        };
        if (job.gang) {
            add(int32_t(job.firstTask), int32_t(job.taskCount), job.submitTimeS, job.runTimeS);
        } else {
            for (uint32_t k = 0; k < job.taskCount; ++k) {
                const trace::Task& task = m_trace.tasks[job.firstTask + k];
                add(int32_t(job.firstTask + k), 1, job.submitTimeS < 0 ? -1 : job.submitTimeS + task.submitOffsetS,
                    m_trace.taskRunTimeS(job, task));
            }
        }
    }
    m_userAlloc.assign(std::size_t(maxUser + 2), { 0, 0, 0 });
    // Request signatures: units with the same requests for every task share one (a hash, as the
    // per-pass "known to fail" rule always used).
    std::vector<uint32_t> sigOf(m_units.size());
    {
        std::unordered_map<uint64_t, uint32_t> ids;
        for (std::size_t i = 0; i < m_units.size(); ++i) {
            const Unit& u = m_units[i];
            uint64_t h = 1469598103934665603ull ^ uint64_t(u.count);
            for (int32_t k = 0; k < u.count; ++k) {
                const trace::TaskRequest& r = taskOf(u, k).request;
                for (uint64_t v : { uint64_t(r.cpuMilli), uint64_t(r.memMiB), uint64_t(r.numGpu), uint64_t(r.gpuMilli),
                         uint64_t(r.gpuModelMask) })
                    h = (h ^ v) * 1099511628211ull;
            }
            sigOf[i] = ids.emplace(h, uint32_t(ids.size())).first->second;
        }
        m_sigFailPass.assign(ids.size(), 0);
        m_sigFailEpoch.assign(ids.size(), UINT64_MAX);
        m_sigRefusal.assign(ids.size(), Refusal {});
        m_wait = std::make_unique<WaitQueue>(std::move(sigOf), uint32_t(ids.size()));
    }
    m_keysFixed = m_opt.queue == policy::QueueOrder::Fcfs || m_opt.queue == policy::QueueOrder::Sjf
        || m_opt.queue == policy::QueueOrder::Priority || m_opt.queue == policy::QueueOrder::F1;
    m_results.resize(m_units.size());
    m_placements.resize(m_units.size());
    m_waitRecorded.assign(m_units.size(), 0);
    ClusterState empty(m_trace);
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const Unit& u = m_units[i];
        UnitResult& r = m_results[i];
        r.job = u.job;
        r.firstTask = u.firstTask;
        r.taskCount = u.count;
        r.submitS = u.submit;
        r.runS = u.run;
        bool ok = true;
        for (int32_t k = 0; k < u.count && ok; ++k)
            ok = feasible.canEverHost(taskOf(u, k).request);
        if (ok && u.count > 1)
            ok = fitsFirstFit(empty, u);
        r.failed = !ok;
    }
}

bool Replay::fitsFirstFit(ClusterState& state, const Unit& u, std::vector<char>* nodesUsed) const
{
    std::vector<Placement> placed;
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
    for (const Placement& p : placed)
        state.release(p);
    return ok;
}

bool Replay::fitsBesideHead(ClusterState& atShadow, const std::vector<Placement>& placed, const Unit& head,
    std::vector<char>& headNodes) const
{
    std::size_t taken = 0;
    bool fitsThere = true;
    for (const Placement& p : placed) {
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
        for (const Placement& p : placed)
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

void Replay::advanceTo(double t)
{
    if (m_started && t > m_lastT) {
        const double dt = t - m_lastT;
        m_cpuInt += dt * (m_cluster.totalCpu() ? double(m_cluster.allocCpu()) / double(m_cluster.totalCpu()) : 0);
        m_memInt += dt * (m_cluster.totalMem() ? double(m_cluster.allocMem()) / double(m_cluster.totalMem()) : 0);
        m_gpuInt += dt
            * (m_cluster.totalGpuMilli() ? double(m_cluster.allocGpuMilli()) / double(m_cluster.totalGpuMilli()) : 0);
        m_fragInt += dt * m_frag.gpuFragRate();
    }
    if (!m_started) {
        m_firstT = t;
        m_started = true;
    }
    m_power.advance(t);
    m_lastT = t;
}

bool Replay::tryPlace(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    m_tryPos = journalPos();
    const Unit& u = m_units[std::size_t(ui)];
    const trace::Job& job = m_trace.jobs[std::size_t(u.job)];
    placed.clear();
    ds.clear();
    const int topK = m_opt.recordDecisions ? m_opt.topK : 0;
    for (int32_t k = 0; k < u.count; ++k) {
        const trace::Task& task = taskOf(u, k);
        policy::PlacementDecision d
            = m_policy->place(m_cluster,
                policy::PlacementRequest { task.request, &job, &task, t, m_passQueued, m_headWaitS, u.submit },
                m_rng, topK);
        if (d.node < 0) {
            ds.push_back(std::move(d));
            rollback(ui, placed, m_opt.recordDecisions && !m_waitRecorded[std::size_t(ui)]);
            return false;
        }
        placed.push_back(m_cluster.makePlacement(d.node, task.request, d.gpuMask));
        allocate(placed.back(), task.request);
        ds.push_back(std::move(d));
    }
    return true;
}

void Replay::rollback(int32_t ui, std::vector<Placement>& placed, bool referenced)
{
    m_undoing = !referenced;
    const Unit& u = m_units[std::size_t(ui)];
    for (std::size_t k = placed.size(); k-- > 0;)
        release(placed[k], taskOf(u, int(k)).request);
    placed.clear();
    m_undoing = false;
}

void Replay::commit(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    const Unit& u = m_units[std::size_t(ui)];
    UnitResult& r = m_results[std::size_t(ui)];
    r.startS = t;
    r.finishS = t + u.run;
    m_p99.add(t, t - u.submit);
    if (m_opt.recordDecisions)
        for (std::size_t k = 0; k < placed.size(); ++k) {
            Decision d;
            d.timeS = t;
            d.job = u.job;
            d.task = u.firstTask + int32_t(k);
            d.node = placed[k].node;
            d.feasible = ds[k].feasible;
            d.statePos = m_tryPos < 0 ? -1 : m_tryPos + int64_t(k);
            m_out.decisions.add(d, ds[k].top, ds[k].reward);
        }
    if (u.user >= 0) {
        auto& a = m_userAlloc[std::size_t(u.user)];
        for (const Placement& p : placed) {
            a[0] += p.cpuMilli;
            a[1] += p.memMiB;
            a[2] += int64_t(std::popcount(p.gpuMask)) * p.gpuMilliPerGpu;
        }
    }
    m_placements[std::size_t(ui)] = std::move(placed);
    m_wait->erase(ui);
    ++m_stateStamp;
    m_running.push_back(ui);
    push(r.finishS, EventType::Finish, ui);
}

void Replay::finish(int32_t ui)
{
    const Unit& u = m_units[std::size_t(ui)];
    std::vector<Placement>& placed = m_placements[std::size_t(ui)];
    if (u.user >= 0) {
        auto& a = m_userAlloc[std::size_t(u.user)];
        for (const Placement& p : placed) {
            a[0] -= p.cpuMilli;
            a[1] -= p.memMiB;
            a[2] -= int64_t(std::popcount(p.gpuMask)) * p.gpuMilliPerGpu;
        }
    }
    for (std::size_t k = 0; k < placed.size(); ++k)
        release(placed[k], taskOf(u, int(k)).request);
    ++m_releaseEpoch;
    ++m_stateStamp;
    placed.clear();
    placed.shrink_to_fit();
    m_running.erase(std::find(m_running.begin(), m_running.end(), ui));
    ++m_out.completed;
    ++m_done;
}

void Replay::recordWait(int32_t ui, double t, const policy::PlacementDecision* d, int64_t statePos)
{
    if (!m_opt.recordDecisions || m_waitRecorded[std::size_t(ui)])
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
    m_out.decisions.add(rec, d ? d->top : std::vector<policy::Candidate> {}, d ? d->reward : std::vector<float> {});
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

double Replay::shadowTime(int32_t head, double t, ClusterState& atShadow, uint64_t& released) const
{
    released = 0;
    // Release running units in order of their expected end (start + requested time) on a copy of
    // the cluster until the head job fits: that end is its reservation (EASY).
    std::vector<std::pair<double, int32_t>> ends;
    for (int32_t r : m_running)
        ends.push_back({ std::max(t, m_results[std::size_t(r)].startS + m_units[std::size_t(r)].req), r });
    std::sort(ends.begin(), ends.end());
    const Unit& h = m_units[std::size_t(head)];
    int64_t needCpu = 0, needMem = 0, needGpu = 0;
    for (int32_t k = 0; k < h.count; ++k) {
        const trace::TaskRequest& q = taskOf(h, k).request;
        needCpu += q.cpuMilli;
        needMem += q.memMiB;
        needGpu += q.needsGpu() ? q.totalGpuMilli() : 0;
    }
    for (const auto& [end, r] : ends) {
        for (const Placement& p : m_placements[std::size_t(r)])
            atShadow.release(p);
        released += (uint64_t(r) + 1) * 0x9E3779B97F4A7C15ull;
        // Not enough free in the whole cluster: first fit cannot succeed (and changes nothing).
        if (needCpu > atShadow.totalCpu() - atShadow.allocCpu() || needMem > atShadow.totalMem() - atShadow.allocMem()
            || needGpu > atShadow.totalGpuMilli() - atShadow.allocGpuMilli())
            continue;
        if (fitsFirstFit(atShadow, h))
            return end;
    }
    return kInf;
}

double Replay::keyOf(int32_t ui, double t) const
{
    const Unit& u = m_units[std::size_t(ui)];
    policy::QueueItem item { u.submit, u.req, u.procs, u.priority, 0 };
    if (m_opt.queue == policy::QueueOrder::FairShare)
        item.userShare = userShare(u.user);
    return policy::queueKey(m_opt.queue, item, t);
}

bool Replay::mayFitSomewhere(const trace::TaskRequest& r) const
{
    FreeMax& f = m_freeMax;
    if (f.stamp != m_stateStamp) {
        f = FreeMax { m_stateStamp, 0, 0, 0, 0 };
        for (int n = 0; n < m_cluster.nodeCount(); ++n) {
            f.cpu = std::max(f.cpu, m_cluster.freeCpu(n));
            f.mem = std::max(f.mem, m_cluster.freeMem(n));
            f.wholeGpus = std::max(f.wholeGpus, m_cluster.fullyFreeGpus(n));
            for (int g = 0; g < m_cluster.numGpu(n); ++g)
                f.gpuShare = std::max(f.gpuShare, m_cluster.gpuFree(n, g));
        }
    }
    if (r.cpuMilli > f.cpu || r.memMiB > f.mem)
        return false;
    if (!r.needsGpu())
        return true;
    return r.isGpuShare() ? r.gpuMilli <= f.gpuShare : r.numGpu <= f.wholeGpus;
}

bool Replay::attempt(int32_t ui, double t, std::vector<Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    const uint32_t s = m_wait->signatureOf(ui);
    // Within one pass resources are only taken, never freed: a request that did not fit once
    // will not fit later in the pass, so units with the same requests are not tried again.
    // Across passes the same holds until something is released, when a try would change nothing:
    // the policy fails only when nothing fits, the failure was at the first task (nothing was
    // placed, nothing drawn), and this unit's first wait is already logged.
    const bool memoFails = m_memo && m_sigFailEpoch[s] == m_releaseEpoch
        && (!m_opt.recordDecisions || m_waitRecorded[std::size_t(ui)]);
    if (m_sigFailPass[s] == m_pass || memoFails) {
        m_sigFailPass[s] = m_pass;
        return false;
    }
    // Its first task fits no node: the try would fail there, placing and drawing nothing, and log
    // the same wait (no candidates, the state before it).
    if (m_memo && !mayFitSomewhere(taskOf(m_units[std::size_t(ui)], 0).request)) {
        m_sigFailPass[s] = m_pass;
        m_sigFailEpoch[s] = m_releaseEpoch;
        return false;
    }
    if (tryPlace(ui, t, placed, ds))
        return true;
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
    std::vector<Placement> placed;
    std::vector<policy::PlacementDecision> ds;
    auto logWait = [&](int32_t ui) {
        recordWait(ui, t, ds.empty() ? nullptr : &ds.back(), ds.empty() ? journalPos() : m_tryPos + int64_t(ds.size()) - 1);
    };

    // Units start in queue order until one does not: the head. Without backfilling that ends the
    // pass, so a pass costs what it starts, whatever the queue's length.
    QueueEntry head;
    bool blocked = false;
    const WaitQueue::Set& all = m_wait->all();
    for (auto it = all.begin(); it != all.end();) {
        const QueueEntry e = *it++; // commit erases e only
        ds.clear();
        if (attempt(e.unit, t, placed, ds)) {
            commit(e.unit, t, placed, ds);
            continue;
        }
        logWait(e.unit);
        head = e;
        blocked = true;
        break;
    }
    if (!blocked || m_opt.backfill == Backfill::None)
        return;

    // EASY: a later job may start now if it ends (by its requested time) before the head's
    // reservation, or if the head still fits at the reservation with this job running. Only the
    // first unit of each request signature still in play is tried (a failure stands for the rest
    // of its signature), plus units whose first wait is still to be logged, all in queue order.
    auto atShadow = std::make_unique<ClusterState>(m_cluster);
    uint64_t released = 0;
    const double shadow = shadowTime(head.unit, t, *atShadow, released);
    // What a refusal depends on: the cluster (and so the running units), the head, the units
    // released to reach its reservation and the reservation's time. With a policy that draws
    // nothing, the same unit there gets the same placement and the same refusal; a later time
    // only makes "ends before the reservation" harder. A backfill changes the stamp.
    const bool refusalsHold = m_memo && !m_policy->drawsRandomly(m_opt.recordDecisions ? m_opt.topK : 0);
    auto refusalKey = [&] {
        uint64_t k = m_stateStamp * 0xff51afd7ed558ccdull ^ released;
        k = (k ^ uint64_t(head.unit)) * 0xc4ceb9fe1a85ec53ull;
        double sh = shadow;
        uint64_t bits;
        std::memcpy(&bits, &sh, sizeof bits);
        return (k ^ bits) | 1; // never 0, the "none" key
    };
    std::set<QueueEntry> frontier; // next unit of each live signature
    for (uint32_t s : m_wait->activeSignatures()) {
        if (m_sigFailPass[s] == m_pass)
            continue;
        const WaitQueue::Set& units = m_wait->ofSignature(s);
        auto it = units.upper_bound(head);
        if (it == units.end())
            continue;
        if (m_memo && m_sigFailEpoch[s] == m_releaseEpoch
            && (!m_opt.recordDecisions || m_waitRecorded[std::size_t(it->unit)])) {
            m_sigFailPass[s] = m_pass; // attempt() would say so at this unit: nothing to try
            continue;
        }
        frontier.insert(*it);
    }
    std::vector<char> headNodes; // nodes the head's first-fit placement at the reservation uses
    const WaitQueue::Set& unlogged = m_wait->unlogged();
    auto un = unlogged.upper_bound(head);
    while (!frontier.empty() || un != unlogged.end()) {
        if (frontier.empty() || (un != unlogged.end() && *un < *frontier.begin())) {
            // Before every live signature's next unit: its signature failed in this pass.
            const int32_t ui = (un++)->unit;
            ds.clear();
            logWait(ui);
            continue;
        }
        const QueueEntry e = *frontier.begin();
        frontier.erase(frontier.begin());
        if (un != unlogged.end() && un->unit == e.unit)
            ++un;
        const int32_t ui = e.unit;
        const Unit& u = m_units[std::size_t(ui)];
        const uint32_t sig = m_wait->signatureOf(ui);
        const WaitQueue::Set& units = m_wait->ofSignature(sig);
        ds.clear();
        if (refusalsHold && m_sigRefusal[sig].key == refusalKey() && u.req >= m_sigRefusal[sig].minReqS
            && (!m_opt.recordDecisions || m_waitRecorded[std::size_t(ui)])) {
            if (auto nx = units.upper_bound(e); nx != units.end())
                frontier.insert(*nx);
            continue; // refused again: nothing to log, nothing changes
        }
        if (!attempt(ui, t, placed, ds)) {
            logWait(ui);
            continue; // its signature is out of play for this pass
        }
        bool allowed = t + u.req <= shadow;
        if (!allowed && shadow < kInf)
            allowed = fitsBesideHead(*atShadow, placed, m_units[std::size_t(head.unit)], headNodes);
        if (allowed) {
            commit(ui, t, placed, ds);
            ++m_out.backfilled;
        } else {
            rollback(ui, placed);
            ds.clear();
            logWait(ui);
            if (refusalsHold) {
                Refusal& r = m_sigRefusal[sig];
                const uint64_t key = refusalKey();
                if (r.key != key)
                    r = Refusal { key, u.req };
                r.minReqS = std::min(r.minReqS, u.req);
            }
        }
        if (auto nx = units.upper_bound(e); nx != units.end())
            frontier.insert(*nx);
    }
}

void Replay::sample(double t)
{
    SeriesPoint p;
    p.timeS = t;
    p.cpuUtil = m_cluster.totalCpu() ? double(m_cluster.allocCpu()) / double(m_cluster.totalCpu()) : 0;
    p.memUtil = m_cluster.totalMem() ? double(m_cluster.allocMem()) / double(m_cluster.totalMem()) : 0;
    p.gpuUtil = m_cluster.totalGpuMilli() ? double(m_cluster.allocGpuMilli()) / double(m_cluster.totalGpuMilli()) : 0;
    p.activeNodes = m_cluster.activeNodes();
    p.gpuFragRate = m_frag.gpuFragRate();
    p.cpuFragRate = m_frag.cpuFragRate();
    p.gpuFragAmount = m_frag.gpuFragAmount();
    p.p99WaitS = m_p99.at(t);
    p.queued = int32_t(m_wait->size());
    p.running = int32_t(m_running.size());
    p.powerW = m_power.powerW();
    m_out.series.push_back(p);
    if (m_opt.recordHeat)
        m_heat.offer(t, m_cluster);
}

Result<TimedResult> Replay::run(ProgressFn progressFn, const CancelToken& cancel)
{
    const auto wall0 = std::chrono::steady_clock::now();
    m_policy->setTieBreak(m_opt.tieBreak, m_opt.seed);
    m_policy->reset(policy::PolicyContext { m_trace, &m_frag }, m_cluster);
    if (m_opt.journal)
        m_opt.journal->begin(m_cluster);
    buildUnits();
    m_memo = m_policy->failsOnlyWhenInfeasible();
    m_out.policy = m_policy->name();
    m_out.queue = policy::queueOrderName(m_opt.queue);
    m_out.backfill = m_opt.backfill == Backfill::Easy ? "easy" : "none";
    m_out.seed = m_opt.seed;
    m_out.units = int64_t(m_units.size());
    if (m_units.empty())
        return makeError(ErrorCode::Empty, "no job has both a submit time and a run time; nothing to replay");

    double first = kInf, last = -kInf;
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const Unit& u = m_units[i];
        first = std::min(first, u.submit);
        last = std::max(last, u.submit + u.run);
        if (m_logged) {
            if (u.loggedStart >= 0)
                push(u.loggedStart, EventType::LoggedStart, int32_t(i));
            else
                m_results[i].failed = true, push(u.submit, EventType::Arrival, int32_t(i));
        } else {
            push(u.submit, EventType::Arrival, int32_t(i));
        }
    }
    const double tick = m_opt.tickS > 0 ? m_opt.tickS : std::max(60.0, (last - first) / 4000.0);
    push(first, EventType::Tick, -1);

    ThrottledProgress progress(std::move(progressFn));
    int64_t processed = 0;
    while (!m_events.empty()) {
        // Only the next metrics tick is left: the replay is over; do not integrate idle time past
        // the last finish.
        if (m_events.size() == 1 && m_events.top().type == EventType::Tick && m_running.empty() && m_wait->empty())
            break;
        const double t = m_events.top().t;
        advanceTo(t);
        if (m_opt.forkPolicy && m_policy != m_opt.forkPolicy && t >= m_opt.forkAtS) {
            m_policy = m_opt.forkPolicy;
            m_policy->setTieBreak(m_opt.tieBreak, m_opt.seed);
            m_policy->reset(policy::PolicyContext { m_trace, &m_frag }, m_cluster);
            m_memo = m_policy->failsOnlyWhenInfeasible();
            ++m_releaseEpoch; // what failed under the old policy says nothing of the new one
        }
        bool onlyTicks = true, tickHere = false;
        while (!m_events.empty() && m_events.top().t == t) {
            const Event e = m_events.top();
            m_events.pop();
            if ((++processed & 1023) == 0) {
                if (cancel.isCancelled())
                    return makeError(ErrorCode::Cancelled, "replay cancelled");
                progress.report(double(m_done) / double(m_units.size()));
            }
            switch (e.type) {
            case EventType::Finish: finish(e.unit); break;
            case EventType::Arrival:
                if (m_results[std::size_t(e.unit)].failed) {
                    ++m_out.failed;
                    ++m_done;
                    if (m_opt.recordDecisions) {
                        Decision d;
                        d.timeS = t;
                        d.job = m_units[std::size_t(e.unit)].job;
                        d.task = m_units[std::size_t(e.unit)].firstTask;
                        d.outcome = Outcome::Failed;
                        d.statePos = journalPos();
                        m_out.decisions.add(d, {});
                    }
                } else {
                    m_wait->push(QueueEntry { keyOf(e.unit, t), m_units[std::size_t(e.unit)].submit, e.unit },
                        m_opt.recordDecisions);
                }
                break;
            case EventType::LoggedStart: {
                std::vector<Placement> placed;
                std::vector<policy::PlacementDecision> ds;
                if (tryPlace(e.unit, t, placed, ds)) {
                    commit(e.unit, t, placed, ds);
                } else {
                    m_results[std::size_t(e.unit)].failed = true;
                    ++m_out.failed;
                    ++m_done;
                }
                break;
            }
            case EventType::Tick: break;
            }
            if (e.type != EventType::Tick)
                onlyTicks = false;
            else
                tickHere = true;
        }
        if (!onlyTicks && !m_logged)
            schedule(t);
        // Nothing runs and nothing else will happen, yet units wait: only a policy that chose to
        // hold them (the learned policy's wait action) gets here, since units that can never fit
        // fail at arrival. Give it a pass at this tick; if still nothing starts, stop.
        if (onlyTicks && m_events.empty() && m_running.empty() && !m_wait->empty() && !m_logged) {
            schedule(t);
            if (m_running.empty())
                return makeError(ErrorCode::Internal, std::to_string(m_wait->size()) + " jobs wait on an idle cluster and nothing else will happen");
        }
        // Ticks sample the state once everything at this instant, scheduling included, is done.
        if (tickHere) {
            sample(t);
            if (!m_events.empty() || !m_wait->empty())
                push(t + tick, EventType::Tick, -1);
        }
    }
    if (!m_wait->empty())
        return makeError(ErrorCode::Internal, std::to_string(m_wait->size()) + " jobs were left in the queue");
    sample(m_lastT);

    // Summaries over completed units.
    std::vector<double> waits, jcts, bsld;
    double lastFinish = first;
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const UnitResult& r = m_results[i];
        if (r.startS < 0)
            continue;
        const double wait = r.startS - r.submitS;
        waits.push_back(wait);
        jcts.push_back(r.finishS - r.submitS);
        bsld.push_back(std::max(1.0, (wait + r.runS) / std::max(r.runS, 10.0)));
        lastFinish = std::max(lastFinish, r.finishS);
        const int16_t qos = m_units[i].qos;
        const std::string cls = qos >= 0 ? m_trace.qosClasses[std::size_t(qos)] : "none";
        auto sla = m_opt.slaByQos.find(cls);
        const double limit = sla == m_opt.slaByQos.end() ? m_opt.defaultSlaS : sla->second;
        auto& count = m_out.slaViolations[cls];
        if (wait > limit)
            ++count;
    }
    m_out.waitS = distributionOf(waits);
    m_out.jctS = distributionOf(jcts);
    m_out.boundedSlowdown = distributionOf(bsld);
    const double span = m_lastT - m_firstT;
    if (span > 0) {
        m_out.meanCpuUtil = m_cpuInt / span;
        m_out.meanMemUtil = m_memInt / span;
        m_out.meanGpuUtil = m_gpuInt / span;
        m_out.meanGpuFragRate = m_fragInt / span;
    }
    m_out.energyKWh = m_power.energyKWh();
    m_out.makespanS = lastFinish - first;
    m_out.stateHash = m_cluster.stateHash();
    if (m_opt.journal && m_opt.hashEvery > 0) {
        const auto& ds = m_out.decisions.decisions();
        for (std::size_t k = std::size_t(m_opt.hashEvery); k < ds.size(); k += std::size_t(m_opt.hashEvery))
            m_out.stateHashes.push_back({ int64_t(k), m_opt.journal->stateAt(ds[k].statePos)->stateHash() });
    }
    m_out.units_ = std::move(m_results);
    m_out.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    progress.report(1.0);
    m_out.heat = m_heat.take();
    return std::move(m_out);
}

} // namespace

Result<TimedResult> runTimedReplay(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const TimedOptions& options, ProgressFn progress, CancelToken cancel)
{
    for (const trace::Node& n : trace.nodes)
        if (n.numGpu > kMaxGpusPerNode)
            return makeError(ErrorCode::Range, "node " + n.name + " has " + std::to_string(n.numGpu)
                    + " GPUs; the simulator supports at most 64 per node");
    if (trace.nodes.empty())
        return makeError(ErrorCode::Invalid, "the trace has no nodes; load a node list or machine events with it");
    Replay replay(trace, policy, options);
    return replay.run(std::move(progress), cancel);
}

} // namespace schedlab::sim
