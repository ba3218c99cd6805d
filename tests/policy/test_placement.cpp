// Every placement policy on a tiny cluster, with the scores worked out by hand in the comments.

#include "trace_builder.h"

#include "metrics/fragmentation.h"
#include "policy/placement_policy.h"

#include <QtTest>

#include <map>
#include <set>

using namespace schedlab;
using namespace schedlab::policy;
using schedlab::test::TraceBuilder;

namespace {
struct Setup {
    TraceBuilder b;
    std::unique_ptr<cluster::ClusterState> cluster;
    std::unique_ptr<PlacementPolicy> policy;
    void start(const std::string& name)
    {
        cluster = std::make_unique<cluster::ClusterState>(b.t);
        policy = makePlacementPolicy(name);
        QVERIFY(policy);
        policy->reset(PolicyContext { b.t, nullptr }, *cluster);
    }
    PlacementDecision place(const trace::TaskRequest& r, uint64_t seed = 1, int topK = 8)
    {
        Rng rng(seed);
        return policy->place(*cluster, PlacementRequest { r, nullptr, nullptr, 0 }, rng, topK);
    }
    void occupy(int node, const trace::TaskRequest& r, uint64_t mask)
    {
        const cluster::Placement p = cluster->makePlacement(node, r, mask);
        cluster->allocate(p);
        policy->onAllocated(p, r);
    }
};
} // namespace

class TestPlacement : public QObject {
    Q_OBJECT
private slots:
    void everyPolicyIsRegistered()
    {
        for (const PolicyInfo& info : placementPolicies()) {
            auto p = makePlacementPolicy(info.name);
            QVERIFY2(p, info.name.c_str());
            QCOMPARE(p->name(), info.name);
        }
        QVERIFY(!makePlacementPolicy("nope"));
    }

    void firstFitTakesTheLowestFeasibleNode()
    {
        Setup s;
        s.b.node(1000, 1000, 0).node(8000, 8000, 0).node(8000, 8000, 0);
        s.start("firstfit");
        PlacementDecision d = s.place({ 2000, 100, 0, 0, 0 });
        QCOMPARE(d.node, 1); // node 0 is too small
        QCOMPARE(d.feasible, 2);
        QCOMPARE(d.top.size(), std::size_t(2));
        QCOMPARE(d.top[0].node, 1);
    }

    void bestFitHandWorked()
    {
        // maxSpec 128000 cpu / 8000 gpu; task: 8000 cpu + one whole GPU
        // n0: free 64000 cpu, 8 GPUs: fit .5*56000/128000 + .5*7000/8000 = .65625 -> int(34.375) = 34
        // n1: free 16000 cpu, 2 GPUs: .5*8000/128000 + .5*1000/8000 = .09375   -> int(90.625) = 90
        // n2: free 40000 cpu, 1 GPU:  .5*32000/128000 + 0                 = .125 -> int(87.5)   = 87
        // min-max normalised: n1 100, n2 (87-34)*100/56 = 94, n0 0
        Setup s;
        s.b.node(64000, 1 << 20, 8).node(16000, 1 << 20, 2).node(40000, 1 << 20, 1);
        s.start("bestfit");
        PlacementDecision d = s.place({ 8000, 0, 1, 1000, 0 });
        QCOMPARE(d.node, 1);
        QCOMPARE(d.top.size(), std::size_t(3));
        QCOMPARE(d.top[0].raw, 90.0);
        QCOMPARE(d.top[0].score, 100.0);
        QCOMPARE(d.top[1].node, 2);
        QCOMPARE(d.top[1].raw, 87.0);
        QCOMPARE(d.top[1].score, 94.0);
        QCOMPARE(d.top[2].score, 0.0);

        s.start("worstfit"); // the emptiest node: n0
        QCOMPARE(s.place({ 8000, 0, 1, 1000, 0 }).node, 0);
    }

