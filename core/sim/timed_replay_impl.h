#pragma once
// Private to the timed replay (timed_replay.cpp: setup, event loop, sampling;
// timed_replay_schedule.cpp: the scheduling pass, EASY backfilling, placing and releasing). Not
// part of the module's interface: nothing outside core/sim includes it.

#include "easy_reservation.h"
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

namespace schedlab::sim::detail {

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

/// Walk classes of dormant signatures (Replay::walkClassOf).
inline constexpr uint8_t kWalkClasses = 28;

class Replay {
public:
    Replay(const trace::Trace& trace, policy::PlacementPolicy& policy, const TimedOptions& options,
        const Recording& recording, const Observers& observers)
        : m_trace(trace)
        , m_observers(observers)
        , m_policy(&policy)
        , m_opt(options)
        , m_rec(recording)
        , m_cluster(trace)
        , m_frag(m_cluster, metrics::TypicalWorkload::fromTrace(trace))
        , m_power(trace, m_cluster, options.powerOffIdle)
        , m_p99(options.p99WindowS)
        , m_rng(options.seed ^ kPolicyStream)
        , m_logged(policy.name() == "logged")
        , m_watched(!observers.empty())
    {
    }

    Result<TimedResult> run(ProgressFn progressFn, const CancelToken& cancel);

private:
    /// The policy reset, the units, the room-making state and the result's header fields.
    Status setUp();
    /// Arrivals (or logged starts) of every unit and the first metrics tick; the first submit.
    double pushArrivals();
    /// From the fork time on, the fork's policy places (reset on the cluster of that moment).
    void switchToFork();
    /// Resets the deciding policy on the cluster of now and tells the observers.
    void resetPolicy();
    /// The observers are told of a room offer the policy decided (`choice`; -1 declined).
    void roomDecided(const policy::PlacementRequest& req, const policy::RoomOffer& offer, int choice,
        const std::function<const cluster::ClusterState&(int)>& after);
    void handle(const Event& e, double t);
    /// A unit arrives: queued, or failed when it can never run.
    void arrive(int32_t unit, double t);
    /// A logged replay's start: on the logged nodes, or counted as a divergence and failed.
    void startLogged(int32_t unit, double t);
    /// Events in time order, a scheduling pass after each instant's events, ticks sampled last.
    Status eventLoop(ThrottledProgress& progress, const CancelToken& cancel);
    /// Waits, slowdowns, SLA counts, time-weighted means, state hashes over the finished replay.
    void summarize();
    double m_firstSubmitS = 0; ///< the earliest submit (pushArrivals)
    double m_tickS = 60; ///< metrics period (TimedOptions::tickS or span / 4000, at least 60 s)
    void buildUnits();
    void push(double t, EventType type, int32_t unit) { m_events.push(Event { t, type, m_seq++, unit }); }
    void advanceTo(double t);
    void nodeChanged(int node)
    {
        m_frag.nodeChanged(node);
        m_power.nodeChanged(node);
    }
    /// The state position decisions point at (replay_observer.h), or -1 without state positions.
    int64_t statePos() const { return m_rec.statePositions() ? m_statePos : -1; }
    void allocate(const cluster::Placement& p, const trace::TaskRequest& r)
    {
        m_cluster.allocate(p);
        if (m_watched)
            stateChanged(p, StateOp::Allocated);
        nodeChanged(p.node);
        m_policy->onAllocated(p, r);
    }
    /// While m_undoing, an undone event (the allocation it takes back was the last operation).
    void release(const cluster::Placement& p, const trace::TaskRequest& r)
    {
        m_cluster.release(p);
        if (m_watched)
            stateChanged(p, m_undoing ? StateOp::Undone : StateOp::Released);
        nodeChanged(p.node);
        m_policy->onReleased(p, r);
    }
    enum class StateOp : uint8_t { Allocated, Released, Undone };
    /// Counts the state position and tells the observers (a run without observers has no journal,
    /// so no positions: the unwatched path stays one test).
    void stateChanged(const cluster::Placement& p, StateOp op);
    const trace::Task& taskOf(const Unit& u, int k) const { return m_trace.tasks[std::size_t(u.firstTask + k)]; }
    /// Places every task of the unit with the policy; on failure rolls back and returns false.
    bool tryPlace(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    /// `referenced`: a decision will point into the tentative placements (the unit's first wait),
    /// so they are released; otherwise they are undone (replay_observer.h: a journal drops them).
    void rollback(int32_t ui, std::vector<cluster::Placement>& placed, bool referenced = false);
    void commit(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    void finish(int32_t ui);
    /// Frees a running unit's resources and forgets it as running (a finish or an eviction).
    void releaseRunning(int32_t ui);
    /// Making room (timed_replay_room.cpp): for a single-task unit the policy could not place,
    /// a migration or preemption that lets it start now; on success `placed`/`ds` hold its
    /// placement on the freed node, to commit.
    bool makeRoom(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    bool migrateFor(int32_t ui, double t, int& node);
    bool preemptFor(int32_t ui, double t, int& node);
    void evict(int32_t victim, double t);
    /// A migration or eviction as a decision; `statePos`: the state position it saw.
    void recordRoomDecision(
        int32_t ui, double t, int node, Outcome outcome, int32_t feasible, std::vector<policy::Candidate> top, int64_t statePos);
    /// m_roomScratch, a copy of the cluster now.
    cluster::ClusterState& roomScratch();
    /// The request place() would get for unit ui's first task (the policy's room offers).
    policy::PlacementRequest waitingRequest(int32_t ui, double t) const;
    /// Node n's running units, for the current state (built per call of makeRoom).
    std::vector<std::vector<int32_t>> runningByNode() const;
    std::vector<double> m_delayS; ///< by unit: restart costs added to its end (migrations); empty when off
    std::vector<uint64_t> m_finishSeq; ///< by unit: seq of its current finish event (room making only)
    std::unique_ptr<cluster::ClusterState> m_roomScratch;
    int64_t m_migrationHour = -1, m_migrationsThisHour = 0;
    /// EASY: the release epoch of the last pass that walked every dormant signature (each then
    /// fitted no node released before it, or was woken): only nodes released since can fit one.
    uint64_t m_lastWalkEpoch = 0;
    /// The most any node released since epoch `from` has free now (a request above it fits none
    /// of them; FreeMax's fields, its stamp unused).
    struct FreeMax;
    void releasedRoom(uint64_t from, FreeMax& out) const;
    /// Dormant signatures are grouped by the GPUs their first task asks for (none, a share by
    /// tenths of a GPU, 1..16+ whole GPUs), so a walk skips the groups nothing released can fit
    /// (timed_replay_easy.cpp).
    static uint8_t walkClassOf(const trace::TaskRequest& r);
    static bool walkClassMayFit(uint8_t walkClass, const FreeMax& room);
    /// Logged replay (logged_divergence.cpp): counts a logged decision our model cannot take, by
    /// kind, naming the first one in TimedResult::firstDivergence.
    /// The first is the one at the earliest time t (the first noted among equals).
    void noteDivergence(const char* kind, int32_t ui, double t, const std::string& detail);
    /// Why unit ui could not start on its logged nodes at t (after tryPlace failed at task k).
    void explainLoggedFailure(int32_t ui, int k, double t);
    double m_firstDivergenceT = 0;
    /// One scheduling pass at t: units start in queue order until one cannot (the head), then,
    /// with EASY, backfill() (timed_replay_easy.cpp).
    void schedule(double t);
    /// The pass's head `ui` did not start: counts it in gpuBlockedWithRoom if it needs GPUs and
    /// the cluster's free totals cover it (each unit once).
    void noteBlockedHead(int32_t ui);
    void backfill(double t, const QueueEntry& head, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    struct EasyPass; ///< one backfilling pass's state and steps (timed_replay_easy.cpp)
    /// The queue policy's key of a waiting unit at time t.
    double keyOf(int32_t ui, double t) const;
    /// Tries to place a unit (tryPlace) unless it is known to fail: its request signature failed
    /// earlier in this pass, or failed at its first task since the last release (then, for a
    /// policy that fails only when nothing fits, trying again would change nothing). On failure
    /// the signature is marked; `ds` stays empty when nothing was tried.
    bool attempt(int32_t ui, double t, std::vector<cluster::Placement>& placed, std::vector<policy::PlacementDecision>& ds);
    /// `released`: an order-free hash of the running units released to reach the reservation.
    /// `shadowUnit`: the running unit whose end makes the head fit (-1 when none does).
    double shadowTime(int32_t head, double t, cluster::ClusterState& atShadow, uint64_t& released, int32_t& shadowUnit) const;
    /// Start + requested time of a running unit.
    double expectedEnd(int32_t ui) const
    {
        return m_results[std::size_t(ui)].startS + m_units[std::size_t(ui)].req + (m_delayS.empty() ? 0.0 : m_delayS[std::size_t(ui)]);
    }
    /// Frees running unit r's placements in `atShadow`, noting their nodes in m_shadowReleased.
    void releaseForShadow(cluster::ClusterState& atShadow, int32_t r, uint64_t& released) const;
    mutable std::vector<int32_t> m_shadowReleased;
    bool fitsFirstFit(cluster::ClusterState& state, const Unit& u, std::vector<char>* nodesUsed = nullptr) const;
    /// How many copies of `r` node n of `state` can take at once, at most `most` (state unchanged).
    static int32_t copiesThatFit(cluster::ClusterState& state, int n, const trace::TaskRequest& r, int32_t most);
    /// EASY's second chance: `placed` (taken now) also fits at the reservation `atShadow`, at the
    /// same nodes and GPUs, and the head still fits there by first fit. When so, `atShadow` keeps
    /// them. `headNodes` caches the nodes of the head's placement there (empty = not known).
    bool fitsBesideHead(cluster::ClusterState& atShadow, const std::vector<cluster::Placement>& placed, const Unit& head,
        std::vector<char>& headNodes) const;
    double userShare(int32_t user) const;
    void sample(double t);
    /// Logs unit ui's first wait: `d` (decision `attempt` of the last attempt, or nullptr when
    /// nothing was tried) and the state position it saw.
    void recordWait(int32_t ui, double t, const policy::PlacementDecision* d, int attempt, int64_t statePos);

    const trace::Trace& m_trace;
    const Observers& m_observers;
    /// The decisions of the last attempt (tryPlace's `ds`) are the policy's: false once makeRoom
    /// replaced them with the placement on the room it made.
    bool m_attemptByPolicy = false;
    policy::PlacementPolicy* m_policy; ///< the fork's policy once the fork time is reached
    int64_t m_statePos = 0; ///< allocations and releases so far less the undone ones (when watched)
    int64_t m_tryPos = 0; ///< statePos() when the current tryPlace started
    bool m_undoing = false; ///< releases take back tentative allocations no decision refers to
    TimedOptions m_opt;
    const Recording m_rec; ///< the engine reads decisions, topK and statePositions() only
    cluster::ClusterState m_cluster;
    metrics::FragTracker m_frag;
    metrics::PowerTracker m_power;
    metrics::WindowedPercentile m_p99;
    Rng m_rng;
    bool m_logged;
    const bool m_watched; ///< there are observers (state events and positions are only for them)

    std::vector<Unit> m_units;
    std::vector<UnitResult> m_results;
    std::vector<std::vector<cluster::Placement>> m_placements;
    std::vector<char> m_waitRecorded;
    std::vector<char> m_blockedWithRoom; ///< per unit: counted in TimedResult::gpuBlockedWithRoom
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    uint64_t m_seq = 0;
    std::unique_ptr<WaitQueue> m_wait; ///< made by buildUnits
    bool m_keysFixed = true; ///< the queue order's key does not change with time
    uint32_t m_pass = 0; ///< scheduling passes so far
    int32_t m_passQueued = 0; ///< queue length when the current pass began
    uint64_t m_releaseEpoch = 0; ///< bumped whenever resources are freed or the policy changes
    bool m_memo = false; ///< the policy fails only when nothing fits (failsOnlyWhenInfeasible)
    bool m_seedForSchedule = false, m_seedForCandidates = false; ///< what the run's policies draw for
    void noteSeedUse()
    {
        const bool schedule = m_policy->drawsRandomly(0);
        m_seedForSchedule = m_seedForSchedule || schedule;
        m_seedForCandidates = m_seedForCandidates
            || (!schedule && m_rec.decisions && m_rec.topK > 0 && m_policy->drawsRandomly(m_rec.topK));
    }
    int32_t m_committedHead = -1; ///< HeadRule::Commit: the blocked head, until it starts
    std::vector<trace::TaskRequest> m_sigFirstRequest; ///< by signature: its units' first task's request
    std::vector<uint32_t> m_sigFailPass; ///< by signature: pass in which it last failed
    std::vector<uint64_t> m_sigFailEpoch; ///< by signature: epoch of its last failure at task 0
    /// EASY, deterministic policies: a unit of this signature that fit but would have delayed the
    /// head was refused with the cluster, head and reservation of `key`; while `key` holds, any
    /// unit of the signature that does not end before the reservation is refused again.
    struct Refusal {
        uint64_t key = 0;
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
    /// The last head's reservation: passes with the same head get the same shadow time, released
    /// set and cluster at the shadow, as long as no running unit's expected end is clamped to
    /// "now" (then the ends, and so the result, are equal) and what started or finished since
    /// leaves the result as it was (a backfill allowed against it; the first unit to end on the
    /// way to it finishing); `stamp` follows those changes.
    struct ShadowMemo {
        int32_t head = -1, shadowUnit = -1;
        uint64_t stamp = UINT64_MAX;
        double computedAtS = 0, minEndS = 0, shadowS = 0;
        uint64_t released = 0;
        std::unique_ptr<cluster::ClusterState> state;
    };
    ShadowMemo m_shadowMemo;
    /// The reservation of a blocked head whose tasks are copies of one request, kept up to date
    /// by every start and finish (starts of an EASY pass are applied when the pass ends: within
    /// a pass the reservation is the one the pass began with).
    EasyReservation m_easy;
    bool m_inEasyPass = false;
    std::vector<int32_t> m_easyStarted; ///< units started in the current EASY pass
    /// True when the head's tasks are copies of its first task's request.
    bool identicalTasks(const Unit& u) const;
    /// EASY's units to try next, one per signature, smallest queue entry on top (kept between
    /// passes for its storage only).
    class Frontier {
    public:
        using It = WaitQueue::Set::const_iterator;
        void clear()
        {
            m_heap.clear();
            m_parked.clear();
        }
        bool empty() const { return m_heap.empty(); }
        const QueueEntry& top() const { return m_heap.front().entry; }
        void push(It it)
        {
            m_heap.push_back(Item { *it, it, nullptr });
            std::push_heap(m_heap.begin(), m_heap.end(), later);
        }
        /// Pushes `it` (or nothing when it is units.end()), reached by skipping the units of its
        /// signature (`units`) that were refused with the refusal key of now: if a unit starts
        /// before `it` comes up, rewind() puts the signature back at its first unit after it.
        void pushJump(It it, const WaitQueue::Set& units)
        {
            if (it == units.end()) {
                m_parked.push_back(&units);
                return;
            }
            m_heap.push_back(Item { *it, it, &units });
            std::push_heap(m_heap.begin(), m_heap.end(), later);
        }
        /// Adds without ordering: heapify() before top() or pop().
        void add(It it) { m_heap.push_back(Item { *it, it, nullptr }); }
        void heapify() { std::make_heap(m_heap.begin(), m_heap.end(), later); }
        It pop()
        {
            std::pop_heap(m_heap.begin(), m_heap.end(), later);
            const It it = m_heap.back().it;
            m_heap.pop_back();
            return it;
        }
        /// A unit at `started` (popped, so before every entry here) started: the refusals that
        /// jumps skipped past it no longer hold, so each such signature resumes at its first
        /// unit after `started`, as a walk one unit at a time would have.
        void rewind(const QueueEntry& started)
        {
            bool changed = false;
            std::size_t kept = 0;
            for (std::size_t i = 0; i < m_heap.size(); ++i) {
                Item item = m_heap[i];
                if (item.jumpedIn) {
                    const It first = item.jumpedIn->upper_bound(started);
                    changed = changed || first != item.it;
                    item = Item { *first, first, nullptr }; // first <= item.it: never the end
                }
                m_heap[kept++] = item;
            }
            m_heap.resize(kept);
            for (const WaitQueue::Set* units : m_parked) {
                const It first = units->upper_bound(started);
                if (first != units->end()) {
                    m_heap.push_back(Item { *first, first, nullptr });
                    changed = true;
                }
            }
            m_parked.clear();
            if (changed)
                heapify();
        }

        /// Removes the entries for which `drop(entry)` is true.
        template <class Drop>
        void dropIf(Drop drop)
        {
            const auto end = std::remove_if(m_heap.begin(), m_heap.end(), [&](const Item& i) { return drop(i.entry); });
            if (end != m_heap.end()) {
                m_heap.erase(end, m_heap.end());
                heapify();
            }
        }

    private:
        struct Item {
            QueueEntry entry; ///< a copy: comparing needs no walk into the set's nodes
            It it;
            const WaitQueue::Set* jumpedIn; ///< the signature's units when reached by a jump
        };
        static bool later(const Item& a, const Item& b) { return b.entry < a.entry; }
        std::vector<Item> m_heap;
        std::vector<const WaitQueue::Set*> m_parked; ///< signatures a jump found no unit in
    };
    Frontier m_frontier;
    /// False only when the request certainly fits no node now (a cheap necessary test).
    bool mayFitSomewhere(const trace::TaskRequest& r) const;
    /// Nodes freed by finishing units, in order; epoch e's releases start at m_epochLogPos[e].
    std::vector<int32_t> m_releasedNodes;
    std::vector<std::size_t> m_epochLogPos { 0 };
    /// By node: its last position in m_releasedNodes (SIZE_MAX = never released). A long stretch
    /// of the log is scanned as the (fewer) nodes released in it.
    std::vector<std::size_t> m_lastReleasePos;
    uint64_t m_forkEpoch = 0; ///< first epoch of the current policy
    /// The signature's first task fitted no node at its last failure (epoch m_sigFailEpoch[s]):
    /// since then only nodes released after it can have room, so exactly when one of them fits
    /// the request does it fit somewhere now. False when that failure is not known.
    bool failureKnown(uint32_t sig) const
    {
        const uint64_t e = m_sigFailEpoch[sig];
        return e != UINT64_MAX && e >= m_forkEpoch && e <= m_releaseEpoch;
    }
    bool fitsOnNodesReleasedSince(uint64_t epoch, const trace::TaskRequest& r) const;
    void bumpReleaseEpoch()
    {
        ++m_releaseEpoch;
        m_epochLogPos.push_back(m_releasedNodes.size());
    }
    double m_headWaitS = 0; ///< wait of the head of the current scheduling pass
    int m_skipsLeft = 0; ///< units this pass may still skip (policy skips()), before its head only
    int32_t shorterQueued(int32_t ui) const; ///< units behind ui in the queue with a shorter requested time
    std::vector<int32_t> m_running;
    std::set<std::pair<double, int32_t>> m_runningEnds; ///< (start + requested time, unit) of the running units
    std::vector<std::array<int64_t, 3>> m_userAlloc; // cpu, mem, gpu per user
    TimedResult m_out;
    /// Time-weighted integrals of utilization and fragmentation since the first event
    /// (advanceTo; TimedResult's means).
    struct Integrals {
        double lastT = 0, firstT = 0;
        bool started = false;
        double cpu = 0, mem = 0, gpu = 0, gpuFrag = 0, cpuFrag = 0;
    } m_int;
    int64_t m_done = 0;
};

} // namespace schedlab::sim::detail
