// Timed replay on tiny traces with hand-computed starts, waits and metrics.

#include "trace_builder.h"

#include "metrics/power_tracker.h"
#include "metrics/windowed_percentile.h"
#include "sim/timed_replay.h"
#include "trace/trace_generator.h"

#include <QtTest>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {
sim::TimedResult mustRun(const trace::Trace& t, sim::TimedOptions o, const std::string& policyName = "firstfit",
    const sim::Recording& recording = {})
{
    auto p = policy::makePlacementPolicy(policyName);
    auto r = sim::runTimedReplay(t, *p, o, recording);
    if (!r)
        qFatal("replay failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}
double startOf(const sim::TimedResult& r, int job)
{
    for (const auto& u : r.units_)
        if (u.job == job)
            return u.startS;
    return -2;
}

// One node of 4 cores. A (t0, 2 cores, 10 s), B (t1, 4 cores, 5 s), C (t2, 1 core, 3 s), D (t3, 2 cores, 20 s).
// The same policy with the replay's shortcuts turned off: it claims nothing of its failures or its
// randomness, so every waiting unit is tried on every pass, as the replay did before it kept state.
class Unassuming final : public policy::PlacementPolicy {
public:
    explicit Unassuming(std::unique_ptr<policy::PlacementPolicy> p)
        : m_p(std::move(p))
    {
    }
    std::string name() const override { return m_p->name(); }
    void reset(const policy::PolicyContext& c, const cluster::ClusterState& s) override
    {
        m_p->setTieBreak(tieBreak(), m_tieSeed);
        m_p->reset(c, s);
    }
    policy::PlacementDecision place(const cluster::ClusterState& c, const policy::PlacementRequest& r, Rng& rng, int k) override
    {
        return m_p->place(c, r, rng, k);
    }
    void onAllocated(const cluster::Placement& p, const trace::TaskRequest& r) override { m_p->onAllocated(p, r); }
    void onReleased(const cluster::Placement& p, const trace::TaskRequest& r) override { m_p->onReleased(p, r); }

private:
    std::unique_ptr<policy::PlacementPolicy> m_p;
};

TraceBuilder backfillScenario()
{
    TraceBuilder b;
    b.node(4000, 1000, 0);
    b.task(2000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 1, 5).task(1000, 0, 0, 0, 2, 3).task(2000, 0, 0, 0, 3, 20);
    return b;
}
} // namespace

class TestTimed : public QObject {
    Q_OBJECT
private slots:
    void fcfsWithoutBackfillBlocksBehindTheHead()
    {
        // A 0-10; B (needs all 4) waits for A: 10-15; C and D queue behind B: both start at 15.
        TraceBuilder b = backfillScenario();
        sim::TimedResult r = mustRun(b.t, {});
        QCOMPARE(startOf(r, 0), 0.0);
        QCOMPARE(startOf(r, 1), 10.0);
        QCOMPARE(startOf(r, 2), 15.0);
        QCOMPARE(startOf(r, 3), 15.0);
        // waits 0, 9, 13, 12
        QCOMPARE(r.waitS.mean, 8.5);
        QCOMPARE(r.waitS.p99, 13.0); // nearest rank: ceil(.99 * 4) = 4th of [0, 9, 12, 13]
        // bounded slowdown: 1, (9+5)/10, (13+3)/10, (12+20)/20 -> mean 1.4
        QCOMPARE(r.boundedSlowdown.mean, 1.4);
        QCOMPARE(r.completed, int64_t(4));
        QCOMPARE(r.backfilled, int64_t(0));
        QCOMPARE(r.makespanS, 35.0); // D ends at 35
    }

    void replayWindowLeavesOutJobsSubmittedOutsideIt()
    {
        // Window [1, 3): only B (t1) and C (t2) are replayed, on an empty cluster: B 1-6, C waits
        // behind B (FCFS, no backfill) and runs 6-9. A (t0) and D (t3) are outside.
        TraceBuilder b = backfillScenario();
        sim::TimedOptions o;
        o.windowFromS = 1;
        o.windowToS = 3;
        sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.outsideWindow, int64_t(2));
        QCOMPARE(r.units, int64_t(2));
        QCOMPARE(r.completed, int64_t(2));
        QCOMPARE(startOf(r, 0), -2.0);
        QCOMPARE(startOf(r, 1), 1.0);
        QCOMPARE(startOf(r, 2), 6.0);
        QCOMPARE(startOf(r, 3), -2.0);
        QCOMPARE(r.windowFromS, 1.0);
        QCOMPARE(r.windowToS, 3.0);
        QCOMPARE(r.makespanS, 8.0); // C ends at 9, B was submitted at 1
        // Open at the end: from t2 on, C and D: C 2-5, D 3-23 (2 + 2 cores fit on 4).
        o.windowFromS = 2;
        o.windowToS = -1;
        r = mustRun(b.t, o);
        QCOMPARE(r.outsideWindow, int64_t(2));
        QCOMPARE(startOf(r, 2), 2.0);
        QCOMPARE(startOf(r, 3), 3.0);
    }

    void easyBackfillLetsOnlyHarmlessJobsJump()
    {
        // Head B is reserved for t=10 (A's requested end). C (t2, 3 s) ends at 5 <= 10: it jumps.
        // D (t3, 20 s) does not fit at 3; at 5 it fits but would end at 25 and leave too little
        // for B at 10: it waits. B 10-15, D 15-35.
        TraceBuilder b = backfillScenario();
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(startOf(r, 2), 2.0);
        QCOMPARE(startOf(r, 1), 10.0);
        QCOMPARE(startOf(r, 3), 15.0);
        QCOMPARE(r.backfilled, int64_t(1));
        QCOMPARE(r.waitS.mean, (0.0 + 9 + 0 + 12) / 4);
    }

    void easyBackfillUsesResourcesTheHeadDoesNotNeed()
    {
        // Two nodes of 4 cores. A (t0) takes node 0 fully for 10 s. B (t1) needs 4 cores on one
        // node... but node 1 is free, so B starts at once. Make the head need both nodes instead:
        // gang of two 4-core tasks. C (t2, 4 cores, 100 s) would end after the reservation; it may
        // still not start, since the head needs node 1 at t=10.
        TraceBuilder b;
        b.node(4000, 0, 0).node(4000, 0, 0);
        b.task(4000, 0, 0, 0, 0, 10);
        b.task(4000, 0, 0, 0, 1, 5); // job 1 becomes a gang of two tasks below
        b.t.jobs[1].taskCount = 2;
        b.t.tasks.push_back(b.t.tasks[1]);
        b.task(4000, 0, 0, 0, 2, 100); // job 2: its single task
        // job 2's task index must follow job 1's two tasks: rebuild indexes
        b.t.jobs[2].firstTask = 3;
        b.t.tasks[3].request = { 4000, 0, 0, 0, 0 };
        b.t.tasks.resize(4);
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(startOf(r, 1), 10.0); // both tasks together, when node 0 frees up
        QCOMPARE(startOf(r, 2), 15.0); // not backfilled onto node 1: it would delay the head
        QCOMPARE(r.backfilled, int64_t(0));
    }

    void sjfAndPriorityOrders()
    {
        // One node of 4 cores; A (t0, 10 s) holds it; B (t1, 8 s) and C (t2, 2 s) wait.
        TraceBuilder b;
        b.node(4000, 0, 0);
        b.task(4000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 1, 8).task(4000, 0, 0, 0, 2, 2);
        sim::TimedResult fcfs = mustRun(b.t, {});
        QCOMPARE(startOf(fcfs, 1), 10.0);
        QCOMPARE(startOf(fcfs, 2), 18.0);
        sim::TimedOptions sjf;
        sjf.queue = policy::QueueOrder::Sjf;
        sim::TimedResult s = mustRun(b.t, sjf);
        QCOMPARE(startOf(s, 2), 10.0);
        QCOMPARE(startOf(s, 1), 12.0);
        b.t.jobs[1].priority = 5;
        sim::TimedOptions prio;
        prio.queue = policy::QueueOrder::Priority;
        sim::TimedResult p = mustRun(b.t, prio);
        QCOMPARE(startOf(p, 1), 10.0);
        b.t.jobs[1].priority = 0;
        b.t.jobs[2].priority = 5;
        sim::TimedResult p2 = mustRun(b.t, prio);
        QCOMPARE(startOf(p2, 2), 10.0);
    }

    void committedHeadWaitsForTheFirstHeadToFit()
    {
        // One node of 4 cores. A (t0, 4 cores, 10 s) holds it; B (t1, 4, 100 s), C (t2, 4, 5 s),
        // D (t3, 4, 3 s), E (t4, 2, 1 s) wait. SJF:
        //  resort (every pass re-sorts): at 10 E (shortest) starts, D waits for E: 11, C 14, B 19.
        //  commit (RLScheduler): B became the head at t1 and stays it: B 10; then E is the head
        //  until B ends: 110; D 111, C 114.
        TraceBuilder b;
        b.node(4000, 0, 0);
        b.task(4000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 1, 100).task(4000, 0, 0, 0, 2, 5);
        b.task(4000, 0, 0, 0, 3, 3).task(2000, 0, 0, 0, 4, 1);
        sim::TimedOptions o;
        o.queue = policy::QueueOrder::Sjf;
        const sim::TimedResult resort = mustRun(b.t, o);
        QCOMPARE(resort.head, std::string("resort"));
        const double resortStarts[] = { 0, 19, 14, 11, 10 };
        for (int j = 0; j < 5; ++j)
            QCOMPARE(startOf(resort, j), resortStarts[j]);
        o.head = sim::HeadRule::Commit;
        const sim::TimedResult commit = mustRun(b.t, o);
        QCOMPARE(commit.head, std::string("commit"));
        const double commitStarts[] = { 0, 10, 114, 111, 110 };
        for (int j = 0; j < 5; ++j)
            QCOMPARE(startOf(commit, j), commitStarts[j]);
        QVERIFY(commit.scheduleHash != resort.scheduleHash);
        // FCFS: later arrivals never sort before the head, so both rules agree.
        o.queue = policy::QueueOrder::Fcfs;
        const sim::TimedResult fc = mustRun(b.t, o);
        o.head = sim::HeadRule::Resort;
        const sim::TimedResult fr = mustRun(b.t, o);
        QCOMPARE(fc.scheduleHash, fr.scheduleHash);
        const double fcfsStarts[] = { 0, 10, 110, 115, 118 }; // E waits behind D
        for (int j = 0; j < 5; ++j)
            QCOMPARE(startOf(fc, j), fcfsStarts[j]);
    }

    void outputSaysWhatTheSeedAndSlaWere()
    {
        TraceBuilder b;
        b.node(4000, 0, 0).node(4000, 0, 0);
        b.task(4000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 0, 10);
        sim::TimedOptions o;
        o.defaultSlaS = 5;
        // FirstFit takes the lowest node: no draw for a placement; only equal candidates in the
        // decision log are ordered at random.
        const sim::TimedResult ff = mustRun(b.t, o, "firstfit");
        QCOMPARE(ff.seedUse, std::string("candidates"));
        sim::Recording quiet;
        quiet.decisions = false;
        QCOMPARE(mustRun(b.t, o, "firstfit", quiet).seedUse, std::string("none"));
        QCOMPARE(mustRun(b.t, o, "random").seedUse, std::string("schedule"));
        QCOMPARE(mustRun(b.t, o, "bestfit").seedUse, std::string("schedule")); // random ties (timed default)
        // No QoS classes: the class is "default", with the SLA applied; the third job waited 10 s.
        QCOMPARE(ff.slaViolations.size(), std::size_t(1));
        QCOMPARE(ff.slaViolations.at("default"), int64_t(1));
        QCOMPARE(ff.slaS.at("default"), 5.0);
        // Two runs, two schedules, one final state (the empty cluster).
        const sim::TimedResult wf = mustRun(b.t, o, "worstfit");
        QCOMPARE(wf.stateHash, ff.stateHash);
    }

    void fairShareFavoursTheUserWithLessRunning()
    {
        // Two nodes of 2 cores. User 0 runs A on node 0 (t0, 100 s). At t1 user 0 submits B and
        // user 1 submits C, both for 2 cores; node 1 is busy with X until t=5 (user 2).
        // At t=5 one slot opens: FCFS gives it to B (earlier arrival order), fair share to C
        // (user 1 holds nothing, user 0 holds half the cluster).
        TraceBuilder b;
        b.node(2000, 0, 0).node(2000, 0, 0);
        b.task(2000, 0, 0, 0, 0, 100).task(2000, 0, 0, 0, 0, 5).task(2000, 0, 0, 0, 1, 10).task(2000, 0, 0, 0, 1, 10);
        b.t.jobs[0].user = 0;
        b.t.jobs[1].user = 2;
        b.t.jobs[2].user = 0;
        b.t.jobs[3].user = 1;
        sim::TimedResult fcfs = mustRun(b.t, {});
        QCOMPARE(startOf(fcfs, 2), 5.0);
        sim::TimedOptions fair;
        fair.queue = policy::QueueOrder::FairShare;
        sim::TimedResult f = mustRun(b.t, fair);
        QCOMPARE(startOf(f, 3), 5.0);
        QCOMPARE(startOf(f, 2), 15.0);
    }

    void wfp3AndUnicepFavourLongWaitsOfShortJobs()
    {
        policy::QueueItem longWait { 0, 10, 4, 0, 0 }, shortWait { 90, 10, 4, 0, 0 };
        QVERIFY(policy::queueKey(policy::QueueOrder::Wfp3, longWait, 100)
            < policy::queueKey(policy::QueueOrder::Wfp3, shortWait, 100));
        // WFP3 = -(wait/req)^3 * procs = -(100/10)^3 * 4
        QCOMPARE(policy::queueKey(policy::QueueOrder::Wfp3, longWait, 100), -4000.0);
        // UNICEP = -wait / (log2(procs) * req) = -100 / (2 * 10)
        QCOMPARE(policy::queueKey(policy::QueueOrder::Unicep, longWait, 100), -5.0);
        // F1 = log10(req) * procs + 870 * log10(submit) = 1 * 4 + 870 * log10(90) for the second
        QCOMPARE(policy::queueKey(policy::QueueOrder::F1, shortWait, 100), 4.0 + 870.0 * std::log10(90.0));
    }

    void gangTasksStartTogether()
    {
        // Two nodes of 2 cores; B (t0, 1 core, 5 s) on node 0; A (t1) = gang of two 2-core tasks:
        // node 1 is free at 1 but node 0 is not, so A starts at 5 with both tasks.
        TraceBuilder b;
        b.node(2000, 0, 0).node(2000, 0, 0);
        b.task(1000, 0, 0, 0, 0, 5).task(2000, 0, 0, 0, 1, 7);
        b.t.jobs[1].taskCount = 2;
        b.t.tasks.push_back(b.t.tasks[1]);
        sim::TimedOptions o;
        sim::TimedResult r = mustRun(b.t, o); // with the decision log (the default Recording)
        QCOMPARE(startOf(r, 1), 5.0);
        int placedAt5 = 0;
        for (const sim::Decision& d : r.decisions.decisions())
            placedAt5 += d.outcome == sim::Outcome::Placed && d.timeS == 5.0 && d.job == 1;
        QCOMPARE(placedAt5, 2);
    }

    void waitedDecisionsCarryTheirOwnCandidates()
    {
        // One node of 4 cores; A (3 cores) runs. At t=1: H (4 cores) becomes the EASY head, Y1
        // (2 cores) does not fit, X (1 core, 10 s) is backfilled, Y2 (2 cores, like Y1) is skipped
        // as known not to fit. Y2's Waited record must not carry X's candidates.
        TraceBuilder b;
        b.node(4000, 0, 0);
        b.task(3000, 0, 0, 0, 0, 100).task(4000, 0, 0, 0, 1, 5).task(2000, 0, 0, 0, 1, 5);
        b.task(1000, 0, 0, 0, 1, 10).task(2000, 0, 0, 0, 1, 5);
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(startOf(r, 3), 1.0); // X backfilled
        int waited = 0;
        for (const sim::Decision& d : r.decisions.decisions())
            if (d.outcome == sim::Outcome::Waited) {
                ++waited;
                QCOMPARE(d.feasible, 0);
                QCOMPARE(int(d.candidateCount), 0);
            }
        QCOMPARE(waited, 3); // H, Y1, Y2
    }

    void jobsThatCanNeverRunFailAtArrival()
    {
        TraceBuilder b;
        b.node(2000, 0, 0);
        b.task(1000, 0, 0, 0, 0, 5).task(3000, 0, 0, 0, 1, 5).task(1000, 0, 0, 0, 2, 5, "late");
        b.t.jobs.push_back(b.t.jobs[0]);
        b.t.jobs.back().submitTimeS = -1; // no submit time: skipped
        sim::TimedResult r = mustRun(b.t, {});
        QCOMPARE(r.failed, int64_t(1));
        QCOMPARE(r.skipped, int64_t(1));
        QCOMPARE(r.completed, int64_t(2));
    }

    void energyAndUtilisation()
    {
        // One node, 4 cores, idle 100 W, peak 200 W; a 2-core job runs 0-10 s: 150 W for 10 s.
        TraceBuilder b;
        b.node(4000, 1000, 0);
        b.t.nodes[0].power = { 100, 200 };
        b.task(2000, 500, 0, 0, 0, 10);
        sim::TimedResult r = mustRun(b.t, {});
        QCOMPARE(r.energyKWh, 1500.0 / 3.6e6);
        QCOMPARE(r.meanCpuUtil, 0.5);
        QCOMPARE(r.meanMemUtil, 0.5);
        TraceBuilder noModel = b;
        noModel.t.nodes[0].power = {};
        QCOMPARE(mustRun(noModel.t, {}).energyKWh, -1.0);
    }

    void slaViolationsPerClass()
    {
        TraceBuilder b = backfillScenario(); // waits 0, 9, 13, 12 under FCFS
        b.t.qosClasses = { "LS", "BE" };
        b.t.jobs[1].qos = 0;
        b.t.jobs[2].qos = 1;
        b.t.jobs[3].qos = 1;
        sim::TimedOptions o;
        o.defaultSlaS = 100;
        o.slaByQos = { { "LS", 5 }, { "BE", 12.5 } };
        sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.slaViolations["LS"], int64_t(1)); // B waited 9 > 5
        QCOMPARE(r.slaViolations["BE"], int64_t(1)); // C 13 > 12.5, D 12 is fine
        QCOMPARE(r.slaViolations["none"], int64_t(0));
    }

    void windowedP99()
    {
        metrics::WindowedPercentile w(100);
        QCOMPARE(w.at(0), -1.0);
        for (int i = 1; i <= 10; ++i)
            w.add(i * 10.0, double(i)); // start 10..100, wait 1..10
        QCOMPARE(w.at(100), 10.0); // window (0, 100]: all ten
        QCOMPARE(w.at(150), 10.0); // (50, 150]: starts 60..100 -> waits 6..10
        QCOMPARE(w.at(195), 10.0); // (95, 195]: only start 100
        QCOMPARE(w.at(205), -1.0);
        metrics::WindowedPercentile median(1000, 50);
        for (int i = 1; i <= 10; ++i)
            median.add(i, double(i));
        QCOMPARE(median.at(10), 5.0); // nearest rank: 5th of 10
    }

    void windowedPercentileEqualsNearestRankOfTheWindow()
    {
        // Kept incrementally: the same value as sorting the window's waits and taking the nearest
        // rank, for each read, with repeated waits, empty windows, reads between starts and a
        // read back in time.
        uint64_t lcg = 5;
        auto next = [&] { return (lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
        for (const double percent : { 99.0, 50.0, 90.0 }) {
            metrics::WindowedPercentile w(300, percent);
            std::vector<std::pair<double, double>> added;
            double t = 0;
            auto direct = [&](double now) {
                std::vector<double> in;
                for (const auto& [start, wait] : added)
                    if (start > now - 300 && start <= now)
                        in.push_back(wait);
                if (in.empty())
                    return -1.0;
                std::sort(in.begin(), in.end());
                const auto k = std::size_t(std::ceil(percent / 100.0 * double(in.size())));
                return in[std::clamp<std::size_t>(k, 1, in.size()) - 1];
            };
            int reads = 0, nonEmpty = 0;
            for (int step = 0; step < 3000; ++step) {
                t += double(next() % 40) * (next() % 50 == 0 ? 30 : 1); // bursts and gaps
                const int starts = int(next() % 4);
                for (int k = 0; k < starts; ++k) {
                    added.emplace_back(t, double(next() % 25)); // many equal waits
                    w.add(added.back().first, added.back().second);
                }
                const double now = t + double(next() % 3);
                const double want = direct(now);
                QCOMPARE(w.at(now), want);
                ++reads;
                nonEmpty += want >= 0;
            }
            QVERIFY(nonEmpty > 2000 && nonEmpty < reads); // windows of all kinds, some empty
            QCOMPARE(w.at(t / 2), direct(t / 2)); // back in time
            QCOMPARE(w.at(t), direct(t));
        }
    }

    void deterministicAndSeedSensitive()
    {
        trace::GeneratorOptions g;
        g.nodes = 16;
        g.jobs = 600;
        auto t = trace::generateTrace(g);
        QVERIFY(t.ok());
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        for (const char* name : { "bestfit", "fgd", "random", "k8s-default" }) {
            sim::TimedResult a = mustRun(t.value(), o, name), b = mustRun(t.value(), o, name);
            QCOMPARE(a.waitS.mean, b.waitS.mean);
            QCOMPARE(a.series.size(), b.series.size());
            QCOMPARE(a.decisions.size(), b.decisions.size());
            for (std::size_t i = 0; i < a.units_.size(); ++i)
                QCOMPARE(a.units_[i].startS, b.units_[i].startS);
        }
        sim::TimedOptions s2 = o;
        s2.seed = 7;
        QVERIFY(mustRun(t.value(), o, "random").waitS.mean != mustRun(t.value(), s2, "random").waitS.mean);
    }

    // An overloaded queue (thousands waiting) is scheduled from an ordered queue that skips what
    // cannot start: the decisions, starts and waits must equal a replay that tries everything.
    void overloadedQueueShortcutsChangeNothing_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("queue");
        QTest::addColumn<int>("backfill");
        QTest::addColumn<int>("tie");
        QTest::addColumn<bool>("log");
        QTest::addColumn<bool>("commitHead");
        QTest::newRow("firstfit fcfs easy") << "firstfit" << int(policy::QueueOrder::Fcfs) << int(sim::Backfill::Easy) << 0 << true << false;
        QTest::newRow("firstfit fcfs easy, no decision log")
            << "firstfit" << int(policy::QueueOrder::Fcfs) << int(sim::Backfill::Easy) << 0 << false << false;
        QTest::newRow("bestfit fcfs easy, first ties, no decision log")
            << "bestfit" << int(policy::QueueOrder::Fcfs) << int(sim::Backfill::Easy) << 1 << false << false;
        QTest::newRow("firstfit sjf none, no decision log")
            << "firstfit" << int(policy::QueueOrder::Sjf) << int(sim::Backfill::None) << 0 << false << false;
        QTest::newRow("firstfit fcfs none") << "firstfit" << int(policy::QueueOrder::Fcfs) << int(sim::Backfill::None) << 0 << true << false;
        QTest::newRow("bestfit sjf easy, first ties") << "bestfit" << int(policy::QueueOrder::Sjf) << int(sim::Backfill::Easy) << 1 << true << false;
        QTest::newRow("bestfit fcfs easy, random ties") << "bestfit" << int(policy::QueueOrder::Fcfs) << int(sim::Backfill::Easy) << 2 << true << false;
        QTest::newRow("fgd wfp3 easy, first ties") << "fgd" << int(policy::QueueOrder::Wfp3) << int(sim::Backfill::Easy) << 1 << true << false;
        QTest::newRow("k8s-default priority none") << "k8s-default" << int(policy::QueueOrder::Priority) << int(sim::Backfill::None) << 2 << true << false;
        QTest::newRow("firstfit sjf easy, committed head")
            << "firstfit" << int(policy::QueueOrder::Sjf) << int(sim::Backfill::Easy) << 0 << true << true;
        QTest::newRow("bestfit sjf easy, committed head, no decision log")
            << "bestfit" << int(policy::QueueOrder::Sjf) << int(sim::Backfill::Easy) << 1 << false << true;
        QTest::newRow("fgd wfp3 none, committed head")
            << "fgd" << int(policy::QueueOrder::Wfp3) << int(sim::Backfill::None) << 1 << true << true;
    }
    void overloadedQueueShortcutsChangeNothing()
    {
        QFETCH(QString, policy);
        QFETCH(int, queue);
        QFETCH(int, backfill);
        QFETCH(int, tie);
        QFETCH(bool, log);
        QFETCH(bool, commitHead);
        trace::GeneratorOptions g;
        g.nodes = 12;
        g.jobs = 2500;
        g.seed = 11;
        g.targetGpuLoad = 4;
        auto t = trace::generateTrace(g);
        QVERIFY(t.ok());
        sim::TimedOptions o;
        o.queue = policy::QueueOrder(queue);
        o.backfill = sim::Backfill(backfill);
        o.tieBreak = tie == 1 ? policy::TieBreak::First : policy::TieBreak::Random;
        o.head = commitHead ? sim::HeadRule::Commit : sim::HeadRule::Resort;
        sim::Recording rec;
        rec.heat = false;
        rec.decisions = log;
        const sim::TimedResult fast = mustRun(t.value(), o, policy.toStdString(), rec);
        Unassuming slow(policy::makePlacementPolicy(policy.toStdString()));
        auto r = sim::runTimedReplay(t.value(), slow, o, rec);
        QVERIFY(r.ok());
        const sim::TimedResult& full = r.value();
        int peakQueue = 0;
        for (const auto& p : full.series)
            peakQueue = std::max(peakQueue, p.queued);
        QVERIFY2(peakQueue > 500, qPrintable(QString::number(peakQueue))); // really overloaded
        QCOMPARE(fast.decisions.size(), full.decisions.size());
        for (std::size_t i = 0; i < full.decisions.size(); ++i) {
            const sim::Decision& a = fast.decisions.decisions()[i];
            const sim::Decision& b = full.decisions.decisions()[i];
            QCOMPARE(a.task, b.task);
            QCOMPARE(a.node, b.node);
            QCOMPARE(int(a.outcome), int(b.outcome));
            QCOMPARE(a.timeS, b.timeS);
        }
        for (std::size_t i = 0; i < full.units_.size(); ++i)
            QCOMPARE(fast.units_[i].startS, full.units_[i].startS);
        QCOMPARE(fast.waitS.mean, full.waitS.mean);
        QCOMPARE(fast.backfilled, full.backfilled);
        QCOMPARE(fast.energyKWh, full.energyKWh);
        QCOMPARE(fast.scheduleHash, full.scheduleHash);
        // Exactly: the fragmentation sums are integers, so the tentative tries the fast replay
        // skips (placed and taken back) leave no trace in them.
        QVERIFY(fast.meanGpuFragRate == full.meanGpuFragRate);
        QVERIFY(fast.meanCpuFragRate == full.meanCpuFragRate);
        QCOMPARE(fast.series.size(), full.series.size());
        for (std::size_t i = 0; i < full.series.size(); ++i)
            QVERIFY(fast.series[i].cpuFragRate == full.series[i].cpuFragRate);
    }

    void seriesIsSampledAndCancelWorks()
    {
        TraceBuilder b = backfillScenario();
        sim::TimedOptions o;
        o.tickS = 5;
        sim::TimedResult r = mustRun(b.t, o);
        QVERIFY(r.series.size() >= 7); // ticks 0, 5, ..., 35 (+ the final sample)
        QCOMPARE(r.series.front().timeS, 0.0);
        QCOMPARE(r.series[1].cpuUtil, 0.5); // t=5: A only (2 of 4)
        QCOMPARE(r.series[2].cpuUtil, 1.0); // t=10: B
        QCOMPARE(r.series[2].queued, 2);
        // Heatmap: one node, one column per tick; dominant share = cpu here (memory is unused).
        QCOMPARE(r.heat.nodes, 1);
        QCOMPARE(r.heat.columns(), int(r.series.size()));
        QCOMPARE(r.heat.x[1], 5.0);
        QCOMPARE(int(r.heat.at(1, 0)), 50);
        QCOMPARE(int(r.heat.at(2, 0)), 100);
        sim::Recording noHeat;
        noHeat.heat = false;
        QCOMPARE(mustRun(b.t, o, "firstfit", noHeat).heat.columns(), 0);
        CancelToken cancel;
        cancel.cancel();
        trace::GeneratorOptions g;
        g.nodes = 8;
        g.jobs = 5000;
        auto t = trace::generateTrace(g);
        auto p = policy::makePlacementPolicy("firstfit");
        auto c = sim::runTimedReplay(t.value(), *p, {}, {}, cancel);
        QVERIFY(!c.ok());
        QVERIFY(c.error().isCancelled());
    }
};

QTEST_GUILESS_MAIN(TestTimed)
#include "test_timed.moc"
