// Feasibility, GPU choice and bookkeeping of the cluster state.

#include "trace_builder.h"

#include "sim/cluster_state.h"

#include <QtTest>

using namespace schedlab;
using schedlab::test::TraceBuilder;

class TestClusterState : public QObject {
    Q_OBJECT
private slots:
    void feasibility()
    {
        TraceBuilder b;
        b.node(8000, 16000, 4);
        sim::ClusterState c(b.t);
        QVERIFY(c.fits(0, { 8000, 16000, 4, 1000, 0 }));
        QVERIFY(!c.fits(0, { 8001, 0, 0, 0, 0 }));
        QVERIFY(!c.fits(0, { 0, 16001, 0, 0, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 5, 1000, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 1, 500, 0x2 })); // model 1 wanted, node has model 0
        // 300 on every GPU: a share of 700 still fits, a whole GPU does not
        for (int g = 0; g < 4; ++g)
            c.allocate(c.makePlacement(0, { 0, 0, 1, 300, 0 }, uint64_t(1) << g));
        QVERIFY(c.fits(0, { 0, 0, 1, 700, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 1, 701, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 1, 1000, 0 }));
        QVERIFY(c.fitsEmpty(0, { 0, 0, 4, 1000, 0 }));
    }

    void bestFitGpuChoice()
    {
        TraceBuilder b;
        b.node(8000, 16000, 4);
        sim::ClusterState c(b.t);
        c.allocate(c.makePlacement(0, { 0, 0, 1, 200, 0 }, 0x2)); // GPU1: 800 free
        c.allocate(c.makePlacement(0, { 0, 0, 1, 600, 0 }, 0x4)); // GPU2: 400 free
        QCOMPARE(c.bestFitGpus(0, { 0, 0, 1, 300, 0 }), uint64_t(0x4)); // least free that fits
        QCOMPARE(c.bestFitGpus(0, { 0, 0, 1, 500, 0 }), uint64_t(0x2));
        QCOMPARE(c.bestFitGpus(0, { 0, 0, 2, 1000, 0 }), uint64_t(0x9)); // whole GPUs 0 and 3
        QCOMPARE(c.bestFitGpus(0, { 0, 0, 3, 1000, 0 }), uint64_t(0));
    }

    void bookkeepingIsExactAndReversible()
    {
        TraceBuilder b;
        b.node(8000, 16000, 2).node(4000, 8000, 0);
        sim::ClusterState c(b.t);
        const uint64_t empty = c.stateHash();
        QCOMPARE(c.totalGpuMilli(), int64_t(2000));
        const sim::Placement p1 = c.makePlacement(0, { 1000, 2000, 2, 1000, 0 }, 0x3);
        const sim::Placement p2 = c.makePlacement(1, { 500, 100, 0, 0, 0 }, 0);
        const uint64_t v0 = c.version(0);
        c.allocate(p1);
        c.allocate(p2);
        QVERIFY(c.version(0) != v0);
        QCOMPARE(c.allocGpuMilli(), int64_t(2000));
        QCOMPARE(c.allocCpu(), int64_t(1500));
        QCOMPARE(c.freeMem(0), int64_t(14000));
        QCOMPARE(c.activeNodes(), 2);
        QCOMPARE(c.fullyFreeGpus(0), 0);
        QVERIFY(c.stateHash() != empty);
        c.release(p1);
        c.release(p2);
        QCOMPARE(c.activeNodes(), 0);
        QCOMPARE(c.allocGpuMilli(), int64_t(0));
        QCOMPARE(c.stateHash(), empty);
    }
};

QTEST_GUILESS_MAIN(TestClusterState)
#include "test_cluster_state.moc"