    void kubernetesDefaultHandWorked()
    {
        // task 1000 cpu, 4000 MiB
        // A: cap 4000/8000, empty. Least: cpu (4000-1000)*100/4000 = 75, mem (8000-4000)*100/8000 = 50 -> 62
        //    Balanced: fractions .25, .5 -> sd .125 -> 87.  Total 149
        // B: cap 8000/8000 with 6000 cpu used. Least: cpu 1000*100/8000 = 12, mem 50 -> 31
        //    Balanced: .875, .5 -> sd .1875 -> 81.  Total 112
        Setup s;
        s.b.node(4000, 8000, 0).node(8000, 8000, 0);
        s.start("k8s-default");
        s.cluster->allocate(s.cluster->makePlacement(1, { 6000, 0, 0, 0, 0 }, 0));
        PlacementDecision d = s.place({ 1000, 4000, 0, 0, 0 });
        QCOMPARE(d.node, 0);
        QCOMPARE(d.top[0].raw, 149.0);
        QCOMPARE(d.top[1].raw, 112.0);

        s.start("mostallocated");
        s.cluster->allocate(s.cluster->makePlacement(1, { 6000, 0, 0, 0, 0 }, 0));
        // A: (1000*100/4000 + 4000*100/8000)/2 = (25+50)/2 = 37; B: (7000*100/8000 + 50)/2 = (87+50)/2 = 68
        PlacementDecision m = s.place({ 1000, 4000, 0, 0, 0 });
        QCOMPARE(m.node, 1);
        QCOMPARE(m.top[0].raw, 68.0);
        QCOMPARE(m.top[1].raw, 37.0);
    }

    void kubernetesSamplingStopsEarly()
    {
        // 200 nodes: pct = max(5, 50 - 200/125) = 49 -> stop after max(100, 98) = 100 feasible nodes
        Setup s;
        for (int i = 0; i < 200; ++i)
            s.b.node(4000, 4000, 0);
        s.start("k8s-sampling");
        PlacementDecision d = s.place({ 1000, 1000, 0, 0, 0 });
        QCOMPARE(d.feasible, 100);
        s.start("k8s-default");
        QCOMPARE(s.place({ 1000, 1000, 0, 0, 0 }).feasible, 200);
    }

    void gpuPackingHandWorked()
    {
        // share 500. P: GPUs [600 free, 1000] -> partly used GPU: 100 - 60/10 = 94
        //            Q: idle 2 GPUs -> max(33 - 2, 2) = 31
        //            R: 4 GPUs, one full -> needs a fully free GPU on a used node: max(50 - 1, 33) = 49
        Setup s;
        s.b.node(64000, 65536, 2).node(64000, 65536, 2).node(64000, 65536, 4);
        s.start("gpupacking");
        s.occupy(0, { 0, 0, 1, 400, 0 }, 0x1);
        s.occupy(2, { 0, 0, 1, 1000, 0 }, 0x8);
        PlacementDecision d = s.place({ 1000, 1000, 1, 500, 0 });
        QCOMPARE(d.node, 0);
        QCOMPARE(d.gpuMask, uint64_t(0x1));
        QCOMPARE(d.top[0].raw, 94.0);
        QCOMPARE(d.top[1].node, 2);
        QCOMPARE(d.top[1].raw, 49.0);
        QCOMPARE(d.top[2].raw, 31.0);
    }

    void gpuClusteringPrefersTheSameClass()
    {
        // Classes as the FGD authors define them: "share" (any fraction) or "N whole GPUs".
        Setup s;
        s.b.node(64000, 65536, 8).node(64000, 65536, 8).node(64000, 65536, 8).node(64000, 65536, 8);
        s.start("gpuclustering");
        s.occupy(1, { 0, 0, 1, 500, 0 }, 0x1); // a share, like the task below
        s.occupy(2, { 0, 0, 1, 250, 0 }, 0x1); // a share of another size: still the share class
        s.occupy(3, { 0, 0, 1, 1000, 0 }, 0x1); // one whole GPU: another class
        PlacementDecision d = s.place({ 1000, 1000, 1, 500, 0 });
        QCOMPARE(d.node, 1);
        // node 1: only this class -> 75 + 25 * (8000 - 7500) / 8000 = 75 + 1 = 76
        QCOMPARE(d.top[0].raw, 76.0);
        // node 2: only this class -> 75 + 25 * 250 / 8000 = 75 + 0
        QCOMPARE(d.top[1].node, 2);
        QCOMPARE(d.top[1].raw, 75.0);
        // node 0 idle -> 25 + 0; node 3 another class only -> 0 + 25 * 1000 / 8000 = 3
        QCOMPARE(d.top[2].node, 0);
        QCOMPARE(d.top[2].raw, 25.0);
        QCOMPARE(d.top[3].node, 3);
        QCOMPARE(d.top[3].raw, 3.0);
    }

