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

    // A trace with logged decisions of every kind: placed with scored candidates and per-plugin
    // terms (one candidate without a total), unschedulable aggregated with reasons, waited.
    static Trace withLoggedDecisions()
    {
        Trace t;
        t.sourceFormat = "kubernetes";
        for (int i = 0; i < 2; ++i) {
            Node n;
            n.name = "n" + std::to_string(i);
            n.cpuMilli = 4000;
            n.memMiB = 8192;
            t.nodes.push_back(n);
        }
        for (int i = 0; i < 2; ++i) {
            Job j;
            j.id = JobId { i };
            t.setJobName(j, "default/p" + std::to_string(i));
            j.submitTimeS = i;
            j.runTimeS = 10;
            j.firstTask = uint32_t(i);
            j.taskCount = 1;
            t.jobs.push_back(j);
            t.tasks.push_back(Task {});
        }
        LoggedDecisions& l = t.logged;
        const int32_t fit = l.internName("NodeResourcesFit"), spread = l.internName("PodTopologySpread, zone");
        LoggedDecision placed;
        placed.task = 0;
        placed.timeS = 1.5;
        placed.node = 1;
        placed.evaluatedNodes = 2;
        placed.feasibleNodes = 2;
        placed.source = l.internName("default-scheduler");
        placed.firstReward = 0; // rewards come first in the terms array, then the candidates' terms
        placed.rewardCount = 2;
        l.terms.push_back(LoggedTerm { l.internName("balance"), 0.25 });
        l.terms.push_back(LoggedTerm { l.internName("p99 latency"), -1.5 });
        placed.firstCandidate = 0;
        placed.candidateCount = 2;
        l.candidates.push_back(LoggedCandidate { 0, true, 71.5, 2, 2 });
        l.terms.push_back(LoggedTerm { fit, 43 });
        l.terms.push_back(LoggedTerm { spread, 28.5 });
        l.candidates.push_back(LoggedCandidate { 1, false, 0, 4, 1 });
        l.terms.push_back(LoggedTerm { fit, 90 });
        l.decisions.push_back(placed);
        LoggedDecision failed;
        failed.task = 1;
        failed.outcome = LoggedOutcome::Unschedulable;
        failed.timeS = 2;
        failed.lastTimeS = 9.25;
        failed.count = 9;
        failed.firstReason = 0;
        failed.reasonCount = 2;
        failed.firstCandidate = uint32_t(l.candidates.size()); // an empty range starts where the array ends
        failed.firstReward = uint32_t(l.terms.size());
        l.reasons.push_back(LoggedReason { l.internName("Insufficient cpu"), 1 });
        l.reasons.push_back(LoggedReason { l.internName("node(s) had taint {a: b}, that the pod didn't tolerate"), -1 });
        l.decisions.push_back(failed);
        LoggedDecision waited;
        waited.task = 1;
        waited.outcome = LoggedOutcome::Waited;
        waited.timeS = 9.5;
        waited.source = l.internName("rl-agent v3 %");
        waited.firstReason = uint32_t(l.reasons.size());
        waited.firstCandidate = uint32_t(l.candidates.size());
        waited.firstReward = uint32_t(l.terms.size());
        l.decisions.push_back(waited);
        return t;
    }

    void loggedDecisionsSurvive() { roundTrip(withLoggedDecisions()); }

    // Corrupted logged-decision records are refused, naming the line and the field.
    void loggedDecisionErrors_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("outcome") << "ldec,1,unschedulable" << "ldec,1,lost" << "column outcome: 'lost' is not placed";
        QTest::newRow("task index") << "ldec,1,unschedulable" << "ldec,5,unschedulable" << "column task: 5 is out of range";
        QTest::newRow("missing candidate") << "lcand,1,,1,0,90" << "" << "the decision before still expects 0 lreason, 0 lreward and 1 lcand lines";
        QTest::newRow("term count") << "lcand,1,,1,0,90" << "lcand,1,,2,0,90" << "lcand with 2 terms has 8 fields, found 6";
        QTest::newRow("end count") << ",3\n" << ",4\n" << "end record says 4 logged decisions, file has 3";
        QTest::newRow("stray reason") << "lname,default-scheduler" << "lname,default-scheduler\nlreason,0,1" << "lreason line without a decision";
    }
    void loggedDecisionErrors()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const std::string good = m_dir.filePath("logged.sltrace").toStdString();
        QVERIFY(writeNativeTrace(withLoggedDecisions(), good).ok());
        QString text = QString::fromStdString(schedlab::test::readFile(good));
        const QString f = QString(from).replace("\\n", "\n"), t = QString(to).replace("\\n", "\n");
        QVERIFY2(text.contains(f), qPrintable(f));
        text.replace(text.indexOf(f), f.size(), t);
        const std::string bad = m_dir.filePath("bad.sltrace").toStdString();
        QFile out(QString::fromStdString(bad));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        auto loaded = loadTrace({ bad });
        QVERIFY(!loaded.ok());
        const std::string msg = loaded.error().toString();
        QVERIFY2(msg.find(message.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.find("bad.sltrace:") != std::string::npos, msg.c_str());
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
