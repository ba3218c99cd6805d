// Making room in the timed replay (TimedOptions::preemption / migration): when the policy cannot
// place a single-task unit at the head of a pass, move one running unit elsewhere (migration) or
// evict lower-priority ones (Kubernetes default preemption), then start it on the freed node.
// See the module README, "Making room".

#include "fill_migration.h"
#include "timed_replay_impl.h"

namespace schedlab::sim::detail {

namespace {

/// GPUs (whole GPUs' worth) and cores a unit's placements hold.
std::pair<double, double> gpusAndCores(const std::vector<cluster::Placement>& placed)
{
    double gpus = 0, cores = 0;
    for (const cluster::Placement& p : placed) {
        gpus += double(std::popcount(p.gpuMask)) * p.gpuMilliPerGpu / 1000.0;
        cores += double(p.cpuMilli) / 1000.0;
    }
    return { gpus, cores };
}

} // namespace

std::vector<std::vector<int32_t>> Replay::runningByNode() const
{
    std::vector<std::vector<int32_t>> on(std::size_t(m_cluster.nodeCount()));
    for (int32_t ui : m_running)
        for (const cluster::Placement& p : m_placements[std::size_t(ui)]) {
            auto& v = on[std::size_t(p.node)];
            if (v.empty() || v.back() != ui)
                v.push_back(ui);
        }
    return on;
}

bool Replay::makeRoom(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds)
{
    const Unit& u = m_units[std::size_t(ui)];
    if (u.count != 1)
        return false; // gangs wait for room as before
    if (!ds.empty() && ds.back().feasible > 0)
        return false; // it fits somewhere: the policy chose to wait
    int node = -1;
    bool made = false;
    if (m_opt.migration != Migration::None) {
        const auto hour = int64_t(std::floor(t / 3600.0));
        if (hour != m_migrationHour) {
            m_migrationHour = hour;
            m_migrationsThisHour = 0;
        }
        if ((m_opt.migrationsPerHour <= 0 || double(m_migrationsThisHour) < m_opt.migrationsPerHour) && migrateFor(ui, t, node)) {
            ++m_migrationsThisHour;
            made = true;
        }
    }
    if (!made && m_opt.preemption != Preemption::None)
        made = preemptFor(ui, t, node);
    if (!made)
        return false;
    const trace::TaskRequest& r = taskOf(u, 0).request;
    m_tryPos = statePos();
    placed.clear();
    ds.clear();
    m_attemptByPolicy = false;
    placed.push_back(m_cluster.makePlacement(node, r, m_cluster.bestFitGpus(node, r)));
    allocate(placed.back(), r);
    policy::PlacementDecision d;
    d.node = node;
    d.gpuMask = placed.back().gpuMask;
    d.feasible = 1;
    ds.push_back(std::move(d));
    return true;
}

bool Replay::migrateFor(int32_t ui, double t, int& node)
{
    const Unit& u = m_units[std::size_t(ui)];
    const trace::TaskRequest& r = taskOf(u, 0).request;
    // Candidates: running single-task units of the same or lower priority, smallest first (GPU
    // milli, then cpu, memory, unit), so the first that works moves the least.
    std::vector<int32_t> movable;
    for (int32_t v : m_running) {
        const Unit& vu = m_units[std::size_t(v)];
        if (vu.count == 1 && vu.priority <= u.priority && m_cluster.fitsEmpty(m_placements[std::size_t(v)][0].node, r))
            movable.push_back(v);
    }
    auto size = [&](int32_t v) {
        const trace::TaskRequest& q = taskOf(m_units[std::size_t(v)], 0).request;
        return std::tuple(q.totalGpuMilli(), q.cpuMilli, q.memMiB, v);
    };
    std::sort(movable.begin(), movable.end(), [&](int32_t a, int32_t b) { return size(a) < size(b); });
    for (int32_t v : movable) {
        const cluster::Placement from = m_placements[std::size_t(v)][0];
        const trace::TaskRequest& q = taskOf(m_units[std::size_t(v)], 0).request;
        int to = -1;
        std::vector<std::tuple<int64_t, int64_t, int>> dests; // the destinations (decision log, policy)
        const bool listDests = m_rec.decisions || m_policy->decidesRoom();
        if (fitsWithout(m_cluster, from, r)) {
            // Where it goes: the node it fills best, first by index (nodes other than its own are
            // as they are now).
            std::tuple<int64_t, int64_t> best { INT64_MAX, INT64_MAX };
            for (int m = 0; m < m_cluster.nodeCount(); ++m) {
                if (m == from.node || !m_cluster.fits(m, q))
                    continue;
                const std::tuple<int64_t, int64_t> left = fillKey(m_cluster, m, q);
                if (listDests)
                    dests.emplace_back(std::get<0>(left), std::get<1>(left), m);
                if (left < best) {
                    best = left;
                    to = m;
                }
            }
        }
        if (to < 0)
            continue;
        std::sort(dests.begin(), dests.end()); // best first; dests[0] is `to`
        if (m_policy->decidesRoom()) {
            // The two-level decision: the policy takes the move or waits, and picks where it goes.
            policy::RoomOffer offer;
            offer.kind = policy::RoomOffer::Kind::Migrate;
            offer.freedNode = from.node;
            offer.moved = &q;
            offer.restartS = m_opt.migrationRestartS;
            for (const auto& [gpuLeft, cpuLeft, m] : dests)
                offer.destinations.push_back(policy::Candidate { m, -double(gpuLeft), double(gpuLeft), 0 });
            auto after = [&](int i) -> const cluster::ClusterState& {
                cluster::ClusterState& sim = roomScratch();
                const int dest = offer.destinations[std::size_t(i)].node;
                sim.release(from);
                sim.allocate(sim.makePlacement(dest, q, sim.bestFitGpus(dest, q)));
                return sim;
            };
            const policy::PlacementRequest req = waitingRequest(ui, t);
            const int pick = m_policy->decideRoom(m_cluster, req, offer, after);
            roomDecided(req, offer, pick >= 0 && pick < int(offer.destinations.size()) ? pick : -1, after);
            if (pick < 0 || pick >= int(offer.destinations.size()))
                return false; // declined: the unit keeps waiting
            to = offer.destinations[std::size_t(pick)].node;
        }
        // Move it: released where it ran, placed on `to`, its end later by the restart cost.
        const int64_t seen = statePos(); // the state the move was decided on
        m_runningEnds.erase({ expectedEnd(v), v });
        release(from, q);
        if (m_lastReleasePos.empty())
            m_lastReleasePos.assign(std::size_t(m_cluster.nodeCount()), SIZE_MAX);
        m_lastReleasePos[std::size_t(from.node)] = m_releasedNodes.size();
        m_releasedNodes.push_back(from.node);
        bumpReleaseEpoch();
        cluster::Placement moved = m_cluster.makePlacement(to, q, m_cluster.bestFitGpus(to, q));
        allocate(moved, q);
        m_placements[std::size_t(v)] = { moved };
        m_delayS[std::size_t(v)] += m_opt.migrationRestartS;
        UnitResult& vr = m_results[std::size_t(v)];
        vr.finishS += m_opt.migrationRestartS;
        m_runningEnds.insert({ expectedEnd(v), v });
        m_finishSeq[std::size_t(v)] = m_seq;
        push(vr.finishS, EventType::Finish, v);
        ++m_stateStamp;
        m_easy.clear();
        m_shadowMemo = {};
        ++m_out.migrations;
        const auto [gpus, cores] = gpusAndCores(m_placements[std::size_t(v)]);
        m_out.workLostGpuHours += m_opt.migrationRestartS * gpus / 3600.0;
        m_out.workLostCpuHours += m_opt.migrationRestartS * cores / 3600.0;
        // A migration is a decision with its candidates: the destinations, best first (score: the
        // gpu-milli they would have left, negated).
        std::vector<policy::Candidate> top;
        for (std::size_t i = 0; i < dests.size() && int(i) < m_rec.topK; ++i) {
            const auto [gpuLeft, cpuLeft, m] = dests[i];
            top.push_back(policy::Candidate { m, -double(gpuLeft), double(gpuLeft), m == to ? moved.gpuMask : 0 });
        }
        recordRoomDecision(v, t, to, Outcome::Migrated, int32_t(dests.size()), std::move(top), seen);
        node = from.node;
        return true;
    }
    return false;
}

bool Replay::preemptFor(int32_t ui, double t, int& node)
{
    const Unit& u = m_units[std::size_t(ui)];
    const trace::TaskRequest& r = taskOf(u, 0).request;
    const auto on = runningByNode();
    cluster::ClusterState& sim = roomScratch();
    auto releaseOn = [&](int32_t v, int n, bool back) {
        for (const cluster::Placement& p : m_placements[std::size_t(v)])
            if (p.node == n) {
                if (back)
                    sim.allocate(p);
                else
                    sim.release(p);
            }
    };
    // Kubernetes' choice among nodes where evicting lower-priority units lets it fit: the lowest
    // highest victim priority, then the lowest sum of victim priorities, the fewest victims, the
    // latest start among the highest-priority victims, the first node.
    struct Choice {
        int node = -1;
        std::vector<int32_t> victims;
        std::tuple<int32_t, int64_t, std::size_t, double> key;
    };
    Choice best;
    for (int n = 0; n < m_cluster.nodeCount(); ++n) {
        std::vector<int32_t> lower;
        for (int32_t v : on[std::size_t(n)])
            if (m_units[std::size_t(v)].priority < u.priority)
                lower.push_back(v);
        if (lower.empty() || !m_cluster.fitsEmpty(n, r))
            continue;
        for (int32_t v : lower)
            releaseOn(v, n, false);
        if (!sim.fits(n, r)) {
            for (int32_t v : lower)
                releaseOn(v, n, true);
            continue;
        }
        // Reprieve the most important first (higher priority, then earlier start): each one the
        // unit still fits beside stays.
        std::sort(lower.begin(), lower.end(), [&](int32_t a, int32_t b) {
            const auto ka = std::tuple(-m_units[std::size_t(a)].priority, m_results[std::size_t(a)].startS, a);
            const auto kb = std::tuple(-m_units[std::size_t(b)].priority, m_results[std::size_t(b)].startS, b);
            return ka < kb;
        });
        std::vector<int32_t> victims;
        for (int32_t v : lower) {
            releaseOn(v, n, true);
            if (!sim.fits(n, r)) {
                releaseOn(v, n, false);
                victims.push_back(v);
            }
        }
        for (int32_t v : victims)
            releaseOn(v, n, true); // sim back to the real state
        int32_t top = INT32_MIN;
        int64_t sum = 0;
        for (int32_t v : victims) {
            top = std::max(top, m_units[std::size_t(v)].priority);
            sum += m_units[std::size_t(v)].priority;
        }
        double earliestTop = kInf;
        for (int32_t v : victims)
            if (m_units[std::size_t(v)].priority == top)
                earliestTop = std::min(earliestTop, m_results[std::size_t(v)].startS);
        const auto key = std::tuple(top, sum, victims.size(), -earliestTop);
        if (best.node < 0 || key < best.key)
            best = Choice { n, std::move(victims), key };
    }
    if (best.node < 0)
        return false;
    if (m_policy->decidesRoom()) {
        policy::RoomOffer offer;
        offer.kind = policy::RoomOffer::Kind::Preempt;
        offer.freedNode = best.node;
        offer.victims = int32_t(best.victims.size());
        for (int32_t v : best.victims)
            offer.lostGpuHours += (t - m_results[std::size_t(v)].startS) * gpusAndCores(m_placements[std::size_t(v)]).first / 3600.0;
        auto after = [&](int) -> const cluster::ClusterState& {
            cluster::ClusterState& s = roomScratch();
            for (int32_t v : best.victims)
                for (const cluster::Placement& p : m_placements[std::size_t(v)])
                    s.release(p);
            return s;
        };
        const policy::PlacementRequest req = waitingRequest(ui, t);
        const int pick = m_policy->decideRoom(m_cluster, req, offer, after);
        roomDecided(req, offer, pick == 0 ? 0 : -1, after);
        if (pick != 0)
            return false; // declined: the unit keeps waiting
    }
    for (int32_t v : best.victims)
        evict(v, t);
    node = best.node;
    return true;
}

void Replay::roomDecided(const policy::PlacementRequest& req, const policy::RoomOffer& offer, int choice,
    const std::function<const cluster::ClusterState&(int)>& after)
{
    for (ReplayObserver* o : m_observers)
        o->roomDecided(RoomDecidedEvent { m_cluster, req, offer, choice, after });
}

cluster::ClusterState& Replay::roomScratch()
{
    if (!m_roomScratch)
        m_roomScratch = std::make_unique<cluster::ClusterState>(m_cluster);
    else
        *m_roomScratch = m_cluster;
    return *m_roomScratch;
}

policy::PlacementRequest Replay::waitingRequest(int32_t ui, double t) const
{
    const Unit& u = m_units[std::size_t(ui)];
    const trace::Task& task = taskOf(u, 0);
    return policy::PlacementRequest { task.request, &m_trace.jobs[std::size_t(u.job)], &task, t, m_passQueued, m_headWaitS, u.submit };
}

void Replay::evict(int32_t v, double t)
{
    UnitResult& vr = m_results[std::size_t(v)];
    const auto [gpus, cores] = gpusAndCores(m_placements[std::size_t(v)]);
    const double ran = t - vr.startS;
    m_out.workLostGpuHours += ran * gpus / 3600.0;
    m_out.workLostCpuHours += ran * cores / 3600.0;
    const int where = m_placements[std::size_t(v)].empty() ? -1 : m_placements[std::size_t(v)][0].node;
    const int64_t seen = statePos(); // the state the eviction was decided on
    releaseRunning(v);
    m_easy.clear();
    m_shadowMemo = {};
    m_delayS[std::size_t(v)] = 0;
    m_finishSeq[std::size_t(v)] = UINT64_MAX; // its finish event is void
    vr.startS = -1;
    vr.finishS = -1;
    ++m_out.preemptions;
    recordRoomDecision(v, t, where, Outcome::Evicted, 1, {}, seen);
    const Unit& vu = m_units[std::size_t(v)];
    m_wait->push(QueueEntry { keyOf(v, t), vu.submit, v }, false);
}

void Replay::recordRoomDecision(
    int32_t ui, double t, int node, Outcome outcome, int32_t feasible, std::vector<policy::Candidate> top, int64_t statePos)
{
    if (!m_rec.decisions)
        return;
    const Unit& u = m_units[std::size_t(ui)];
    Decision d;
    d.timeS = t;
    d.job = u.job;
    d.task = u.firstTask;
    d.node = node;
    d.outcome = outcome;
    d.feasible = feasible;
    d.statePos = statePos;
    m_out.decisions.add(d, top);
}

} // namespace schedlab::sim::detail
