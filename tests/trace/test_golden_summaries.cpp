// Golden files of each importer: the `schedlab-cli info` text of every tiny trace under
// tests/data/tiny, compared with tests/data/golden/summary_<name>.expected. On a mismatch the
// test writes <golden>.actual next to it (diff -u shows the change); SCHEDLAB_UPDATE_GOLDEN=1
// rewrites the golden files after a deliberate change.

#include "test_util.h"

#include "trace/line_reader.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QtTest>

using namespace schedlab;

class TestGoldenSummaries : public QObject {
    Q_OBJECT
private slots:
    void summaries_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("golden");
        QTest::newRow("openb") << QStringList { "tiny/nodes.csv", "tiny/pods.csv" } << "summary_openb.expected";
        QTest::newRow("openb pods only") << QStringList { "tiny/pods.csv" } << "summary_openb_pods.expected";
        QTest::newRow("swf") << QStringList { "tiny/jobs.swf" } << "summary_swf.expected";
        QTest::newRow("google") << QStringList { "tiny/machine_events.csv", "tiny/task_events.csv" } << "summary_google.expected";
        QTest::newRow("openb nodes only (no jobs, no times)") << QStringList { "tiny/nodes.csv" } << "summary_openb_nodes.expected";
        QTest::newRow("schedlab") << QStringList { "golden/tiny_openb.sltrace" } << "summary_schedlab.expected";
    }
    void summaries()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, golden);
        std::vector<std::string> paths;
        for (const QString& f : files)
            paths.push_back(test::dataPath(f.toStdString()));
        auto loaded = trace::loadTrace(paths);
        QVERIFY2(loaded.ok(), loaded ? "" : loaded.error().toString().c_str());
        trace::TraceSummary s = trace::summarize(loaded.value());
        s.importSeconds = 0; // wall time and where the checkout lives are not the importer's output
        for (trace::LoadedFile& f : s.files)
            f.path = trace::baseName(f.path);
        const std::string diff = test::compareGolden("golden/" + golden.toStdString(), trace::toText(s));
        QVERIFY2(diff.empty(), diff.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGoldenSummaries)
#include "test_golden_summaries.moc"
