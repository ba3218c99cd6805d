// FGD fragmentation (docs/metrics.md §3) on hand-worked nodes.

#include "trace_builder.h"

#include "metrics/fragmentation.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::metrics;

namespace {
TaskClass cls(int64_t cpu, int numGpu, int gpuMilli, double p)
{
    TaskClass c;
    c.request = trace::TaskRequest { cpu, 0, numGpu, gpuMilli, 0 };
    c.weight = p;
    return c;
}
} // namespace

class TestFragmentation : public QObject {
    Q_OBJECT
private slots:
    void handWorkedNode()
    {
        // GPUs free [1000, 1000, 600, 200]; classes: share 500 (p .5), one whole GPU (p .3), CPU-only (p .2)
        const int32_t gpus[4] = { 1000, 1000, 600, 200 };
        NodeView n { 10000, 10000, 4, 0, gpus };
        TypicalWorkload w;
        w.classes = { cls(1000, 1, 500, 0.5), cls(2000, 1, 1000, 0.3), cls(4000, 0, 0, 0.2) };
        // share 500: hostable; GPUs below 500 free: 200
        QCOMPARE(nodeGpuFragForClass(n, w.classes[0].request), 200.0);
        // whole GPU: hostable; GPUs below 1000 free: 600 + 200
        QCOMPARE(nodeGpuFragForClass(n, w.classes[1].request), 800.0);
        // CPU-only: all free GPU
        QCOMPARE(nodeGpuFragForClass(n, w.classes[2].request), 2800.0);
        // 0.5*200 + 0.3*800 + 0.2*2800
        QCOMPARE(nodeGpuFrag(n, w), 900.0);
        // short of CPU for the whole-GPU class (needs 2000): that class sees all 2800 as fragment
        n.freeCpu = 1500;
        QCOMPARE(nodeGpuFrag(n, w), 0.5 * 200 + 0.3 * 2800 + 0.2 * 2800);
        // CPU fragmentation: free CPU 1500 counts for the classes it cannot host (whole GPU .3, CPU-only .2)
        QCOMPARE(nodeCpuFrag(n, w), 0.5 * 1500);
    }

    void wrongModelIsAllFragment()
    {
        const int32_t gpus[2] = { 1000, 1000 };
        NodeView n { 10000, 10000, 2, 1, gpus };
        trace::TaskRequest r { 1000, 0, 1, 1000, 0x1u }; // only model 0
        QCOMPARE(nodeGpuFragForClass(n, r), 2000.0);
    }

    void typicalWorkloadCoverage()
    {
        test::TraceBuilder b;
        for (int i = 0; i < 6; ++i)
            b.task(1000, 0, 1, 500);
        for (int i = 0; i < 3; ++i)
            b.task(2000, 0, 1, 1000);
        b.task(4000, 0, 0, 0);
        // 95 % of 10 tasks = 9.5: the 6 and the 3 cover 9, so the single one is needed too
        TypicalWorkload all = TypicalWorkload::fromTrace(b.t, 0.95);
        QCOMPARE(all.classes.size(), std::size_t(3));
        QCOMPARE(all.classes[0].weight, 0.6);
        QCOMPARE(all.classes[2].weight, 0.1);
        // 90 %: the first two classes cover 9 of 10; weights renormalised over them
        TypicalWorkload most = TypicalWorkload::fromTrace(b.t, 0.9);
        QCOMPARE(most.classes.size(), std::size_t(2));
        QCOMPARE(most.classes[0].weight, 6.0 / 9.0);
        QCOMPARE(most.classes[1].weight, 3.0 / 9.0);
    }

    // The fgd policy's target workload (the authors' GetTypicalPods): memory is not part of a class.
    void fgdTargetsIgnoreMemory()
    {
        test::TraceBuilder b;
        for (int i = 0; i < 3; ++i)
            b.task(1000, 2048, 1, 500);
        for (int i = 0; i < 3; ++i)
            b.task(1000, 4096, 1, 500);
        for (int i = 0; i < 4; ++i)
            b.task(2000, 8192, 0, 0);
        // fromTrace: three classes of 3, 3 and 4; fgdTargets: (1000, share 500) x 6, CPU-only x 4
        QCOMPARE(TypicalWorkload::fromTrace(b.t, 1.0).classes.size(), std::size_t(3));
        const TypicalWorkload w = TypicalWorkload::fgdTargets(b.t);
        QCOMPARE(w.classes.size(), std::size_t(2));
        QCOMPARE(w.classes[0].count, int64_t(6));
        QCOMPARE(w.classes[0].request.memMiB, int64_t(0));
        QCOMPARE(w.classes[0].weight, 0.6);
        QCOMPARE(w.classes[1].request.numGpu, 0); // CPU-only pods are targets too
        QCOMPARE(w.classes[1].request.memMiB, int64_t(0));
        // A node short of memory still hosts the classes (memory 0).
        const int32_t gpus[1] = { 1000 };
        NodeView n { 8000, 0, 1, 0, gpus };
        QCOMPARE(nodeGpuFragForClass(n, w.classes[0].request), 0.0);
    }

