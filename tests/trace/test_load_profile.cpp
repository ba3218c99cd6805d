// The load profile behind "auto" mode, the overview strip and the default replay window:
// requested load per bin, hand-computed on tiny traces.

#include "trace/load_profile.h"
#include "trace_builder.h"

#include <QtTest>

using namespace schedlab;
using schedlab::test::TraceBuilder;

class TestLoadProfile : public QObject {
    Q_OBJECT
private slots:
    void cpuBinsHandComputed()
    {
        // 2 nodes x 4 cores = 8 cores. A: 2 cores over [0,10); B: 4 cores over [5,15); C: 1 core over [20,30).
        TraceBuilder b;
        b.node(4000, 8192, 0).node(4000, 8192, 0);
        b.task(2000, 100, 0, 0, 0, 10).task(4000, 100, 0, 0, 5, 10).task(1000, 100, 0, 0, 20, 10);
        const trace::LoadProfile p = trace::loadProfile(b.t, 3);
        QCOMPARE(p.resource, std::string("CPU"));
        QCOMPARE(p.capacity, 8.0);
        QCOMPARE(p.startS, 0.0);
        QCOMPARE(p.endS, 30.0);
        QCOMPARE(p.binS, 10.0);
        QCOMPARE(p.requested.size(), std::size_t(3));
        // bin 0: A 2 x 10 s + B 4 x 5 s = 40 core-seconds over 10 s; bin 1: B 4 x 5 s; bin 2: C 1 x 10 s.
        QCOMPARE(p.requested[0], 4.0);
        QCOMPARE(p.requested[1], 2.0);
        QCOMPARE(p.requested[2], 1.0);
        QCOMPARE(p.peakShare(), 0.5);
        QCOMPARE(p.jobs, std::size_t(3));
        QCOMPARE(p.jobsWithTimes, std::size_t(3));
    }

    void gpuWhenAskedForAndPresent()
    {
        // 2 nodes x 4 GPUs = 8 GPUs. A: 2 whole GPUs over [0,100); B: half a GPU over [50,100); C: no times (a pod).
        TraceBuilder b;
        b.node(32000, 65536, 4).node(32000, 65536, 4);
        b.task(4000, 100, 2, 1000, 0, 100).task(1000, 100, 1, 500, 50, 50).task(1000, 100, 1, 1000, -1, -1);
        const trace::LoadProfile p = trace::loadProfile(b.t, 2);
        QCOMPARE(p.resource, std::string("GPU"));
        QCOMPARE(p.capacity, 8.0);
        QCOMPARE(p.requested[0], 2.0);
        QCOMPARE(p.requested[1], 2.5);
        QCOMPARE(p.peakShare(), 2.5 / 8);
        QCOMPARE(p.jobsWithTimes, std::size_t(2));
        QCOMPARE(p.jobs, std::size_t(3));

        // The same workload on CPU-only nodes is profiled in cores.
        TraceBuilder c;
        c.node(8000, 65536, 0);
        c.task(4000, 100, 2, 1000, 0, 100);
        QCOMPARE(trace::loadProfile(c.t, 1).resource, std::string("CPU"));
        QCOMPARE(trace::loadProfile(c.t, 1).requested[0], 4.0);
    }

    void noTimesGivesAnEmptyProfile()
    {
        TraceBuilder b;
        b.node(4000, 8192, 1).task(1000, 100, 1, 1000, -1, -1);
        const trace::LoadProfile p = trace::loadProfile(b.t);
        QVERIFY(p.empty());
        QCOMPARE(p.peakShare(), 0.0);
        QCOMPARE(p.jobsWithTimes, std::size_t(0));
        const trace::TimeSpan whole = trace::busiestStretch(p, 3600);
        QCOMPARE(whole.lengthS(), 0.0);
    }

