#include "timed_replay_impl.h"
#include "recorders.h"

#include "trace/fields.h"

namespace schedlab::sim {

namespace detail {

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
            if ((m_opt.windowFromS >= 0 && submit < m_opt.windowFromS) || (m_opt.windowToS >= 0 && submit >= m_opt.windowToS)) {
                ++m_out.outsideWindow;
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
            const auto [it, added] = ids.emplace(h, uint32_t(ids.size()));
            sigOf[i] = it->second;
            if (added)
                m_sigFirstRequest.push_back(taskOf(u, 0).request);
        }
        m_sigFailPass.assign(ids.size(), 0);
        m_sigFailEpoch.assign(ids.size(), UINT64_MAX);
        m_sigRefusal.assign(ids.size(), Refusal {});
        m_wait = std::make_unique<WaitQueue>(std::move(sigOf), uint32_t(ids.size()));
        std::vector<uint8_t> walkClass(m_sigFirstRequest.size());
        for (std::size_t s = 0; s < walkClass.size(); ++s)
            walkClass[s] = walkClassOf(m_sigFirstRequest[s]);
        m_wait->setWalkClasses(std::move(walkClass), kWalkClasses);
    }
    m_keysFixed = m_opt.queue == policy::QueueOrder::Fcfs || m_opt.queue == policy::QueueOrder::Sjf
        || m_opt.queue == policy::QueueOrder::Priority || m_opt.queue == policy::QueueOrder::F1;
    if (m_keysFixed && m_opt.backfill == Backfill::Easy) {
        // Every unit's place in the queue is known now: EASY finds a refused signature's next
        // candidate (one that ends before the reservation) in O(log n).
        std::vector<QueueEntry> entries(m_units.size());
        std::vector<double> requested(m_units.size());
        for (std::size_t i = 0; i < m_units.size(); ++i) {
            entries[i] = QueueEntry { keyOf(int32_t(i), 0), m_units[i].submit, int32_t(i) };
            requested[i] = m_units[i].req;
        }
        m_wait->indexByRequestedTime(entries, requested);
    }
    m_results.resize(m_units.size());
    m_placements.resize(m_units.size());
    m_waitRecorded.assign(m_units.size(), 0);
    m_blockedWithRoom.assign(m_units.size(), 0);
    cluster::ClusterState empty(m_trace);
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

void Replay::advanceTo(double t)
{
    Integrals& in = m_int;
    if (in.started && t > in.lastT) {
        const double dt = t - in.lastT;
        in.cpu += dt * (m_cluster.totalCpu() ? double(m_cluster.allocCpu()) / double(m_cluster.totalCpu()) : 0);
        in.mem += dt * (m_cluster.totalMem() ? double(m_cluster.allocMem()) / double(m_cluster.totalMem()) : 0);
        in.gpu += dt
            * (m_cluster.totalGpuMilli() ? double(m_cluster.allocGpuMilli()) / double(m_cluster.totalGpuMilli()) : 0);
        in.gpuFrag += dt * m_frag.gpuFragRate();
        in.cpuFrag += dt * m_frag.cpuFragRate();
    }
    if (!in.started) {
        in.firstT = t;
        in.started = true;
    }
    m_power.advance(t);
    in.lastT = t;
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
    for (ReplayObserver* o : m_observers)
        o->sampled(t, m_cluster);
}

Status Replay::setUp()
{
    for (ReplayObserver* o : m_observers)
        o->started(m_cluster);
    m_policy->setTieBreak(m_opt.tieBreak, m_opt.seed);
    resetPolicy();
    buildUnits();
    // Making room frees resources within a pass: the shortcuts that rely on a pass only taking
    // (known failures, dormant signatures) are off.
    const bool roomMaking = m_opt.preemption != Preemption::None || m_opt.migration != Migration::None;
    m_memo = m_policy->failsOnlyWhenInfeasible() && !roomMaking;
    if (roomMaking) {
        m_delayS.assign(m_units.size(), 0);
        m_finishSeq.assign(m_units.size(), 0);
    }
    m_out.preemption = preemptionName(m_opt.preemption);
    m_out.migration = migrationName(m_opt.migration);
    noteSeedUse();
    m_out.policy = m_policy->name();
    m_out.queue = policy::queueOrderName(m_opt.queue);
    m_out.backfill = m_opt.backfill == Backfill::Easy ? "easy" : "none";
    m_out.head = headRuleName(m_opt.head);
    m_out.windowFromS = m_opt.windowFromS;
    m_out.windowToS = m_opt.windowToS;
    m_out.seed = m_opt.seed;
    m_out.scheduleHash = 1469598103934665603ull;
    m_out.units = int64_t(m_units.size());
    if (m_units.empty())
        return makeError(ErrorCode::Empty, "no job has both a submit time and a run time; nothing to replay");
    return {};
}

double Replay::pushArrivals()
{
    double first = kInf, last = -kInf;
    for (std::size_t i = 0; i < m_units.size(); ++i) {
        const Unit& u = m_units[i];
        first = std::min(first, u.submit);
        last = std::max(last, u.submit + u.run);
        if (!m_logged) {
            push(u.submit, EventType::Arrival, int32_t(i));
            continue;
        }
        if (u.loggedStart >= 0 && u.loggedStart < u.submit)
            noteDivergence("start-before-submit", int32_t(i), u.submit,
                "logged start " + trace::formatDouble(u.loggedStart) + " s is before its submit " + trace::formatDouble(u.submit)
                    + " s; started at its submit");
        if (u.loggedStart >= 0) {
            push(std::max(u.loggedStart, u.submit), EventType::LoggedStart, int32_t(i));
        } else {
            noteDivergence("no-logged-start", int32_t(i), u.submit, "the log gives no start time; not started");
            m_results[i].failed = true, push(u.submit, EventType::Arrival, int32_t(i));
        }
    }
    m_firstSubmitS = first;
    m_tickS = m_opt.tickS > 0 ? m_opt.tickS : std::max(60.0, (last - first) / 4000.0);
    push(first, EventType::Tick, -1);
    return first;
}

void Replay::resetPolicy()
{
    const policy::PolicyContext ctx { m_trace, &m_frag };
    m_policy->reset(ctx, m_cluster);
    for (ReplayObserver* o : m_observers)
        o->policyReset(ctx, m_cluster);
}

void Replay::switchToFork()
{
    m_policy = m_opt.fork.policy;
    m_policy->setTieBreak(m_opt.tieBreak, m_opt.seed);
    resetPolicy();
    m_memo = m_policy->failsOnlyWhenInfeasible() && m_finishSeq.empty();
    noteSeedUse();
    bumpReleaseEpoch(); // what failed under the old policy says nothing of the new one
    m_wait->wakeAll();
    m_forkEpoch = m_releaseEpoch;
    m_shadowMemo = {};
}

void Replay::arrive(int32_t unit, double t)
{
    if (!m_results[std::size_t(unit)].failed) {
        m_wait->push(QueueEntry { keyOf(unit, t), m_units[std::size_t(unit)].submit, unit }, m_rec.decisions);
        return;
    }
    ++m_out.failed;
    ++m_done;
    if (m_rec.decisions) {
        Decision d;
        d.timeS = t;
        d.job = m_units[std::size_t(unit)].job;
        d.task = m_units[std::size_t(unit)].firstTask;
        d.outcome = Outcome::Failed;
        d.statePos = statePos();
        m_out.decisions.add(d, {});
    }
}

void Replay::startLogged(int32_t unit, double t)
{
    std::vector<cluster::Placement> placed;
    std::vector<policy::PlacementDecision> ds;
    if (tryPlace(unit, t, placed, ds)) {
        commit(unit, t, placed, ds);
        return;
    }
    explainLoggedFailure(unit, int(ds.size()) - 1, t);
    m_results[std::size_t(unit)].failed = true;
    ++m_out.failed;
    ++m_done;
}

void Replay::handle(const Event& e, double t)
{
    switch (e.type) {
    case EventType::Finish:
        // A unit evicted or moved since this event was pushed ends at another event.
        if (m_finishSeq.empty() || m_finishSeq[std::size_t(e.unit)] == e.seq)
            finish(e.unit);
        break;
    case EventType::Arrival:
        arrive(e.unit, t);
        break;
    case EventType::LoggedStart:
        startLogged(e.unit, t);
        break;
    case EventType::Tick:
        break;
    }
}

Status Replay::eventLoop(ThrottledProgress& progress, const CancelToken& cancel)
{
    int64_t processed = 0;
    while (!m_events.empty()) {
        // Only the next metrics tick is left: the replay is over; do not integrate idle time past
        // the last finish.
        if (m_events.size() == 1 && m_events.top().type == EventType::Tick && m_running.empty() && m_wait->empty())
            break;
        const double t = m_events.top().t;
        advanceTo(t);
        if (m_opt.fork.policy && m_policy != m_opt.fork.policy && t >= m_opt.fork.atS)
            switchToFork();
        bool onlyTicks = true, tickHere = false;
        while (!m_events.empty() && m_events.top().t == t) {
            const Event e = m_events.top();
            m_events.pop();
            if ((++processed & 1023) == 0) {
                if (cancel.isCancelled())
                    return makeError(ErrorCode::Cancelled, "replay cancelled");
                progress.report(double(m_done) / double(m_units.size()));
            }
            handle(e, t);
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
                push(t + m_tickS, EventType::Tick, -1);
        }
    }
    if (!m_wait->empty())
        return makeError(ErrorCode::Internal, std::to_string(m_wait->size()) + " jobs were left in the queue");
    return {};
}

void Replay::summarize()
{
    // Summaries over completed units.
    std::vector<double> waits, jcts, bsld;
    double lastFinish = m_firstSubmitS;
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
        const std::string cls = qos >= 0 ? m_trace.qosClasses[std::size_t(qos)] : "default";
        auto sla = m_opt.slaByQos.find(cls);
        const double limit = sla == m_opt.slaByQos.end() ? m_opt.defaultSlaS : sla->second;
        m_out.slaS[cls] = limit;
        auto& count = m_out.slaViolations[cls];
        if (wait > limit)
            ++count;
    }
    m_out.waitS = distributionOf(waits);
    m_out.jctS = distributionOf(jcts);
    m_out.boundedSlowdown = distributionOf(bsld);
    const double span = m_int.lastT - m_int.firstT;
    if (span > 0) {
        m_out.meanCpuUtil = m_int.cpu / span;
        m_out.meanMemUtil = m_int.mem / span;
        m_out.meanGpuUtil = m_int.gpu / span;
        m_out.meanGpuFragRate = m_int.gpuFrag / span;
        m_out.meanCpuFragRate = m_int.cpuFrag / span;
    }
    m_out.energyKWh = m_power.energyKWh();
    m_out.makespanS = lastFinish - m_firstSubmitS;
    m_out.stateHash = m_cluster.stateHash();
    m_out.seedUse = m_seedForSchedule ? "schedule" : m_seedForCandidates ? "candidates" : "none";
}