    void fgdPicksTheLeastFragmentingNode()
    {
        // Workload: one class, share 600. Task: share 500.
        // X (1 GPU free 1000): F 0 -> after 500 left < 600, not hostable -> F 500: delta +500
        //   score int(sigmoid(-0.5) * 100) = 37
        // Y (1 GPU, 500 free): F 500 (cannot host 600) -> after 0 free -> F 0: delta -500 -> 62
        Setup s;
        s.b.node(64000, 65536, 1).node(64000, 65536, 1);
        s.b.task(1000, 0, 1, 600);
        s.start("fgd");
        s.occupy(1, { 0, 0, 1, 500, 0 }, 0x1);
        PlacementDecision d = s.place({ 1000, 0, 1, 500, 0 });
        QCOMPARE(d.node, 1);
        QCOMPARE(d.top[0].raw, 62.0);
        QCOMPARE(d.top[1].raw, 37.0);
        // the score cache must see node changes: fill node 1, now only X fits
        s.occupy(1, { 0, 0, 1, 500, 0 }, 0x1);
        QCOMPARE(s.place({ 1000, 0, 1, 500, 0 }).node, 0);
    }

    void fgdChoosesTheGpuInsideTheNode()
    {
        // One node, GPUs [1000, 700 free]; class share 600; task share 300.
        // on GPU 0: [700, 700] -> F 0; on GPU 1: [1000, 400] -> 400 < 600 -> F 400. GPU 0 wins.
        Setup s;
        s.b.node(64000, 65536, 2);
        s.b.task(1000, 0, 1, 600);
        s.start("fgd");
        s.occupy(0, { 0, 0, 1, 300, 0 }, 0x2);
        PlacementDecision d = s.place({ 1000, 0, 1, 300, 0 });
        QCOMPARE(d.gpuMask, uint64_t(0x1));
    }

    void dotProductMergesTheGpuDimension()
    {
        // The FGD authors' setting (dimExtMethod merge, gpuSelMethod best): a share is scored with
        // the node's total free gpu-milli, then put on the tightest fitting GPU. Node 0: GPUs free
        // [600, 1000, 1000, 1000] (3600 in all); node 1: [1000, 700] (1700). Task: share 500.
        // Merged, node 1's free vector is shorter -> smaller dot -> higher score: node 1 wins
        // (GPU by GPU, node 0's 600 would have beaten node 1's 700). Inside node 1 the 700 GPU.
        Setup s;
        s.b.node(64000, 65536, 4).node(64000, 65536, 2);
        s.start("dotproduct");
        s.occupy(0, { 1000, 0, 1, 400, 0 }, 0x1);
        s.occupy(1, { 1000, 0, 1, 300, 0 }, 0x2);
        PlacementDecision d = s.place({ 4000, 0, 1, 500, 0 });
        QCOMPARE(d.node, 1);
        QCOMPARE(d.gpuMask, uint64_t(0x2));
        QVERIFY(d.top.size() == 2 && d.top[0].score > d.top[1].score);
    }

    void randomIsSeededAndCoversAllNodes()
    {
        Setup s;
        for (int i = 0; i < 5; ++i)
            s.b.node(8000, 8000, 2);
        s.start("random");
        std::set<int> seen;
        for (uint64_t seed = 1; seed <= 200; ++seed)
            seen.insert(s.place({ 1000, 0, 1, 500, 0 }, seed).node);
        QCOMPARE(seen.size(), std::size_t(5));
        QCOMPARE(s.place({ 1000, 0, 1, 500, 0 }, 7).node, s.place({ 1000, 0, 1, 500, 0 }, 7).node);
        s.policy->setTieBreak(TieBreak::First); // must not turn Random into FirstFit
        std::set<int> seenFirst;
        for (uint64_t seed = 1; seed <= 200; ++seed)
            seenFirst.insert(s.place({ 1000, 0, 1, 500, 0 }, seed).node);
        QCOMPARE(seenFirst.size(), std::size_t(5));
    }