    void trackerFollowsAllocations()
    {
        test::TraceBuilder b;
        b.node(8000, 8000, 2).node(8000, 8000, 1);
        b.task(1000, 0, 1, 600); // the workload: one class, share 600
        cluster::ClusterState c(b.t);
        FragTracker f(c, TypicalWorkload::fromTrace(b.t));
        QCOMPARE(f.gpuFragAmount(), 0.0);
        // take 500 of GPU 0 on node 0: 500 left < 600 -> 500 of fragment
        cluster::Placement p = c.makePlacement(0, trace::TaskRequest { 1000, 0, 1, 500, 0 }, 0x1);
        c.allocate(p);
        f.nodeChanged(0);
        QCOMPARE(f.gpuFragAmount(), 500.0);
        QCOMPARE(f.gpuFragRate(), 500.0 / 2500.0);
        c.release(p);
        f.nodeChanged(0);
        QCOMPARE(f.gpuFragAmount(), 0.0);
    }

    void trackerSumsDoNotDependOnWhatWasTakenBack()
    {
        // Weights 1/3 and 2/3 (not exact in binary): a tentative placement taken back, many
        // times, on several nodes, must leave exactly the value of the untouched state, and two
        // orders of the same changes the same value.
        test::TraceBuilder b;
        b.node(8000, 8000, 4).node(8000, 8000, 4).node(16000, 16000, 8);
        b.task(1000, 0, 1, 300).task(1000, 0, 1, 700).task(1000, 0, 1, 700);
        b.task(7000, 0, 0, 0).task(7000, 0, 0, 0).task(7000, 0, 0, 0); // cpu only: 1/2 of the classes
        cluster::ClusterState c(b.t);
        FragTracker f(c, TypicalWorkload::fromTrace(b.t));
        const trace::TaskRequest r { 1000, 0, 1, 450, 0 };
        const cluster::Placement keep = c.makePlacement(2, r, 0x4);
        c.allocate(keep);
        f.nodeChanged(2);
        const double amount = f.gpuFragAmount(), cpu = f.cpuFragAmount();
        for (int i = 0; i < 50; ++i)
            for (int n = 0; n < 3; ++n) {
                const cluster::Placement p = c.makePlacement(n, r, uint64_t(1) << (i % 4));
                c.allocate(p);
                f.nodeChanged(n);
                c.release(p);
                f.nodeChanged(n);
            }
        // exact (QCOMPARE on doubles is fuzzy)
        QVERIFY2(f.gpuFragAmount() == amount, qPrintable(QString::number(f.gpuFragAmount() - amount)));
        QVERIFY2(f.cpuFragAmount() == cpu, qPrintable(QString::number(f.cpuFragAmount() - cpu)));
        // The value by hand: node 2 has GPU 2 at 550 free, the rest full (1000). A 300 share fits
        // and leaves nothing below 300: 0; a 700 share fits elsewhere, 550 < 700 is fragment.
        // Cpu-only tasks see all free gpu-milli as fragment (docs/metrics.md §3): 7550 on node 2, 4000 on
        // nodes 0 and 1. F = 3/6 x (7550 + 2 x 4000) + 2/6 x 550 + 1/6 x 0.
        QCOMPARE(amount, (3.0 * (7550 + 8000) + 2.0 * 550) / 6.0);

        // Many placements of three sizes taken and given back in a scrambled order: back to the
        // same state, the same value.
        std::vector<cluster::Placement> held;
        uint64_t lcg = 7;
        auto next = [&] { return (lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
        const int32_t sizes[] = { 130, 270, 410 };
        for (int step = 0; step < 400; ++step) {
            const bool take = held.empty() || (held.size() < 12 && next() % 3 != 0);
            if (take) {
                const int n = int(next() % 3);
                const trace::TaskRequest q { 500, 0, 1, sizes[next() % 3], 0 };
                const uint64_t g = c.bestFitGpus(n, q);
                if (!g)
                    continue;
                held.push_back(c.makePlacement(n, q, g));
                c.allocate(held.back());
                f.nodeChanged(n);
            } else {
                const std::size_t k = std::size_t(next() % held.size());
                c.release(held[k]);
                f.nodeChanged(held[k].node);
                held.erase(held.begin() + std::ptrdiff_t(k));
            }
        }
        for (const cluster::Placement& p : held) {
            c.release(p);
            f.nodeChanged(p.node);
        }
        QVERIFY2(f.gpuFragAmount() == amount, qPrintable(QString::number(f.gpuFragAmount() - amount)));
        QVERIFY2(f.cpuFragAmount() == cpu, qPrintable(QString::number(f.cpuFragAmount() - cpu)));

        const cluster::Placement a1 = c.makePlacement(0, r, 0x1), a2 = c.makePlacement(1, r, 0x2);
        c.allocate(a1);
        f.nodeChanged(0);
        c.allocate(a2);
        f.nodeChanged(1);
        const double ab = f.gpuFragAmount();
        c.release(a1);
        f.nodeChanged(0);
        c.release(a2);
        f.nodeChanged(1);
        c.allocate(a2);
        f.nodeChanged(1);
        c.allocate(a1);
        f.nodeChanged(0);
        QVERIFY2(f.gpuFragAmount() == ab, qPrintable(QString::number(f.gpuFragAmount() - ab)));
    }

    void trackerEqualsTheDefinitionOnRandomStates()
    {
        // The tracker groups classes by their GPU request; the sums must equal F_n(M) and the CPU
        // analogue evaluated class by class (nodeGpuFrag / nodeCpuFrag) on every state reached,
        // and so must GroupedWorkload::gpuFrag node by node.
        test::TraceBuilder b;
        b.t.gpuModels = { "A", "B" };
        for (int n = 0; n < 8; ++n)
            b.node(16000 + 8000 * (n % 3), 65536 * (1 + n % 2), (n % 4) * 2, int16_t(n % 2));
        uint64_t lcg = 3;
        auto next = [&] { return (lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
        const int32_t shares[] = { 250, 500, 1000 };
        for (int k = 0; k < 60; ++k) { // several cpu/mem sizes per GPU request
            const int32_t share = shares[next() % 3];
            const int gpus = next() % 4 == 0 ? 0 : (share < 1000 ? 1 : int(1 + next() % 4));
            b.task(int64_t(1000 * (1 + next() % 12)), int64_t(4096 * (1 + next() % 20)), gpus, gpus ? share : 0);
            if (gpus && next() % 3 == 0)
                b.t.tasks.back().request.gpuModelMask = 1u << (next() % 2);
        }
        const TypicalWorkload w = TypicalWorkload::fromTrace(b.t, 1.0);
        QVERIFY(w.classes.size() > 30);
        cluster::ClusterState c(b.t);
        FragTracker f(c, w);
        const GroupedWorkload grouped(w); // what the learned policy's features use, node by node
        auto check = [&] {
            double gpu = 0, cpu = 0;
            for (int n = 0; n < c.nodeCount(); ++n) {
                const double node = nodeGpuFrag(viewOf(c, n), w);
                if (std::abs(grouped.gpuFrag(viewOf(c, n)) - node) > 1e-9 * std::max(1.0, node))
                    return false;
                gpu += node;
                cpu += nodeCpuFrag(viewOf(c, n), w);
            }
            return std::abs(f.gpuFragAmount() - gpu) <= 1e-9 * std::max(1.0, gpu)
                && std::abs(f.cpuFragAmount() - cpu) <= 1e-9 * std::max(1.0, cpu);
        };
        QVERIFY(check());
        std::vector<cluster::Placement> held;
        int placed = 0;
        for (int step = 0; step < 600; ++step) {
            if (held.empty() || next() % 3 != 0) {
                const trace::TaskRequest& q = b.t.tasks[next() % b.t.tasks.size()].request;
                const int n = int(next() % uint64_t(c.nodeCount()));
                if (!c.fits(n, q))
                    continue;
                held.push_back(c.makePlacement(n, q, c.bestFitGpus(n, q)));
                c.allocate(held.back());
                f.nodeChanged(n);
                ++placed;
            } else {
                const std::size_t k = std::size_t(next() % held.size());
                c.release(held[k]);
                f.nodeChanged(held[k].node);
                held.erase(held.begin() + std::ptrdiff_t(k));
            }
            QVERIFY2(check(), qPrintable(QString("step %1").arg(step)));
        }
        QVERIFY(placed > 100);
    }
};

QTEST_GUILESS_MAIN(TestFragmentation)
#include "test_fragmentation.moc"
