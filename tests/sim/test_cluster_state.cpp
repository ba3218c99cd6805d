// Feasibility, GPU choice and bookkeeping of the cluster state.

#include "trace_builder.h"

#include "cluster/cluster_state.h"
#include "sim/node_heat.h"

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
        cluster::ClusterState c(b.t);
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

    void misfitReasons()
    {
        TraceBuilder b;
        b.node(8000, 16000, 4).node(4000, 4000, 0);
        cluster::ClusterState c(b.t);
        using M = cluster::Misfit;
        QCOMPARE(c.misfit(0, { 8000, 16000, 4, 1000, 0 }), M::Fits);
        QCOMPARE(c.misfit(0, { 0, 0, 1, 500, 0x2 }), M::GpuModel);
        QCOMPARE(c.misfit(0, { 0, 0, 5, 1000, 0 }), M::TooFewGpus);
        QCOMPARE(c.misfit(1, { 0, 0, 1, 500, 0 }), M::TooFewGpus); // a CPU node
        QCOMPARE(c.misfit(0, { 8001, 0, 0, 0, 0 }), M::TooSmall);
        c.allocate(c.makePlacement(0, { 4000, 12000, 1, 300, 0 }, 0x1));
        c.allocate(c.makePlacement(0, { 0, 0, 1, 300, 0 }, 0x2));
        c.allocate(c.makePlacement(0, { 0, 0, 1, 300, 0 }, 0x4));
        QCOMPARE(c.misfit(0, { 4001, 0, 0, 0, 0 }), M::Cpu);
        QCOMPARE(c.misfit(0, { 0, 4001, 0, 0, 0 }), M::Memory);
        QCOMPARE(c.misfit(0, { 0, 0, 1, 1000, 0 }), M::Fits); // GPU 3 is free
        QCOMPARE(c.misfit(0, { 0, 0, 2, 1000, 0 }), M::FreeGpus);
        c.allocate(c.makePlacement(0, { 0, 0, 1, 300, 0 }, 0x8));
        QCOMPARE(c.misfit(0, { 0, 0, 1, 700, 0 }), M::Fits);
        QCOMPARE(c.misfit(0, { 0, 0, 1, 701, 0 }), M::GpuShare);
        QCOMPARE(QString(cluster::misfitName(M::GpuShare)), QString("insufficient GPU memory (share)"));
        // Fits exactly when fits(), over many requests
        for (int64_t cpu : { 0, 3000, 4000, 5000 })
            for (int64_t mem : { 0, 4000, 5000 })
                for (int gpus : { 0, 1, 2, 5 })
                    for (int milli : { 200, 700, 701, 1000 })
                        for (uint32_t mask : { 0u, 1u, 2u })
                            for (int n = 0; n < 2; ++n) {
                                const trace::TaskRequest r { cpu, mem, gpus, gpus ? milli : 0, gpus ? mask : 0u };
                                QCOMPARE(c.misfit(n, r) == M::Fits, c.fits(n, r));
                            }
    }

    void nodeHeatDominantShareAndHalving()
    {
        TraceBuilder b;
        b.node(8000, 16000, 4).node(4000, 1000, 0);
        cluster::ClusterState c(b.t);
        c.allocate(c.makePlacement(0, { 1000, 2000, 1, 500, 0 }, 0x1)); // cpu 12.5 %, mem 12.5 %, gpu 12.5 %
        c.allocate(c.makePlacement(0, { 0, 0, 2, 1000, 0 }, 0x6)); // gpu now 2.5 of 4 = 62.5 %
        QCOMPARE(int(sim::NodeHeatRecorder::nodeUtilPct(c, 0)), 63); // 62.5 rounds away from zero
        c.allocate(c.makePlacement(1, { 1000, 900, 0, 0, 0 }, 0)); // cpu 25 %, mem 90 %
        QCOMPARE(int(sim::NodeHeatRecorder::nodeUtilPct(c, 1)), 90);

        // Four columns at most: offers 0..9 with node 1 at 90 % throughout. After offers 0-3 the
        // recorder is full; offer 4 halves to (0,2) and keeps 4; 5 skipped, 6 kept; offer 8
        // halves again to (0,4) and keeps 8 with stride 4; 9 skipped.
        sim::NodeHeatRecorder rec(2, 4);
        for (int i = 0; i < 10; ++i)
            rec.offer(i, c);
        const sim::NodeHeat h = rec.take();
        QCOMPARE(h.x, (std::vector<double> { 0, 4, 8 }));
        QCOMPARE(int(h.at(2, 1)), 90);
        QCOMPARE(h.util.size(), std::size_t(6));
    }

    void bestFitGpuChoice()
    {
        TraceBuilder b;
        b.node(8000, 16000, 4);
        cluster::ClusterState c(b.t);
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
        cluster::ClusterState c(b.t);
        const uint64_t empty = c.stateHash();
        QCOMPARE(c.totalGpuMilli(), int64_t(2000));
        const cluster::Placement p1 = c.makePlacement(0, { 1000, 2000, 2, 1000, 0 }, 0x3);
        const cluster::Placement p2 = c.makePlacement(1, { 500, 100, 0, 0, 0 }, 0);
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

    void freestGpuAndFullyFreeCountFollowEveryChange()
    {
        TraceBuilder b;
        b.node(64000, 64000, 4).node(8000, 8000, 0);
        cluster::ClusterState c(b.t);
        QCOMPARE(c.maxGpuFree(0), 1000);
        QCOMPARE(c.fullyFreeGpus(0), 4);
        QCOMPARE(c.maxGpuFree(1), 0);
        QCOMPARE(c.fullyFreeGpus(1), 0);
        // 700 of GPU 1, then 400 of GPUs 0, 2 and 3: the freest has 600 left
        const cluster::Placement a = c.makePlacement(0, { 1000, 0, 1, 700, 0 }, 0x2);
        const cluster::Placement d { 0, 1000, 0, 400, 0xD }; // 400 of each of GPUs 0, 2 and 3
        c.allocate(a);
        QCOMPARE(c.maxGpuFree(0), 1000);
        QCOMPARE(c.fullyFreeGpus(0), 3);
        c.allocate(d);
        QCOMPARE(c.maxGpuFree(0), 600);
        QCOMPARE(c.fullyFreeGpus(0), 0);
        QVERIFY(c.fits(0, { 0, 0, 1, 600, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 1, 601, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 1, 1000, 0 }));
        c.release(a);
        QCOMPARE(c.maxGpuFree(0), 1000);
        QCOMPARE(c.fullyFreeGpus(0), 1);
        QVERIFY(c.fits(0, { 0, 0, 1, 1000, 0 }));
        QVERIFY(!c.fits(0, { 0, 0, 2, 1000, 0 }));
        const cluster::ClusterState copy = c; // copies keep them too
        c.release(d);
        QCOMPARE(c.fullyFreeGpus(0), 4);
        QCOMPARE(copy.fullyFreeGpus(0), 1);
        QCOMPARE(copy.maxGpuFree(0), 1000);
    }
};

QTEST_GUILESS_MAIN(TestClusterState)
#include "test_cluster_state.moc"
