// The Sonobuoy dump of a real 3-node Kubernetes 1.8 cluster (../shared/traces/k8s-sonobuoy-aws-2017,
// label `real`): counts from its SOURCES.md (3 nodes, 14 + 5 pods, 3 + 2 Scheduled events, 4
// FailedScheduling events aggregated 6-9 times), then a logged and a BestFit replay.

#include "test_util.h"

#include "sim/timed_replay.h"
#include "trace/decision_log_format.h"
#include "trace/native_format.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;

class TestK8sReal : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { SCHEDLAB_REQUIRE_REAL_TRACES(); }

    void sonobuoyFolder()
    {
        auto r = loadTrace({ schedlab::test::realTrace("k8s-sonobuoy-aws-2017/resources") });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const LoadedTrace& l = r.value();
        const Trace& t = l.trace;
        QCOMPARE(t.sourceFormat, std::string("kubernetes"));
        QCOMPARE(int(l.files.size()), 6);
        QCOMPARE(l.diagnostics.total(), int64_t(0));
        // Nodes: allocatable cpu "1", memory "3750580Ki" = 3662.67 MiB, rounded down.
        QCOMPARE(int(t.nodes.size()), 3);
        for (const Node& n : t.nodes) {
            QCOMPARE(n.cpuMilli, int64_t(1000));
            QCOMPARE(n.memMiB, int64_t(3662));
            QCOMPARE(n.numGpu, 0);
        }
        QCOMPARE(int(t.jobs.size()), 19);
        // Every pod was bound. kube-dns's three containers ask 100m + 150m + 10m cpu and 70Mi + 20Mi
        // + 20Mi memory (its Pods.json).
        int bound = 0, dns = 0;
        for (const Job& j : t.jobs) {
            const Task& task = t.tasks[j.firstTask];
            bound += task.logged.node.valid() && task.logged.startTimeS >= 0;
            if (t.jobName(j) == "kube-system/kube-dns-545bc4bfd4-t4lzx") {
                ++dns;
                QCOMPARE(task.request.cpuMilli, int64_t(260));
                QCOMPARE(task.request.memMiB, int64_t(110));
            }
        }
        QCOMPARE(bound, 19);
        QCOMPARE(dns, 1);
        const TraceSummary s = summarize(l);
        QCOMPARE(s.loggedPlaced, int64_t(5));
        QCOMPARE(s.loggedUnschedulable, int64_t(4));
        QCOMPARE(s.loggedUnschedulableAttempts, int64_t(6 + 6 + 6 + 9));
        QCOMPARE(int(s.loggedReasons.size()), 2);
        QCOMPARE(s.loggedReasons[0].reason, std::string("NodeNotReady"));
        QCOMPARE(s.loggedReasons[0].attempts, int64_t(18));
        QCOMPARE(s.loggedReasons[0].tasks, int64_t(3));
        QCOMPARE(s.loggedReasons[1].reason, std::string("Insufficient cpu"));
        QCOMPARE(s.loggedReasons[1].attempts, int64_t(9));
        QCOMPARE(s.loggedReasons[1].tasks, int64_t(1));
        QCOMPARE(s.loggedBySource.at("default-scheduler"), int64_t(9));

        // Replays: the logged one puts every pod where and when the cluster did (kube-dns waited
        // 186 s for cpu); BestFit has all three nodes from the start, so nothing waits.
        for (const char* name : { "logged", "bestfit" }) {
            auto p = policy::makePlacementPolicy(name);
            sim::Recording rec;
            rec.heat = false;
            auto run = sim::runTimedReplay(t, *p, sim::TimedOptions {}, rec);
            QVERIFY2(run.ok(), run.ok() ? "" : run.error().toString().c_str());
            QVERIFY2(run->divergences.empty(), run->firstDivergence.c_str());
            QCOMPARE(run->failed, int64_t(0));
            QCOMPARE(run->completed + run->skipped, int64_t(19));
            if (std::string(name) == "logged")
                QCOMPARE(run->waitS.max, 186.0);
            else
                QCOMPARE(run->waitS.max, 0.0);
        }
    }

    // The dump's logged decisions (events: placements, aggregated FailedScheduling with reasons)
    // through a decision log and through .sltrace: the same decisions, reasons and placements.
    void sonobuoyRoundTrips()
    {
        auto r = loadTrace({ schedlab::test::realTrace("k8s-sonobuoy-aws-2017/resources") });
        QVERIFY(r.ok());
        const Trace& t = r->trace;
        QTemporaryDir dir;
        const std::string jsonl = dir.filePath("sonobuoy.jsonl").toStdString(), native = dir.filePath("sonobuoy.sltrace").toStdString();
        QVERIFY(writeDecisionLog(t, jsonl).ok());
        QVERIFY(writeNativeTrace(t, native).ok());
        for (const std::string& path : { jsonl, native }) {
            auto back = loadTrace({ path });
            QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
            QCOMPARE(back->diagnostics.total(), int64_t(0));
            QVERIFY2(back->trace.logged == t.logged, path.c_str());
            QCOMPARE(back->trace.tasks.size(), t.tasks.size());
            for (std::size_t i = 0; i < t.tasks.size(); ++i) {
                QCOMPARE(back->trace.tasks[i].logged, t.tasks[i].logged);
                QCOMPARE(back->trace.tasks[i].request, t.tasks[i].request);
            }
            QCOMPARE(back->trace.nodes, t.nodes);
        }
    }
};

QTEST_APPLESS_MAIN(TestK8sReal)
#include "test_k8s_real.moc"
