// The logged policy replays what a log recorded and names what our model cannot reproduce:
// hand-built logs with one divergence of each kind, starts and counts worked out by hand.

#include "trace_builder.h"

#include "sim/timed_replay.h"
#include "test_util.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {
sim::TimedResult mustRun(const trace::Trace& t, const std::string& policyName)
{
    auto p = policy::makePlacementPolicy(policyName);
    auto r = sim::runTimedReplay(t, *p, sim::TimedOptions {});
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
void log(trace::Trace& t, int job, int node, double start)
{
    trace::Task& task = t.tasks[t.jobs[std::size_t(job)].firstTask];
    task.logged.node = trace::NodeId { node };
    task.logged.startTimeS = start;
    task.logged.endTimeS = start >= 0 ? start + t.jobs[std::size_t(job)].runTimeS : -1;
}
} // namespace

class TestLoggedReplay : public QObject {
    Q_OBJECT
private slots:
    // A control-plane node restarted three days after its static pods' mirror objects were
    // created (tests/data/k8s/mirror-pods-node-restart): their PodScheduled turned True again
    // 264,605 s after creation. The kubelet ran them; no scheduler queued them: they wait 0 s,
    // and the logged mean wait is the three scheduled pods' 3 s each over six pods: 1.5 s (it
    // was 132,303 s, their three-day "waits" included).
    void mirrorPodsDoNotWait()
    {
        auto l = trace::loadTrace({ test::dataPath("k8s/mirror-pods-node-restart") });
        QVERIFY2(l.ok(), l.ok() ? "" : l.error().toString().c_str());
        const sim::TimedResult r = mustRun(l->trace, "logged");
        QVERIFY2(r.divergences.empty(), r.firstDivergence.c_str());
        QCOMPARE(r.completed, int64_t(6));
        QCOMPARE(r.waitS.max, 3.0);
        QCOMPARE(r.waitS.mean, 1.5);
        QCOMPARE(r.waitS.min, 0.0);
    }

    void reproducesTheLog()
    {
        // n0 4 cores. A (t0, 3 cores, 10 s) logged at 5; B (t0, 1 core, 10 s) logged at 20 although
        // it fits at once: logged starts are kept, waits 5 and 20.
        TraceBuilder b;
        b.node(4000, 100, 0).task(3000, 10, 0, 0, 0, 10).task(1000, 10, 0, 0, 0, 10);
        log(b.t, 0, 0, 5);
        log(b.t, 1, 0, 20);
        const auto r = mustRun(b.t, "logged");
        QCOMPARE(startOf(r, 0), 5.0);
        QCOMPARE(startOf(r, 1), 20.0);
        QCOMPARE(r.failed, int64_t(0));
        QVERIFY(r.divergences.empty());
        QVERIFY(r.firstDivergence.empty());
        // Other policies ignore the log and never report divergences.
        const auto ff = mustRun(b.t, "firstfit");
        QCOMPARE(startOf(ff, 1), 0.0);
        QVERIFY(ff.divergences.empty());
    }

    void countsEveryKindAndNamesTheEarliest()
    {
        // n0 4 cores / 100 MiB, n1 2 cores.
        // 0: 3 cores on n0 at 5 (fine). 1: 2 cores on n0 at 6: 1 core free -> overcommitted.
        // 2: submitted 10, logged at 8 on n1 -> start-before-submit, starts at 10.
        // 3: a start (3) but no node -> no-logged-node. 4: no start -> no-logged-start (at its
        // submit, 2). 5: node #7, not in the cluster -> unknown-node (at 1).
        // 6: 200 MiB on n0 (100 MiB) at 30 -> overcommitted on memory.
        TraceBuilder b;
        b.node(4000, 100, 0).node(2000, 100, 0);
        b.task(3000, 10, 0, 0, 0, 10).task(2000, 10, 0, 0, 0, 10).task(1000, 10, 0, 0, 10, 5);
        b.task(1000, 10, 0, 0, 0, 5).task(1000, 10, 0, 0, 2, 5).task(1000, 10, 0, 0, 0, 5).task(1000, 200, 0, 0, 0, 5);
        log(b.t, 0, 0, 5);
        log(b.t, 1, 0, 6);
        log(b.t, 2, 1, 8);
        log(b.t, 3, -1, 3);
        log(b.t, 5, 7, 1);
        log(b.t, 6, 0, 30);
        const auto r = mustRun(b.t, "logged");
        QCOMPARE(r.divergences.at("overcommitted"), int64_t(2));
        QCOMPARE(r.divergences.at("start-before-submit"), int64_t(1));
        QCOMPARE(r.divergences.at("no-logged-node"), int64_t(1));
        QCOMPARE(r.divergences.at("no-logged-start"), int64_t(1));
        QCOMPARE(r.divergences.at("unknown-node"), int64_t(1));
        QCOMPARE(r.divergences.size(), std::size_t(5));
        QCOMPARE(startOf(r, 0), 5.0);
        QCOMPARE(startOf(r, 1), -1.0);
        QCOMPARE(startOf(r, 2), 10.0);
        QCOMPARE(r.failed, int64_t(5)); // 1, 3, 4, 5, 6 did not start
        QCOMPARE(r.completed, int64_t(2));
        // The earliest: job 5 at 1 s (job 4's no-logged-start at its submit, 2 s, comes later).
        QVERIFY2(r.firstDivergence.starts_with("unknown-node: job p1005 (id 5) at 1 s"), r.firstDivergence.c_str());
    }

    void namesTheResourceAndAmounts()
    {
        TraceBuilder b;
        b.node(4000, 100, 0).task(3000, 10, 0, 0, 0, 10).task(2000, 10, 0, 0, 0, 10);
        log(b.t, 0, 0, 0);
        log(b.t, 1, 0, 1);
        const auto r = mustRun(b.t, "logged");
        QCOMPARE(r.firstDivergence,
            std::string("overcommitted: job p1001 (id 1) at 1 s: node n0: cpu: asks 2000 milli-cores, 1000 milli-cores free "
                        "of 4000 milli-cores; not started"));
        TraceBuilder m;
        m.node(4000, 100, 0).task(1000, 80, 0, 0, 0, 10).task(1000, 40, 0, 0, 0, 10);
        log(m.t, 0, 0, 0);
        log(m.t, 1, 0, 1);
        QVERIFY2(mustRun(m.t, "logged").firstDivergence.find("memory: asks 40 MiB, 20 MiB free of 100 MiB") != std::string::npos,
            mustRun(m.t, "logged").firstDivergence.c_str());
    }
};

QTEST_APPLESS_MAIN(TestLoggedReplay)
#include "test_logged_replay.moc"
