// Any import -> schedlab format -> import gives an identical Trace; the writer's output is pinned
// by a golden file; the generator is deterministic.

#include "test_util.h"

#include "trace/native_format.h"
#include "trace/trace_generator.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::dataPath;

class TestRoundTrip : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    void roundTrip(const Trace& original)
    {
        const std::string out = m_dir.filePath("rt.sltrace").toStdString();
        Status st = writeNativeTrace(original, out);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
        auto back = loadTrace({ out });
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->diagnostics.total(), int64_t(0));
        QVERIFY(back->trace.jobs == original.jobs);
        QVERIFY(back->trace.tasks == original.tasks);
        QVERIFY(back->trace.nodes == original.nodes);
        QVERIFY(back->trace == original);
    }

private slots:
    void importedFormats_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<int>("procsPerNode");
        QTest::newRow("openb") << QStringList { "tiny/nodes.csv", "tiny/pods.csv" } << 0;
        QTest::newRow("swf pool") << QStringList { "tiny/jobs.swf" } << 0;
        QTest::newRow("swf split") << QStringList { "tiny/jobs.swf" } << 3;
        QTest::newRow("google") << QStringList { "tiny/machine_events.csv", "tiny/task_events.csv" } << 0;
    }
    void importedFormats()
    {
        QFETCH(QStringList, files);
        QFETCH(int, procsPerNode);
        std::vector<std::string> paths;
        for (const QString& f : files)
            paths.push_back(dataPath(f.toStdString()));
        ImportOptions o;
        o.procsPerNode = procsPerNode;
        auto loaded = loadTrace(paths, o);
        QVERIFY(loaded.ok());
        roundTrip(loaded->trace);
    }

    void realTracesRoundTrip_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("openb all_node + default")
            << QStringList { "alibaba-gpu-v2023/openb_node_list_all_node.csv", "alibaba-gpu-v2023/openb_pod_list_gpuspec33.csv" };
        QTest::newRow("hpc2n") << QStringList { "pwa-swf/hpc2n.swf" };
        QTest::newRow("google part 0")
            << QStringList { "google-2011/machine_events/part-00000-of-00001.csv.gz",
                   "google-2011/task_events/part-00000-of-00500.csv.gz" };
    }
    void realTracesRoundTrip()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        QFETCH(QStringList, files);
        std::vector<std::string> paths;
        for (const QString& f : files)
            paths.push_back(schedlab::test::realTrace(f.toStdString()));
        auto loaded = loadTrace(paths);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        roundTrip(loaded->trace);
    }

    void nastyStringsSurvive()
    {
        Trace t;
        t.sourceFormat = "openb";
        t.metadata["note, with comma"] = "line1\nline2 %20 100%";
        t.gpuModels = { "V100,M32" };
        Node n;
        n.name = "node,with%comma";
        n.cpuMilli = 1000;
        n.numGpu = 1;
        n.gpuModel = 0;
        t.nodes.push_back(n);
        Job j;
        j.id = JobId { 7 };
        t.setJobName(j, "job\r\nname");
        j.submitTimeS = 0.1;
        j.runTimeS = 1.0 / 3.0;
        j.taskCount = 1;
        t.jobs.push_back(j);
        Task task;
        task.request.gpuModelMask = 0x80000001u;
        t.tasks.push_back(task);
        roundTrip(t);
    }

    void writerGolden()
    {
        auto loaded = loadTrace({ dataPath("tiny/nodes.csv"), dataPath("tiny/pods.csv") });
        QVERIFY(loaded.ok());
        const std::string out = m_dir.filePath("golden.sltrace").toStdString();
        QVERIFY(writeNativeTrace(loaded->trace, out).ok());
        const std::string diff = schedlab::test::compareGolden("golden/tiny_openb.sltrace", schedlab::test::readFile(out));
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void generatorIsDeterministic()
    {
        GeneratorOptions o;
        o.nodes = 20;
        o.jobs = 500;
        o.seed = 7;
        auto a = generateTrace(o), b = generateTrace(o);
        QVERIFY(a.ok() && b.ok());
        QVERIFY(a.value() == b.value());
        o.seed = 8;
        auto c = generateTrace(o);
        QVERIFY(!(a.value() == c.value()));
        roundTrip(a.value());
    }

    void generatorMakesARealisticMix()
    {
        GeneratorOptions o;
        o.nodes = 64;
        o.jobs = 4000;
        auto r = generateTrace(o);
        QVERIFY(r.ok());
        const Trace& t = r.value();
        QCOMPARE(t.jobs.size(), std::size_t(4000));
        int cpuNodes = 0, share = 0, cpuOnly = 0, multi = 0;
        for (const Node& n : t.nodes)
            cpuNodes += n.numGpu == 0;
        for (const Task& task : t.tasks) {
            share += task.request.isGpuShare();
            cpuOnly += !task.request.needsGpu();
            multi += task.request.numGpu > 1;
        }
        QVERIFY(cpuNodes > 0 && cpuNodes < 64);
        QVERIFY(share > 1000 && cpuOnly > 400 && multi > 50);
        // submit times sorted; run times heavy tailed (max far above the median)
        std::vector<double> runs;
        for (std::size_t i = 0; i < t.jobs.size(); ++i) {
            if (i)
                QVERIFY(t.jobs[i].submitTimeS >= t.jobs[i - 1].submitTimeS);
            runs.push_back(t.jobs[i].runTimeS);
        }
        std::sort(runs.begin(), runs.end());
        QVERIFY(runs.back() > 20 * runs[runs.size() / 2]);
        // diurnal: busiest hour-of-day has clearly more arrivals than the quietest
        std::array<int, 24> byHour {};
        for (const Job& j : t.jobs)
            ++byHour[std::size_t(int64_t(j.submitTimeS / 3600) % 24)];
        const auto [lo, hi] = std::minmax_element(byHour.begin(), byHour.end());
        QVERIFY2(*hi > 2 * *lo, qPrintable(QString("hour counts %1..%2").arg(*lo).arg(*hi)));
        // every task fits somewhere
        for (const Task& task : t.tasks) {
            bool fits = false;
            for (const Node& n : t.nodes)
                fits = fits
                    || (task.request.cpuMilli <= n.cpuMilli && task.request.memMiB <= n.memMiB
                        && task.request.numGpu <= n.numGpu
                        && (task.request.gpuModelMask == 0 || (n.gpuModel >= 0 && (task.request.gpuModelMask >> n.gpuModel) & 1)));
            QVERIFY(fits);
        }
    }

    void generatorRejectsBadOptions()
    {
        GeneratorOptions o;
        o.nodes = 0;
        auto r = generateTrace(o);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Invalid);
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "test_roundtrip.moc"