Result<TimedResult> Replay::run(ProgressFn progressFn, const CancelToken& cancel)
{
    const auto wall0 = std::chrono::steady_clock::now();
    if (Status s = setUp(); !s)
        return s.error();
    pushArrivals();
    ThrottledProgress progress(std::move(progressFn));
    if (Status s = eventLoop(progress, cancel); !s)
        return s.error();
    sample(m_int.lastT);
    summarize();
    for (ReplayObserver* o : m_observers)
        o->finished(FinishedEvent { m_cluster, m_out.decisions });
    m_out.units_ = std::move(m_results);
    m_out.simSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    progress.report(1.0);
    return std::move(m_out);
}

} // namespace detail

const char* headRuleName(HeadRule h) { return h == HeadRule::Commit ? "commit" : "resort"; }

const char* preemptionName(Preemption p) { return p == Preemption::Priority ? "priority" : "none"; }

bool parsePreemption(const std::string& s, Preemption& out)
{
    if (s != "none" && s != "priority")
        return false;
    out = s == "priority" ? Preemption::Priority : Preemption::None;
    return true;
}

const char* migrationName(Migration m) { return m == Migration::Defragment ? "defragment" : "none"; }

bool parseMigration(const std::string& s, Migration& out)
{
    if (s != "none" && s != "defragment")
        return false;
    out = s == "defragment" ? Migration::Defragment : Migration::None;
    return true;
}