    void busiestStretch()
    {
        trace::LoadProfile p;
        p.startS = 100;
        p.endS = 150;
        p.binS = 10;
        p.requested = { 1, 3, 3, 0, 5 };
        // One bin: the last (5); two bins: bins 1-2 (6); three bins: 2-4 (8) over 0-2 (7) and 1-3 (6).
        QCOMPARE(trace::busiestStretch(p, 10).fromS, 140.0);
        QCOMPARE(trace::busiestStretch(p, 10).toS, 150.0);
        QCOMPARE(trace::busiestStretch(p, 20).fromS, 110.0);
        QCOMPARE(trace::busiestStretch(p, 20).toS, 130.0);
        QCOMPARE(trace::busiestStretch(p, 30).fromS, 120.0);
        QCOMPARE(trace::busiestStretch(p, 30).toS, 150.0);
        // Shorter than a bin still takes one; longer than the span takes it all.
        QCOMPARE(trace::busiestStretch(p, 1).fromS, 140.0);
        QCOMPARE(trace::busiestStretch(p, 500).fromS, 100.0);
        QCOMPARE(trace::busiestStretch(p, 500).toS, 150.0);
        // Equal stretches: the earliest.
        p.requested = { 2, 2, 2, 2, 2 };
        QCOMPARE(trace::busiestStretch(p, 20).fromS, 100.0);
    }

    // A kubectl dump's pods still running at the dump run until its last moment: the level is
    // highest after the last pod was created, where a replay has nothing to schedule. The window
    // is the busiest one with a submit in it.
    void busiestStretchHasArrivals()
    {
        // 8 cores. A: 2 cores [0, 1000); B: 4 cores [45, 1000). Level 2 to 45 s, then 6.
        TraceBuilder b;
        b.node(8000, 8192, 0);
        b.task(2000, 100, 0, 0, 0, 1000).task(4000, 100, 0, 0, 45, 955);
        const trace::LoadProfile p = trace::loadProfile(b.t, 100); // 10-s bins
        QCOMPARE(p.arrivals.size(), std::size_t(100));
        QCOMPARE(p.arrivals[0], std::size_t(1));
        QCOMPARE(p.arrivals[4], std::size_t(1));
        // 100-s windows: [50, 150) and every later one hold 600 core-s but no submit; [40, 140)
        // holds 2 x 5 + 6 x 95 = 580 and B's submit: the busiest with one.
        const trace::TimeSpan w = trace::busiestStretch(p, 100);
        QCOMPARE(w.fromS, 40.0);
        QCOMPARE(w.toS, 140.0);
        // When the caller rounds starts down to 100 s, [50, 150) is replayed from 0 and so holds
        // both submits: it is the pick; [100, 200) still holds none.
        QCOMPARE(trace::busiestStretch(p, 100, 100).fromS, 50.0);
    }

    void defaultWindowLength()
    {
        trace::LoadProfile p;
        const double day = 86400;
        auto lengthFor = [&](double span) {
            p.startS = 1000;
            p.endS = 1000 + span;
            return trace::defaultWindowLengthS(p);
        };
        QCOMPARE(lengthFor(3600), 3600.0); // up to two days: all of it
        QCOMPARE(lengthFor(2 * day), 2 * day);
        QCOMPARE(lengthFor(5 * day), 1 * day); // a tenth is half a day: at least one
        QCOMPARE(lengthFor(30 * day), 3 * day); // a tenth
        QCOMPARE(lengthFor(149 * day), 7 * day); // at most a week
    }

    void epochFromMetadata()
    {
        trace::Trace t;
        QVERIFY(!trace::epochOf(t).has_value());
        t.metadata["swf.UnixStartTime"] = "1027839845";
        QCOMPARE(*trace::epochOf(t), 1027839845.0);
        t.metadata["epoch.unixS"] = "1500000000.5"; // an importer's epoch comes first
        QCOMPARE(*trace::epochOf(t), 1500000000.5);
        t.metadata["epoch.unixS"] = "soon";
        QCOMPARE(*trace::epochOf(t), 1027839845.0);
        t.metadata["swf.UnixStartTime"] = "-5";
        QVERIFY(!trace::epochOf(t).has_value());
    }
};

QTEST_GUILESS_MAIN(TestLoadProfile)
#include "test_load_profile.moc"