    void tieBreakRule()
    {
        // three identical empty nodes: BestFit ties everywhere
        Setup s;
        s.b.node(8000, 8000, 1).node(8000, 8000, 1).node(8000, 8000, 1);
        s.start("bestfit");
        std::set<int> chosen;
        for (uint64_t seed = 1; seed <= 100; ++seed)
            chosen.insert(s.place({ 1000, 0, 1, 1000, 0 }, seed).node);
        QCOMPARE(chosen.size(), std::size_t(3)); // uniform among ties
        s.policy->setTieBreak(TieBreak::First);
        for (uint64_t seed = 1; seed <= 20; ++seed)
            QCOMPARE(s.place({ 1000, 0, 1, 1000, 0 }, seed).node, 0);
    }

    void tieBreakByTheRunsNodeOrder()
    {
        // Five identical empty nodes: BestFit ties everywhere. With TieBreak::Order the run's seed
        // draws a node order once; every tie of the run goes to the same node, whatever the
        // decision's RNG; over many run seeds each node is first about equally often.
        Setup s;
        for (int i = 0; i < 5; ++i)
            s.b.node(8000, 8000, 1);
        s.start("bestfit");
        std::map<int, int> firstChoice;
        for (uint64_t runSeed = 1; runSeed <= 200; ++runSeed) {
            s.policy->setTieBreak(TieBreak::Order, runSeed);
            s.policy->reset(PolicyContext { s.b.t, nullptr }, *s.cluster);
            const int node = s.place({ 1000, 0, 1, 1000, 0 }, 1).node;
            for (uint64_t decisionSeed = 2; decisionSeed <= 6; ++decisionSeed)
                QCOMPARE(s.place({ 1000, 0, 1, 1000, 0 }, decisionSeed).node, node);
            ++firstChoice[node];
        }
        QCOMPARE(firstChoice.size(), std::size_t(5));
        for (const auto& [node, count] : firstChoice)
            QVERIFY2(count >= 20 && count <= 60, qPrintable(QString("node %1 first %2 of 200").arg(node).arg(count)));
        // The same seed draws the same order; the order is a rule of ties only: a better score wins.
        s.policy->setTieBreak(TieBreak::Order, 7);
        s.policy->reset(PolicyContext { s.b.t, nullptr }, *s.cluster);
        const int tied = s.place({ 1000, 0, 1, 1000, 0 }).node;
        s.policy->reset(PolicyContext { s.b.t, nullptr }, *s.cluster);
        QCOMPARE(s.place({ 1000, 0, 1, 1000, 0 }).node, tied);
        const int other = tied == 0 ? 1 : 0;
        s.occupy(other, { 4000, 0, 0, 0, 0 }, 0); // fuller: BestFit now prefers it
        QCOMPARE(s.place({ 1000, 0, 1, 1000, 0 }).node, other);
        TieBreak parsed = TieBreak::Random;
        QVERIFY(parseTieBreak("order", parsed) && parsed == TieBreak::Order);
        QVERIFY(parseTieBreak(tieBreakName(TieBreak::First), parsed) && parsed == TieBreak::First);
        QVERIFY(!parseTieBreak("lowest", parsed));
    }

    void modelConstraintAndNoFit()
    {
        Setup s;
        s.b.node(8000, 8000, 2, 0).node(8000, 8000, 2, 1);
        s.b.t.gpuModels = { "T4", "V100" };
        s.start("bestfit");
        PlacementDecision d = s.place({ 1000, 0, 1, 1000, 0x2 }); // V100 only
        QCOMPARE(d.node, 1);
        QCOMPARE(d.feasible, 1);
        PlacementDecision none = s.place({ 1000, 0, 4, 1000, 0 }); // 4 GPUs: nowhere
        QCOMPARE(none.node, -1);
        QCOMPARE(none.feasible, 0);
        QVERIFY(none.top.empty());
    }

    void loggedUsesTheRecordedNode()
    {
        Setup s;
        s.b.node(8000, 8000, 0).node(8000, 8000, 0);
        s.start("logged");
        trace::Task task;
        task.request = { 1000, 0, 0, 0, 0 };
        task.logged.node = trace::NodeId { 1 };
        Rng rng(1);
        PlacementDecision d = s.policy->place(*s.cluster, PlacementRequest { task.request, nullptr, &task, 0 }, rng, 8);
        QCOMPARE(d.node, 1);
        trace::Task unknown;
        unknown.request = task.request;
        QCOMPARE(s.policy->place(*s.cluster, PlacementRequest { unknown.request, nullptr, &unknown, 0 }, rng, 8).node, -1);
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"
