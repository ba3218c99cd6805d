// schedlab decision logs (docs/decision-log.md): a hand-written log read field by field with
// hand-computed expectations; bad records named by line and field and skipped; files that are not
// decision logs refused; writing and reading back keeps the cluster, pods and every decision.

#include "test_util.h"

#include "trace/decision_log_format.h"
#include "trace/trace_loader.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::trace;
using schedlab::test::dataPath;
using schedlab::test::writeFile;

namespace {
std::string nameOf(const LoggedDecisions& l, int32_t i) { return i >= 0 ? l.names[std::size_t(i)] : std::string("-"); }

/// A decision log of one node, one pod and one good decision, with `record` as its line 4.
std::string logAround(const std::string& record)
{
    return std::string(R"({"schema":"schedlab.decision-log/1"})") + "\n" + R"({"kind":"node","name":"n","cpu":"4","memory":"8Gi"})" + "\n"
        + R"({"kind":"pod","name":"p","time":0,"cpu":1,"runtime":5})" + "\n" + record + "\n"
        + R"({"kind":"decision","time":1,"pod":"p","node":"n"})" + "\n";
}
} // namespace

class TestDecisionLog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    Error loadError(const std::string& content)
    {
        auto r = loadTrace({ writeFile(m_dir, "bad.jsonl", content) });
        if (r)
            qFatal("load should have failed");
        return r.error();
    }

