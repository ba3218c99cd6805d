// The free-shape index (cluster/free_shape_index.h) and the decisions scored by shape
// (policy/shape_placement.cpp) against the plain scan over every node: on random heterogeneous
// clusters with GPUs and random allocate / release sequences, the same node, GPUs and feasible
// count every time, and the same random stream afterwards, under every tie rule.

#include "trace_builder.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/placement_policy.h"

#include <QtTest>

#include <map>

using namespace schedlab;
using namespace schedlab::policy;
using schedlab::test::TraceBuilder;

namespace {

// A few node types, so nodes share shapes and scores tie; two GPU models.
void randomCluster(TraceBuilder& b, Rng& rng, int nodes)
{
    b.t.gpuModels = { "A", "B" };
    for (int i = 0; i < nodes; ++i) {
        switch (rng.below(5)) {
        case 0: b.node(8000, 32768, 0); break;
        case 1: b.node(8000, 0, 0); break; // no memory figure, as SWF nodes
        case 2: b.node(16000, 65536, 2, 0); break;
        case 3: b.node(32000, 131072, 4, 1); break;
        default: b.node(64000, 262144, 8, 0); break;
        }
    }
}

trace::TaskRequest randomRequest(Rng& rng)
{
    static const int64_t cpus[] = { 500, 1000, 2000, 4000, 8000 };
    static const int64_t mems[] = { 0, 1024, 4096, 16384 };
    trace::TaskRequest r;
    r.cpuMilli = cpus[rng.below(5)];
    r.memMiB = mems[rng.below(4)];
    switch (rng.below(4)) {
    case 0: break;
    case 1:
        r.numGpu = 1;
        r.gpuMilli = rng.below(2) ? 250 : 500;
        break;
    default:
        r.numGpu = 1 + int32_t(rng.below(3));
        r.gpuMilli = 1000;
        break;
    }
    if (r.needsGpu() && rng.below(4) == 0)
        r.gpuModelMask = 1u << rng.below(2);
    return r;
}

std::unique_ptr<PlacementPolicy> make(const std::string& name)
{
    if (name.rfind("config:", 0) != 0)
        return makePlacementPolicy(name);
    const std::string strategy = name.substr(7);
    std::string yaml = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                       "- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
                       "      scoringStrategy:\n        type: "
        + strategy + "\n        resources:\n        - {name: cpu, weight: 1}\n        - {name: memory, weight: 1}\n"
                     "        - {name: nvidia.com/gpu, weight: 2}\n";
    if (strategy == "RequestedToCapacityRatio")
        yaml += "        requestedToCapacityRatio:\n          shape:\n          - {utilization: 0, score: 0}\n"
                "          - {utilization: 100, score: 10}\n";
    auto config = parseKubeSchedulerConfig(yaml, "test.yaml");
    if (!config)
        qFatal("%s", config.error().toString().c_str());
    return makeConfiguredKubernetes("k8s-default", *config);
}

// Every group holds exactly the nodes of its shape, and every node is in one group.
bool indexMatchesState(const cluster::ClusterState& c, const cluster::FreeShapeIndex& index)
{
    int covered = 0;
    for (int32_t g : index.groups()) {
        const uint64_t* bits = index.members(g);
        const int rep = index.representative(g);
        int count = 0, lowest = -1;
        for (int n = 0; n < c.nodeCount(); ++n) {
            if (!((bits[n / 64] >> (n % 64)) & 1u))
                continue;
            ++count;
            if (lowest < 0)
                lowest = n;
            if (c.freeCpu(n) != c.freeCpu(rep) || c.freeMem(n) != c.freeMem(rep) || c.capCpu(n) != c.capCpu(rep)
                || c.capMem(n) != c.capMem(rep) || c.freeGpuMilli(n) != c.freeGpuMilli(rep) || c.numGpu(n) != c.numGpu(rep)
                || c.maxGpuFree(n) != c.maxGpuFree(rep) || c.fullyFreeGpus(n) != c.fullyFreeGpus(rep)
                || c.gpuModel(n) != c.gpuModel(rep))
                return false;
        }
        if (count != index.size(g) || lowest != rep)
            return false;
        covered += count;
    }
    return covered == c.nodeCount();
}

} // namespace