bool parseHeadRule(const std::string& s, HeadRule& out)
{
    if (s == "resort" || s == "commit") {
        out = s == "commit" ? HeadRule::Commit : HeadRule::Resort;
        return true;
    }
    return false;
}

Result<TimedResult> runTimedReplay(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const TimedOptions& options, ProgressFn progress, CancelToken cancel)
{
    return runTimedReplay(trace, policy, options, Recording {}, Observers {}, std::move(progress), std::move(cancel));
}

Result<TimedResult> runTimedReplay(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const TimedOptions& options, const Recording& recording, const Observers& observers, ProgressFn progress,
    CancelToken cancel)
{
    for (const trace::Node& n : trace.nodes)
        if (n.numGpu > cluster::kMaxGpusPerNode)
            return makeError(ErrorCode::Range, "node " + n.name + " has " + std::to_string(n.numGpu)
                    + " GPUs; the simulator supports at most 64 per node");
    if (trace.nodes.empty())
        return makeError(ErrorCode::Invalid, "the trace has no nodes; load a node list or machine events with it");
    Recorders recorders(recording, int(trace.nodes.size()), Recorders::Hashes::FromJournal, observers);
    detail::Replay replay(trace, policy, options, recording, recorders.observers());
    auto r = replay.run(std::move(progress), cancel);
    if (r)
        recorders.takeInto(r->heat, r->stateHashes);
    return r;
}

} // namespace schedlab::sim
