// The fill experiment (docs/fill-experiment.md) on tiny hand-made traces and on a generated one.

#include "trace_builder.h"

#include "sim/fill_experiment.h"
#include "trace/trace_generator.h"

#include <QtTest>

#include <set>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {
sim::FillResult mustFill(const trace::Trace& t, const std::string& policyName, sim::FillOptions o)
{
    auto p = policy::makePlacementPolicy(policyName);
    auto r = sim::runFillExperiment(t, *p, o);
    if (!r)
        qFatal("fill failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}
} // namespace

class TestFill : public QObject {
    Q_OBJECT
private slots:
    void noRoomToInflate()
    {
        // 2 GPUs; pods share 500 + one whole GPU = 1500 milli. Ratio .75 -> cap 1500: any copy would
        // exceed it, so exactly the 2 pods arrive, both fit: 75 % allocated, 75 curve points.
        TraceBuilder b;
        b.node(64000, 65536, 2);
        b.task(1000, 1000, 1, 500).task(1000, 1000, 1, 1000);
        sim::FillOptions o;
        o.ratio = 0.75;
        sim::FillResult r = mustFill(b.t, "bestfit", o);
        QCOMPARE(r.pods, int64_t(2));
        QCOMPARE(r.placed, int64_t(2));
        QCOMPARE(r.failed, int64_t(0));
        QCOMPARE(r.finalGpuAllocPct, 75.0);
        QCOMPARE(r.curve.size(), std::size_t(75));
        QCOMPARE(r.curve.back().arrivedPct, 75);
        QCOMPARE(r.curve.back().gpuAllocPct, 75.0);
        QCOMPARE(r.decisions.size(), std::size_t(2));
    }

    void aPodListAboveTheRatioIsTrimmedDownToIt()
    {
        // 4 GPUs, ratio 1.0 (4000 gpu-milli); 6 whole-GPU pods and 2 cpu-only pods ask for 6000.
        // Random pods (any, as the authors' tuneDownPods) go until at most 4000 is asked: exactly
        // two GPU pods, plus whichever cpu-only pods were drawn on the way. No inflation after.
        TraceBuilder b;
        b.node(64000, 65536, 4);
        for (int i = 0; i < 6; ++i)
            b.task(1000, 0, 1, 1000);
        b.task(2000, 0, 0, 0).task(2000, 0, 0, 0);
        sim::FillOptions o;
        o.ratio = 1.0;
        std::set<int64_t> removedCounts;
        for (uint64_t seed = 1; seed <= 24; ++seed) {
            o.seed = seed;
            const sim::FillResult r = mustFill(b.t, "firstfit", o);
            QCOMPARE(r.originalPods, int64_t(8));
            QCOMPARE(r.originalRequestPct, 150.0);
            QVERIFY(r.podsRemoved >= 2 && r.podsRemoved <= 4);
            QCOMPARE(r.pods, 8 - r.podsRemoved);
            QCOMPARE(r.failed, int64_t(0)); // 4 GPU pods on 4 GPUs
            QCOMPARE(r.finalGpuAllocPct, 100.0);
            QCOMPARE(r.curve.back().arrivedPct, 100);
            removedCounts.insert(r.podsRemoved);
            const sim::FillResult again = mustFill(b.t, "firstfit", o);
            QCOMPARE(again.podsRemoved, r.podsRemoved);
            QCOMPARE(again.stateHash, r.stateHash);
        }
        QVERIFY(removedCounts.size() >= 2); // the seed chooses which pods go
        // The old behaviour behind the option: every pod, the last two GPU pods fail.
        o.trimAboveRatio = false;
        const sim::FillResult all = mustFill(b.t, "firstfit", o);
        QCOMPARE(all.pods, int64_t(8));
        QCOMPARE(all.podsRemoved, int64_t(0));
        QCOMPARE(all.failed, int64_t(2));
        QCOMPARE(all.curve.back().arrivedPct, 150);
        // Below the ratio nothing is removed (the list is inflated instead).
        o.trimAboveRatio = true;
        o.ratio = 2.0;
        const sim::FillResult up = mustFill(b.t, "firstfit", o);
        QCOMPARE(up.podsRemoved, int64_t(0));
        QVERIFY(up.pods > 8);
    }

    void overflowFailsWithoutRetry()
    {
        // 1 GPU, two whole-GPU pods (200 % of capacity already): the second fails and is not retried.
        TraceBuilder b;
        b.node(64000, 65536, 1);
        b.task(1000, 0, 1, 1000).task(1000, 0, 1, 1000);
        sim::FillOptions o;
        o.ratio = 1.0;
        o.trimAboveRatio = false; // every pod
        sim::FillResult r = mustFill(b.t, "firstfit", o);
        QCOMPARE(r.pods, int64_t(2));
        QCOMPARE(r.placed, int64_t(1));
        QCOMPARE(r.failed, int64_t(1));
        QCOMPARE(r.failedGpuMilli, int64_t(1000));
        QCOMPARE(r.finalGpuAllocPct, 100.0);
        QCOMPARE(r.curve.size(), std::size_t(200)); // arrived 200 %
        QCOMPARE(r.curve[99].gpuAllocPct, 100.0);
        QCOMPARE(r.curve[99].podsFailed, int64_t(0));
        QCOMPARE(r.curve[199].podsFailed, int64_t(1));
        QCOMPARE(r.finalFragRatePct, 0.0); // nothing free
        const auto& d = r.decisions.decisions();
        QCOMPARE(int(d[1].outcome), int(sim::Outcome::Failed));
    }

    void inflationStopsBeforeTheCap()
    {
        TraceBuilder b;
        for (int i = 0; i < 4; ++i)
            b.node(64000, 1 << 20, 8);
        b.task(2000, 0, 1, 300).task(4000, 0, 1, 1000).task(8000, 0, 2, 1000).task(1000, 0, 0, 0);
        sim::FillOptions o;
        o.ratio = 1.3;
        sim::FillResult r = mustFill(b.t, "fgd", o);
        QVERIFY(r.pods > 4);
        QCOMPARE(r.originalPods, int64_t(4));
        const double arrived = r.curve.back().arrivedExactPct;
        QVERIFY(arrived <= 130.0 + 1e-9);
        QVERIFY(arrived > 130.0 - 2 * 2000.0 / 32000.0 * 100.0); // within one largest pod of the cap
        QCOMPARE(r.placed + r.failed, r.pods);
        for (std::size_t i = 1; i < r.curve.size(); ++i) {
            QCOMPARE(r.curve[i].arrivedPct, r.curve[i - 1].arrivedPct + 1);
            QVERIFY(r.curve[i].gpuAllocPct >= r.curve[i - 1].gpuAllocPct);
            QVERIFY(r.curve[i].arrivedExactPct >= double(r.curve[i].arrivedPct));
        }
    }

    void deterministicPerSeed()
    {
        trace::GeneratorOptions g;
        g.nodes = 40;
        g.jobs = 800;
        auto t = trace::generateTrace(g);
        QVERIFY(t.ok());
        for (const char* name : { "bestfit", "fgd", "random", "k8s-default", "gpupacking" }) {
            sim::FillOptions o;
            o.seed = 42;
            sim::FillResult a = mustFill(t.value(), name, o), b = mustFill(t.value(), name, o);
            QCOMPARE(a.stateHash, b.stateHash);
            QCOMPARE(a.placed, b.placed);
            QCOMPARE(a.curve.size(), b.curve.size());
            for (std::size_t i = 0; i < a.curve.size(); ++i)
                QCOMPARE(a.curve[i].gpuAllocPct, b.curve[i].gpuAllocPct);
            o.seed = 43;
            sim::FillResult c = mustFill(t.value(), name, o);
            QVERIFY2(c.stateHash != a.stateHash, name);
        }
    }

    void badInputIsAnError()
    {
        TraceBuilder noGpus;
        noGpus.node(1000, 1000, 0);
        noGpus.task(100, 0, 0, 0);
        auto p = policy::makePlacementPolicy("bestfit");
        auto r = sim::runFillExperiment(noGpus.t, *p, {});
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("needs a cluster with GPUs") != std::string::npos);

        TraceBuilder cpuPods;
        cpuPods.node(1000, 1000, 1);
        cpuPods.task(100, 0, 0, 0);
        auto r2 = sim::runFillExperiment(cpuPods.t, *p, {});
        QVERIFY(!r2.ok());
        QVERIFY(r2.error().message.find("pods that ask for GPUs") != std::string::npos);

        sim::FillOptions bad;
        bad.ratio = -1;
        QVERIFY(!sim::runFillExperiment(cpuPods.t, *p, bad).ok());
    }

    void cancelStopsTheRun()
    {
        trace::GeneratorOptions g;
        g.nodes = 40;
        g.jobs = 2000;
        auto t = trace::generateTrace(g);
        CancelToken cancel;
        cancel.cancel();
        auto p = policy::makePlacementPolicy("fgd");
        auto r = sim::runFillExperiment(t.value(), *p, {}, {}, cancel);
        QVERIFY(!r.ok());
        QVERIFY(r.error().isCancelled());
    }
};

QTEST_GUILESS_MAIN(TestFill)
#include "test_fill.moc"