class TestShapeIndex : public QObject {
    Q_OBJECT
private slots:
    void sameDecisionsAsTheScan_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("tieBreak");
        for (const char* p : { "bestfit", "worstfit", "mostallocated", "k8s-default", "config:LeastAllocated",
                 "config:MostAllocated", "config:RequestedToCapacityRatio" })
            for (TieBreak t : kTieBreaks)
                QTest::newRow((std::string(p) + " ties " + tieBreakName(t)).c_str()) << QString(p) << int(t);
    }

    void sameDecisionsAsTheScan()
    {
        QFETCH(QString, policy);
        QFETCH(int, tieBreak);
        int64_t decisions = 0, indexed = 0, multiTies = 0;
        for (uint64_t trial = 0; trial < 30; ++trial) {
            Rng setup(1000 + trial);
            TraceBuilder b;
            randomCluster(b, setup, 1 + int(setup.below(150)));
            cluster::ClusterState c(b.t);
            auto scan = make(policy.toStdString());
            auto byShape = make(policy.toStdString());
            QVERIFY(scan && byShape);
            dynamic_cast<ScoringPolicy&>(*scan).setShapeIndexUse(ShapeIndexUse::Never);
            dynamic_cast<ScoringPolicy&>(*byShape).setShapeIndexUse(ShapeIndexUse::Always);
            for (PlacementPolicy* p : { scan.get(), byShape.get() }) {
                p->setTieBreak(TieBreak(tieBreak), 77 + trial);
                p->reset(PolicyContext { b.t, nullptr }, c);
            }
            std::vector<cluster::Placement> live;
            Rng runA(trial), runB(trial);
            for (int step = 0; step < 400; ++step) {
                if (!live.empty() && setup.below(3) == 0) { // release one at random
                    const std::size_t k = setup.below(live.size());
                    c.release(live[k]);
                    live[k] = live.back();
                    live.pop_back();
                    continue;
                }
                const trace::TaskRequest r = randomRequest(setup);
                const PlacementDecision a = scan->place(c, PlacementRequest { r, nullptr, nullptr, 0 }, runA, 0);
                indexed += c.freeShapes() != nullptr;
                const PlacementDecision d = byShape->place(c, PlacementRequest { r, nullptr, nullptr, 0 }, runB, 0);
                ++decisions;
                const QByteArray where = QString("trial %1 step %2").arg(trial).arg(step).toUtf8();
                QVERIFY2(a.node == d.node, where.constData());
                QVERIFY2(a.gpuMask == d.gpuMask, where.constData());
                QVERIFY2(a.feasible == d.feasible, where.constData());
                QVERIFY2(runA.next() == runB.next(), where.constData()); // as many draws
                multiTies += a.feasible > 1;
                if (a.node >= 0) {
                    live.push_back(c.makePlacement(a.node, r, a.gpuMask));
                    c.allocate(live.back());
                }
                if (const cluster::FreeShapeIndex* index = c.freeShapes())
                    QVERIFY2(indexMatchesState(c, *index), where.constData());
            }
        }
        // The index served (at most 64 shapes) and there were choices to make.
        QVERIFY(indexed > decisions * 9 / 10);
        QVERIFY(multiTies > decisions / 4);
    }

    void manyEqualNodesDrawAsTheScan()
    {
        // 300 equal empty nodes and five partly used ones spread between them: the scan's random
        // ties draw across two running-best levels (packing policies: the empty nodes before
        // node 7, then the five); the index must draw the same and pick the same.
        TraceBuilder b;
        for (int i = 0; i < 300; ++i)
            b.node(8000, 0, 0);
        cluster::ClusterState c(b.t);
        const trace::TaskRequest one { 1000, 0, 0, 0, 0 };
        for (int n : { 7, 70, 71, 150, 299 })
            c.allocate(c.makePlacement(n, one, 0));
        for (const char* name : { "bestfit", "worstfit", "k8s-default", "mostallocated" }) {
            auto scan = makePlacementPolicy(name), byShape = makePlacementPolicy(name);
            dynamic_cast<ScoringPolicy&>(*scan).setShapeIndexUse(ShapeIndexUse::Never);
            dynamic_cast<ScoringPolicy&>(*byShape).setShapeIndexUse(ShapeIndexUse::Always);
            std::map<int, int> chosen;
            for (uint64_t seed = 0; seed < 200; ++seed) {
                Rng a(seed), d(seed);
                const int na = scan->place(c, PlacementRequest { one, nullptr, nullptr, 0 }, a, 0).node;
                const int nd = byShape->place(c, PlacementRequest { one, nullptr, nullptr, 0 }, d, 0).node;
                QCOMPARE(nd, na);
                QCOMPARE(d.next(), a.next());
                ++chosen[na];
            }
            QVERIFY2(chosen.size() > 1, name); // the ties were really drawn
        }
    }

    void indexGivesUpWithTooManyShapes()
    {
        // Every node a different size: more shapes than kMaxShapes, so no index and the scan.
        TraceBuilder b;
        for (int i = 0; i < cluster::FreeShapeIndex::kMaxShapes + 10; ++i)
            b.node(1000 * (i + 1), 0, 0);
        cluster::ClusterState c(b.t);
        QVERIFY(!c.freeShapes());
        TraceBuilder small;
        small.node(8000, 0, 0).node(8000, 0, 0);
        cluster::ClusterState s(small.t);
        QVERIFY(s.freeShapes());
        QCOMPARE(int(s.freeShapes()->groups().size()), 1);
        s.allocate(s.makePlacement(1, { 1000, 0, 0, 0, 0 }, 0));
        QCOMPARE(int(s.freeShapes()->groups().size()), 2);
        cluster::ClusterState copy = s; // a copy builds its own index when asked
        copy.allocate(copy.makePlacement(0, { 1000, 0, 0, 0, 0 }, 0));
        QCOMPARE(int(copy.freeShapes()->groups().size()), 1);
        QCOMPARE(int(s.freeShapes()->groups().size()), 2);
        copy.release(copy.makePlacement(1, { 1000, 0, 0, 0, 0 }, 0)); // kept up to date once built
        QCOMPARE(int(copy.freeShapes()->groups().size()), 2);
        QCOMPARE(copy.freeShapes()->size(copy.freeShapes()->groups()[0]) + copy.freeShapes()->size(copy.freeShapes()->groups()[1]), 2);
        copy = s; // assigned: again without one until asked
        QCOMPARE(int(copy.freeShapes()->groups().size()), 2);
    }
};

QTEST_GUILESS_MAIN(TestShapeIndex)
#include "test_shape_index.moc"
