// Each importer on a tiny hand-made trace (tests/data/tiny), with expectations worked out by hand.

#include "test_util.h"

#include "trace/format_registry.h"
#include "trace/google_importer.h"
#include "trace/openb_importer.h"
#include "trace/swf_importer.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::dataPath;

namespace {
LoadedTrace mustLoad(const std::vector<std::string>& files, ImportOptions options = {})
{
    auto r = loadTrace(files, options);
    if (!r)
        qFatal("load failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}
const Task& taskOf(const Trace& t, std::size_t job, std::size_t i = 0) { return t.tasks[t.jobs[job].firstTask + i]; }
} // namespace

class TestImporters : public QObject {
    Q_OBJECT
private slots:
    void swfProcsPerNodeSuggestion()
    {
        QTemporaryDir dir;
        const std::string jobs = "    1    0   5  100  4   -1 -1  4  200 -1 1 1 1 -1 -1 -1 -1 -1\n";
        // header MaxProcs / MaxNodes
        const std::string a = schedlab::test::writeFile(dir, "a.swf", "; MaxNodes: 4\n; MaxProcs: 8\n" + jobs);
        LoadedTrace la = mustLoad({ a });
        QCOMPARE(suggestedProcsPerNode(a, la.trace), 2);
        QCOMPARE(swfClusterModel(la.trace), std::string("one pool of 8 processors"));
        // the .machines file wins over the header
        schedlab::test::writeFile(dir, "a.swf.machines", "0 seth 2 4 1 1048576\n");
        QCOMPARE(suggestedProcsPerNode(a, la.trace), 4);
        // nothing says: 0 (one pool); MaxNodes that does not divide MaxProcs says nothing either
        const std::string b = schedlab::test::writeFile(dir, "b.swf", "; MaxNodes: 3\n; MaxProcs: 8\n" + jobs);
        QCOMPARE(suggestedProcsPerNode(b, mustLoad({ b }).trace), 0);
        ImportOptions split;
        split.procsPerNode = 2;
        LoadedTrace ls = mustLoad({ a }, split);
        QCOMPARE(swfClusterModel(ls.trace), std::string("4 nodes of 2 processors"));
    }

    void detectsByContent_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("format");
        QTest::newRow("nodes") << "tiny/nodes.csv" << "openb-nodes" << "openb";
        QTest::newRow("pods") << "tiny/pods.csv" << "openb-pods" << "openb";
        QTest::newRow("swf") << "tiny/jobs.swf" << "swf" << "swf";
        QTest::newRow("machines") << "tiny/machine_events.csv" << "google-machine-events" << "google2011";
        QTest::newRow("tasks") << "tiny/task_events.csv" << "google-task-events" << "google2011";
    }
    void detectsByContent()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, format);
        auto k = detectFile(dataPath(file.toStdString()));
        QVERIFY2(k.ok(), k.ok() ? "" : k.error().toString().c_str());
        QCOMPARE(QString::fromStdString(k->kind), kind);
        QCOMPARE(QString::fromStdString(k->format->name()), format);
    }

    void swfWithoutHeaderIsDetectedFromItsFields()
    {
        auto k = detectFileFromText("1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", "x");
        QVERIFY(k.ok());
        QCOMPARE(k->kind, std::string("swf"));
    }

    void openbNodesAndPods()
    {
        LoadedTrace lt = mustLoad({ dataPath("tiny/pods.csv"), dataPath("tiny/nodes.csv") }); // any order
        const Trace& t = lt.trace;
        QCOMPARE(t.sourceFormat, std::string("openb"));
        QCOMPARE(t.nodes.size(), std::size_t(3));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(32000));
        QCOMPARE(t.nodes[0].numGpu, 0);
        QCOMPARE(t.nodes[0].gpuModel, int16_t(-1));
        QCOMPARE(t.gpuModels, (std::vector<std::string> { "P100", "V100M32" }));
        QCOMPARE(t.nodes[2].gpuModel, int16_t(1));
        QCOMPARE(t.totalGpus(), int64_t(10));

        QCOMPARE(t.jobs.size(), std::size_t(4));
        QCOMPARE(t.tasks.size(), std::size_t(4));
        // p0: created 0, scheduled 5, deleted 100 -> run 95
        QCOMPARE(t.jobNameView(t.jobs[0]), std::string_view("p0"));
        QCOMPARE(t.jobs[0].submitTimeS, 0.0);
        QCOMPARE(t.jobs[0].runTimeS, 95.0);
        QCOMPARE(taskOf(t, 0).logged.startTimeS, 5.0);
        QCOMPARE(taskOf(t, 0).logged.endTimeS, 100.0);
        QCOMPARE(t.qosClasses[std::size_t(t.jobs[0].qos)], std::string("LS"));
        // p1: GPU share of 500 milli
        QVERIFY(taskOf(t, 1).request.isGpuShare());
        QCOMPARE(taskOf(t, 1).request.gpuMilli, 500);
        QCOMPARE(t.jobs[1].runTimeS, 50.0);
        QCOMPARE(t.jobs[1].status, int16_t(PodPhase::Succeeded));
        // p2: two whole GPUs limited to V100M32|P100, no deletion time -> run time unknown
        QCOMPARE(taskOf(t, 2).request.numGpu, 2);
        QCOMPARE(taskOf(t, 2).request.gpuModelMask, 0x3u);
        QCOMPARE(t.jobs[2].runTimeS, -1.0);
        // p3: pending, never scheduled
        QCOMPARE(t.jobs[3].status, int16_t(PodPhase::Pending));
        QCOMPARE(taskOf(t, 3).logged.startTimeS, -1.0);
        QCOMPARE(lt.diagnostics.total(), int64_t(0));
    }

    void swfPool()
    {
        LoadedTrace lt = mustLoad({ dataPath("tiny/jobs.swf") });
        const Trace& t = lt.trace;
        QCOMPARE(t.nodes.size(), std::size_t(1));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(8000)); // MaxProcs 8
        // job 3 (run time 0) skipped; 1, 2, 4, 5 kept
        QCOMPARE(t.jobs.size(), std::size_t(4));
        QCOMPARE(t.jobs[0].id.value, int64_t(1));
        QCOMPARE(t.jobs[2].id.value, int64_t(4));
        QCOMPARE(taskOf(t, 0).request.cpuMilli, int64_t(4000));
        QCOMPARE(t.jobs[0].requestedTimeS, 200.0);
        QCOMPARE(taskOf(t, 0).logged.startTimeS, 5.0); // submit 0 + wait 5
        QCOMPARE(taskOf(t, 0).logged.node.value, 0);
        // job 2: requested procs -1 -> allocated 2; requested time -1 -> run time
        QCOMPARE(taskOf(t, 1).request.cpuMilli, int64_t(2000));
        QCOMPARE(t.jobs[1].requestedTimeS, 50.0);
        QCOMPARE(taskOf(t, 1).logged.startTimeS, -1.0); // wait unknown
        // job 5: decimals
        QCOMPARE(t.jobs[3].submitTimeS, 40.5);
        QCOMPARE(t.jobs[3].runTimeS, 12.5);
        QCOMPARE(t.jobs[3].user, 1);
        QCOMPARE(t.metadata.at("swf.UnixStartTime"), std::string("1000"));
        QCOMPARE(t.metadata.at("swf.records"), std::string("5"));
        QCOMPARE(lt.diagnostics.countOf("run-time-not-positive"), int64_t(1));
        QCOMPARE(lt.diagnostics.countOf("never-fits"), int64_t(1)); // job 4 wants 16 of 8
        QCOMPARE(lt.diagnostics.total(), int64_t(2));
        QCOMPARE(lt.diagnostics.notes().at("requested-time-fallback"), int64_t(1));
        const Warning& w = lt.diagnostics.kept().front();
        QCOMPARE(w.line, int64_t(9));
        QCOMPARE(w.field, std::string("run_time"));
    }

    void swfGangSplit()
    {
        ImportOptions o;
        o.procsPerNode = 3;
        LoadedTrace lt = mustLoad({ dataPath("tiny/jobs.swf") }, o);
        const Trace& t = lt.trace;
        // 8 processors in nodes of 3 -> 3 nodes of 3, 3, 2
        QCOMPARE(t.nodes.size(), std::size_t(3));
        QCOMPARE(t.nodes[2].cpuMilli, int64_t(2000));
        // job 1 wants 4 -> gang of ceil(4/3) = 2 tasks of 3 and 1 processors
        QCOMPARE(t.jobs[0].taskCount, 2u);
        QVERIFY(t.jobs[0].gang);
        QCOMPARE(taskOf(t, 0, 0).request.cpuMilli, int64_t(3000));
        QCOMPARE(taskOf(t, 0, 1).request.cpuMilli, int64_t(1000));
        QCOMPARE(taskOf(t, 0, 0).logged.node.value, -1); // the log does not say which nodes
        // job 4 wants 16 -> 6 tasks
        QCOMPARE(t.jobs[2].taskCount, 6u);
        QCOMPARE(t.tasks.size(), std::size_t(2 + 1 + 6 + 1));
    }

    void googleFolding()
    {
        LoadedTrace lt = mustLoad({ dataPath("tiny/task_events.csv"), dataPath("tiny/machine_events.csv") });
        const Trace& t = lt.trace;
        QCOMPARE(t.cpuUnit, ResourceUnit::NormalizedNano);
        // machines 1 and 2; machine 3 never has a capacity
        QCOMPARE(t.nodes.size(), std::size_t(2));
        QCOMPARE(t.nodes[0].name, std::string("1"));
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(500000000));
        QCOMPARE(t.nodes[0].memMiB, int64_t(250000000));
        QCOMPARE(t.nodes[1].cpuMilli, int64_t(1000000000));
        QCOMPARE(lt.diagnostics.countOf("missing-capacity"), int64_t(1));
        // jobs 10 (two tasks) and 11; job 12 has no SUBMIT in this part
        QCOMPARE(t.jobs.size(), std::size_t(2));
        QCOMPARE(t.tasks.size(), std::size_t(3));
        QCOMPARE(t.jobs[0].id.value, int64_t(10));
        QVERIFY(!t.jobs[0].gang);
        QCOMPARE(t.jobs[0].taskCount, 2u);
        const Task& t0 = taskOf(t, 0, 0);
        QCOMPARE(t0.request.cpuMilli, int64_t(125000000));
        QCOMPARE(t0.request.memMiB, int64_t(62500000));
        QCOMPARE(t0.logged.startTimeS, 1.0);
        QCOMPARE(t0.logged.endTimeS, 7.0);
        QCOMPARE(t0.runTimeS, 6.0);
        QCOMPARE(t0.logged.node.value, 0);
        const Task& t1 = taskOf(t, 0, 1);
        QCOMPARE(t1.logged.node.value, 1);
        QCOMPARE(t1.runTimeS, -1.0); // still running at the end of the part
        QCOMPARE(t.jobs[0].priority, 9);
        QCOMPARE(t.qosClasses[std::size_t(t.jobs[0].qos)], std::string("class2"));
        QCOMPARE(t.users[std::size_t(t.jobs[0].user)], std::string("userA"));
        // job 11: submitted at 5 s, killed while pending
        QCOMPARE(t.jobs[1].submitTimeS, 5.0);
        QCOMPARE(taskOf(t, 1).request.cpuMilli, int64_t(155400));
        QCOMPARE(taskOf(t, 1).logged.startTimeS, -1.0);
        QCOMPARE(t.metadata.at("google.eventsWithoutSubmit"), std::string("1"));
    }

    void openbNodeListAlone()
    {
        LoadedTrace lt = mustLoad({ dataPath("tiny/nodes.csv") });
        QCOMPARE(lt.trace.nodes.size(), std::size_t(3));
        QVERIFY(lt.trace.jobs.empty());
    }

    void progressReachesOneAndCancelStops()
    {
        std::vector<double> seen;
        auto r = loadTrace({ dataPath("tiny/jobs.swf") }, {}, [&](double f) { seen.push_back(f); });
        QVERIFY(r.ok());
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 1.0);
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i] >= seen[i - 1]);

        CancelToken cancel;
        cancel.cancel();
        auto c = loadTrace({ dataPath("tiny/jobs.swf") }, {}, {}, cancel);
        QVERIFY(!c.ok());
        QVERIFY(c.error().isCancelled());
    }
};

QTEST_GUILESS_MAIN(TestImporters)
#include "test_importers.moc"