private slots:
    void readsTheSmallLog()
    {
        auto r = loadTrace({ dataPath("decision-log/small.jsonl") });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Trace& t = r->trace;
        QCOMPARE(t.sourceFormat, std::string("kubernetes"));

        // Nodes: "4" cores, "16Gi"; "8000m" and 34359738368 bytes = 32 GiB.
        QCOMPARE(int(t.nodes.size()), 2);
        QCOMPARE(t.nodes[0].cpuMilli, int64_t(4000));
        QCOMPARE(t.nodes[0].memMiB, int64_t(16384));
        QCOMPARE(t.nodes[0].numGpu, 2);
        QCOMPARE(t.gpuModels[std::size_t(t.nodes[0].gpuModel)], std::string("A100"));
        QCOMPARE(t.nodes[1].cpuMilli, int64_t(8000));
        QCOMPARE(t.nodes[1].memMiB, int64_t(32768));
        QCOMPARE(t.nodes[1].numGpu, 0);

        // Pods: times from the first creation (10:00:00 = 1795860000); the last placement is the
        // logged start; "runtime" is the job's run time.
        QCOMPARE(int(t.jobs.size()), 3);
        QCOMPARE(t.metadata.at("epoch.unixS"), std::string("1795860000"));
        QCOMPARE(t.jobName(t.jobs[0]), std::string("team-a/train"));
        QCOMPARE(t.jobName(t.jobs[2]), std::string("batch-7"));
        QCOMPARE(t.jobs[0].submitTimeS, 0.0);
        QCOMPARE(t.jobs[1].submitTimeS, 5.0);
        QCOMPARE(t.jobs[2].submitTimeS, 10.0);
        QCOMPARE(t.jobs[0].priority, 100);
        QCOMPARE(t.jobs[0].runTimeS, 600.0);
        QCOMPARE(t.tasks[0].request.cpuMilli, int64_t(2000));
        QCOMPARE(t.tasks[0].request.memMiB, int64_t(8192));
        QCOMPARE(t.tasks[0].request.numGpu, 1);
        QCOMPARE(t.tasks[0].request.gpuMilli, 1000);
        QCOMPARE(t.tasks[0].request.gpuModelMask, 1u << t.nodes[0].gpuModel);
        QCOMPARE(t.tasks[0].logged.node.value, 0);
        QCOMPARE(t.tasks[0].logged.startTimeS, 1.0);
        QCOMPARE(t.tasks[0].logged.endTimeS, -1.0); // no "end": the run time is the job's, the end not logged
        QCOMPARE(t.tasks[1].request.numGpu, 1); // a quarter of one GPU
        QCOMPARE(t.tasks[1].request.gpuMilli, 250);
        QCOMPARE(t.tasks[1].request.cpuMilli, int64_t(500));
        QCOMPARE(t.tasks[1].logged.node.value, 0);
        QCOMPARE(t.tasks[1].logged.startTimeS, 8.5);
        QCOMPARE(t.jobs[1].runTimeS, 120.0);
        QVERIFY(!t.tasks[2].logged.node.valid());
        QCOMPARE(t.jobs[2].runTimeS, 30.0);

        // Decisions in time order; the bad record (line 11) is skipped and named.
        const LoggedDecisions& l = t.logged;
        QCOMPARE(int(l.decisions.size()), 4);
        const LoggedDecision& train = l.decisions[0];
        QCOMPARE(train.task, 0u);
        QCOMPARE(train.timeS, 1.0);
        QCOMPARE(train.node, 0);
        QCOMPARE(train.evaluatedNodes, 2);
        QCOMPARE(train.feasibleNodes, 1);
        QCOMPARE(nameOf(l, train.source), std::string("rl-agent v2"));
        QCOMPARE(train.candidateCount, 1u);
        QCOMPARE(l.candidates[train.firstCandidate].score, 0.9);
        QCOMPARE(l.candidates[train.firstCandidate].termCount, 1u);
        QCOMPARE(nameOf(l, l.terms[l.candidates[train.firstCandidate].firstTerm].name), std::string("q"));
        QCOMPARE(train.rewardCount, 2u);
        QCOMPARE(nameOf(l, l.terms[train.firstReward].name), std::string("balance"));
        QCOMPARE(l.terms[train.firstReward].value, 0.1);
        QCOMPARE(l.terms[train.firstReward + 1].value, 0.5);

        const LoggedDecision& wait = l.decisions[1];
        QCOMPARE(wait.outcome, LoggedOutcome::Waited);
        QCOMPARE(wait.timeS, 6.0);
        QCOMPARE(nameOf(l, wait.source), std::string("rl-agent v3"));
        QCOMPARE(wait.candidateCount, 2u);
        QCOMPARE(l.candidates[wait.firstCandidate + 1].node, 1);
        QCOMPARE(l.candidates[wait.firstCandidate + 1].score, -0.1);
        QCOMPARE(l.candidates[wait.firstCandidate + 1].termCount, 0u);

        QCOMPARE(l.decisions[2].timeS, 8.5);
        QCOMPARE(l.decisions[2].node, 0);
        QCOMPARE(l.decisions[2].candidateCount, 2u);

        const LoggedDecision& failed = l.decisions[3];
        QCOMPARE(failed.outcome, LoggedOutcome::Unschedulable);
        QCOMPARE(failed.task, 2u);
        QCOMPARE(failed.timeS, 11.0);
        QCOMPARE(failed.lastTimeS, 40.0);
        QCOMPARE(failed.count, 3);
        QCOMPARE(failed.reasonCount, 1u);
        QCOMPARE(nameOf(l, l.reasons[failed.firstReason].name), std::string("Insufficient memory"));
        QCOMPARE(l.reasons[failed.firstReason].nodes, 2);

        // The bad score, and batch-7's 64 GiB that no node (at most 32 GiB) can hold, named by its line.
        QCOMPARE(r->diagnostics.total(), int64_t(2));
        QCOMPARE(r->diagnostics.countOf("beyond-every-node"), int64_t(1));
        const auto& w = r->diagnostics.kept().front();
        QCOMPARE(w.line, int64_t(11));
        QCOMPARE(w.field, std::string("/candidates/0/score"));
        QCOMPARE(r->diagnostics.kept().back().toString(), std::string("small.jsonl:6: pod 'batch-7' requests 65536 MiB memory (the largest "
                                                                      "node has 32768 MiB): no node can ever hold it (a unit typo?); kept, it will not start"));
        QCOMPARE(r->diagnostics.notes().at("decision-log-ignored kind metric"), int64_t(1));
    }

    // Write, read back: the same cluster, pods and decisions; writing again gives the same bytes.
    void writeAndReadBack()
    {
        auto first = loadTrace({ dataPath("decision-log/small.jsonl") });
        QVERIFY(first.ok());
        const std::string a = m_dir.filePath("a.jsonl").toStdString(), b = m_dir.filePath("b.jsonl").toStdString();
        QVERIFY(writeDecisionLog(first->trace, a).ok());
        auto second = loadTrace({ a });
        QVERIFY2(second.ok(), second.ok() ? "" : second.error().toString().c_str());
        QCOMPARE(second->diagnostics.total(), int64_t(1)); // batch-7 beyond every node again, nothing else
        QCOMPARE(second->diagnostics.countOf("beyond-every-node"), int64_t(1));
        const Trace &x = first->trace, &y = second->trace;
        QVERIFY(x.nodes == y.nodes);
        QVERIFY(x.jobs == y.jobs);
        QVERIFY(x.tasks == y.tasks);
        QVERIFY(x.jobNames == y.jobNames);
        QVERIFY(x.gpuModels == y.gpuModels);
        QVERIFY(x.logged == y.logged);
        QVERIFY(writeDecisionLog(second->trace, b).ok());
        QCOMPARE(schedlab::test::readFile(b), schedlab::test::readFile(a));
    }

    // A trace without logged decisions (an SWF log) writes its logged placements as decisions.
    void placementsBecomeDecisions()
    {
        auto swf = loadTrace({ dataPath("tiny/jobs.swf") });
        QVERIFY(swf.ok());
        const std::string out = m_dir.filePath("swf.jsonl").toStdString();
        QVERIFY(writeDecisionLog(swf->trace, out).ok());
        int placed = 0;
        for (const Task& t : swf->trace.tasks)
            placed += t.logged.node.valid() && t.logged.startTimeS >= 0;
        auto back = loadTrace({ out });
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(int(back->trace.logged.decisions.size()), placed);
        QCOMPARE(back->trace.tasks.size(), swf->trace.tasks.size());
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("newer major") << R"({"schema":"schedlab.decision-log/2"})" << "is not a version this schedlab reads" << 1;
        QTest::newRow("no header") << "\n\n" R"({"kind":"node","name":"n1","schema":"schedlab.decision-log/1","cpu":1})"
                                   << "the first line must be the header" << 3;
        QTest::newRow("header only") << R"({"schema":"schedlab.decision-log/1"})" "\n"
                                     << "needs the cluster it scheduled" << -1;
    }
    void badFiles()
    {
        QFETCH(QString, content);
        QFETCH(QString, message);
        QFETCH(int, line);
        const Error e = loadError(content.toStdString());
        QVERIFY2(e.message.find(message.toStdString()) != std::string::npos, e.toString().c_str());
        QCOMPARE(e.line, int64_t(line));
        QVERIFY2(e.file.find("bad.jsonl") != std::string::npos, e.toString().c_str());
    }

    // Each bad record is skipped with a warning naming its line and field; the rest is read.
    void badRecords_data()
    {
        QTest::addColumn<QString>("record");
        QTest::addColumn<QString>("field");
        QTest::newRow("cut") << R"({"kind":"decision","time":5,"pod":"p")" << "";
        QTest::newRow("no kind") << R"({"name":"x"})" << "/kind";
        QTest::newRow("bad time") << R"({"kind":"decision","time":"yesterday","pod":"p","node":"n"})" << "/time";
        QTest::newRow("negative time") << R"({"kind":"decision","time":-5,"pod":"p","node":"n"})" << "/time";
        QTest::newRow("no node") << R"({"kind":"decision","time":5,"pod":"p","outcome":"placed"})" << "/node";
        QTest::newRow("outcome") << R"({"kind":"decision","time":5,"pod":"p","outcome":"evicted"})" << "/outcome";
        QTest::newRow("reason count") << R"({"kind":"decision","time":5,"pod":"p","outcome":"unschedulable","reasons":{"x/y":-2}})"
                                      << "/reasons/x~1y";
        QTest::newRow("reward") << R"({"kind":"decision","time":5,"pod":"p","node":"n","reward":{"r":"big"}})" << "/reward/r";
        QTest::newRow("candidate node") << R"({"kind":"decision","time":5,"pod":"p","node":"n","candidates":[{"score":1}]})"
                                        << "/candidates/0/node";
        QTest::newRow("quantity") << R"({"kind":"node","name":"m","cpu":"4 cores"})" << "/cpu";
        QTest::newRow("gpu") << R"({"kind":"pod","name":"q","gpu":1.5})" << "/gpu";
    }
    void badRecords()
    {
        QFETCH(QString, record);
        QFETCH(QString, field);
        auto r = loadTrace({ writeFile(m_dir, "records.jsonl", logAround(record.toStdString())) });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->diagnostics.total(), int64_t(1));
        const auto& w = r->diagnostics.kept().front();
        QCOMPARE(w.line, int64_t(4));
        QCOMPARE(QString::fromStdString(w.field), field);
        QCOMPARE(int(r->trace.logged.decisions.size()), 1);
        QCOMPARE(r->trace.logged.candidates.size(), std::size_t(0)); // a bad record's candidates are taken back
        QCOMPARE(r->trace.logged.terms.size(), std::size_t(0));
        QCOMPARE(int(r->trace.nodes.size()), 1);
    }

    // A line that is not JSON says what the parser stopped at, in its own category.
    void unreadableLinesSayWhy_data()
    {
        QTest::addColumn<QByteArray>("record");
        QTest::addColumn<QString>("category");
        QTest::addColumn<QString>("message");
        QTest::newRow("huge") << QByteArray(R"({"kind":"decision","time":1e309,"pod":"p","node":"n"})") << "bad-number" << "a number JSON cannot hold";
        QTest::newRow("2^64") << QByteArray(R"({"kind":"decision","time":18446744073709551616,"pod":"p","node":"n"})") << "bad-number"
                              << "a number JSON cannot hold";
        QTest::newRow("NaN") << QByteArray(R"({"kind":"decision","time":NaN,"pod":"p","node":"n"})") << "bad-number" << "NaN or Infinity";
        QTest::newRow("utf-8") << QByteArray("{\"kind\":\"decision\",\"time\":1,\"pod\":\"p\xff\",\"node\":\"n\"}") << "bad-encoding"
                               << "not valid UTF-8";
        QTest::newRow("cut") << QByteArray(R"({"kind":"decision","time":5,"pod":"p")") << "bad-record" << "cut mid-way";
    }
    void unreadableLinesSayWhy()
    {
        QFETCH(QByteArray, record);
        QFETCH(QString, category);
        QFETCH(QString, message);
        auto r = loadTrace({ writeFile(m_dir, "lines.jsonl", logAround(record.toStdString())) });
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->diagnostics.countOf(category.toStdString()), int64_t(1));
        const auto& w = r->diagnostics.kept().front();
        QCOMPARE(w.line, int64_t(4));
        QVERIFY2(w.message.find(message.toStdString()) != std::string::npos, w.message.c_str());
        QCOMPARE(int(r->trace.logged.decisions.size()), 1);
    }

    // Every node and pod record unreadable: the error says they were there, with the first one.
    void skippedRecordsAreNamedInTheError()
    {
        const std::string text = std::string(R"({"schema":"schedlab.decision-log/1"})") + "\n" + R"({"kind":"node","name":"m","cpu":"4 cores"})" + "\n"
            + R"({"kind":"decision","time":1,"pod":"p","node":"m"})" + "\n";
        auto r = loadTrace({ writeFile(m_dir, "skipped.jsonl", text) });
        QVERIFY(!r.ok());
        const std::string e = r.error().toString();
        QVERIFY2(e.find("needs the cluster it scheduled") != std::string::npos && e.find("1 record(s) were skipped as unreadable") != std::string::npos
                && e.find("skipped.jsonl:2: /cpu") != std::string::npos,
            e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDecisionLog)
#include "test_decision_log.moc"
