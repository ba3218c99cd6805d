// A project whose trace files moved: which runs need which missing files, where the files are
// looked for when the user picks one, and bringing the trace back (recorded or imported), after
// which workflow::traceOfRun reopens the runs' trace as the CLI and the workbench do.

#include "test_util.h"

#include "workflow/open_run.h"
#include "workflow/run_recorder.h"
#include "workflow/trace_location.h"

#include "store/project.h"
#include "trace/trace_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

using namespace schedlab;

namespace {
std::string absolute(const QString& p)
{
    return QFileInfo(p).absoluteFilePath().toStdString();
}
} // namespace

class TestTraceLocation : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    /// tests/data/tiny/nodes.csv and pods.csv (one Alibaba GPU trace of two files) copied into `folder`.
    std::vector<std::string> copyTrace(const QString& folder) const
    {
        QDir().mkpath(m_dir.filePath(folder));
        std::vector<std::string> out;
        for (const char* name : { "nodes.csv", "pods.csv" }) {
            const QString to = m_dir.filePath(folder + "/" + name);
            if (!QFile::copy(QString::fromStdString(test::dataPath(std::string("tiny/") + name)), to))
                qFatal("cannot copy %s", name);
            out.push_back(absolute(to));
        }
        return out;
    }
    static void move(const QString& from, const QString& to)
    {
        QDir().mkpath(QFileInfo(to).absolutePath());
        QVERIFY(QDir().rename(from, to));
    }

private slots:
    void pickedFileFindsTheOthersBesideIt_data()
    {
        QTest::addColumn<QStringList>("recorded");
        QTest::addColumn<QString>("picked");
        QTest::addColumn<QStringList>("expected"); // empty: an error
        QTest::newRow("one file, renamed")
            << QStringList { "/old/a.swf" } << "/new/b.swf" << QStringList { "/new/b.swf" };
        QTest::newRow("two files, the second picked") << QStringList { "/old/nodes.csv",
            "/old/pods.csv" } << "/new/pods.csv" << QStringList { "/new/nodes.csv", "/new/pods.csv" };
        QTest::newRow("two files from two folders") << QStringList { "/a/nodes.csv", "/b/pods.csv" } << "/c/nodes.csv"
                                                    << QStringList { "/c/nodes.csv", "/c/pods.csv" };
        QTest::newRow("two files, a name neither has")
            << QStringList { "/old/nodes.csv", "/old/pods.csv" } << "/new/x.csv" << QStringList {};
    }
    void pickedFileFindsTheOthersBesideIt()
    {
        QFETCH(QStringList, recorded);
        QFETCH(QString, picked);
        QFETCH(QStringList, expected);
        std::vector<std::string> files;
        for (const QString& f : recorded)
            files.push_back(f.toStdString());
        auto out = workflow::relocatedFiles(files, picked.toStdString());
        if (expected.isEmpty()) {
            QVERIFY(!out.ok());
            QVERIFY2(out.error().message.find("nodes.csv, pods.csv") != std::string::npos, out.error().message.c_str());
            return;
        }
        QVERIFY(out.ok());
        QStringList got;
        for (const std::string& f : out.value())
            got << QString::fromStdString(f);
        QCOMPARE(got, expected);
    }

    void movedTraceIsFoundRecordedAndImported()
    {
        const std::vector<std::string> files = copyTrace("first");
        auto loaded = trace::loadTrace(files);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        auto opened = store::Project::open(m_dir.filePath("p.schedlab").toStdString());
        QVERIFY(opened.ok());
        store::Project& p = *opened.value();
        const int64_t traceId = p.addTrace(loaded->trace, files).value();
        workflow::RunRecorder recorder(p, traceId);
        for (const char* policy : { "bestfit", "fgd" })
            QVERIFY(recorder.run(sim::RunSpec::fill(policy, {}), loaded->trace).ok());
        QVERIFY(workflow::missingTraces(p).value().empty()); // the files are where they were

        move(m_dir.filePath("first"), m_dir.filePath("second"));
        auto missing = workflow::missingTraces(p);
        QVERIFY(missing.ok());
        QCOMPARE(missing->size(), std::size_t(1));
        const workflow::MissingTrace& m = missing->front();
        QCOMPARE(m.traceId, traceId);
        QCOMPARE(m.runs, (std::vector<int64_t> { 1, 2 }));
        QCOMPARE(m.files, files);
        QCOMPARE(m.missing, files);
        const store::RunRow row = p.runs().value().front();
        auto lost = workflow::traceOfRun(p, row);
        QVERIFY(!lost.ok());
        QVERIFY(lost.error().message.find("could not be reopened") != std::string::npos);

        // A read-only project checks the files and records nothing.
        const std::string pods = absolute(m_dir.filePath("second/pods.csv"));
        {
            auto ro = store::Project::open(p.path(), store::Project::OpenMode::ReadOnly);
            QVERIFY(ro.ok());
            QVERIFY(!workflow::relocateTrace(*ro.value(), traceId, pods).ok()); // says read-only
            auto checked = workflow::relocateTrace(*ro.value(), traceId, pods, workflow::Relocation::Check);
            QVERIFY2(checked.ok(), checked.ok() ? "" : checked.error().toString().c_str());
            QCOMPARE(checked->back(), pods);
            QCOMPARE(ro.value()->traceFiles(traceId).value(), files);
        }
        // Recorded: the other file is found beside the picked one; the runs reopen.
        auto now = workflow::relocateTrace(p, traceId, pods);
        QVERIFY2(now.ok(), now.ok() ? "" : now.error().toString().c_str());
        QCOMPARE(now.value(), (std::vector<std::string> { absolute(m_dir.filePath("second/nodes.csv")), pods }));
        QVERIFY(workflow::missingTraces(p).value().empty());
        QVERIFY(workflow::traceOfRun(p, row).ok());
        QVERIFY(!p.hasStoredTrace(traceId).value());

        // Imported: once the copy is in the project, the files may go.
        move(m_dir.filePath("second"), m_dir.filePath("third"));
        QCOMPARE(workflow::missingTraces(p).value().size(), std::size_t(1));
        auto imported = workflow::relocateTrace(
            p, traceId, absolute(m_dir.filePath("third/nodes.csv")), workflow::Relocation::Import);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().toString().c_str());
        QVERIFY(p.hasStoredTrace(traceId).value());
        QVERIFY(QDir(m_dir.filePath("third")).removeRecursively());
        QVERIFY(workflow::missingTraces(p).value().empty());
        auto reopened = workflow::traceOfRun(p, row);
        QVERIFY(reopened.ok());
        QCOMPARE(reopened.value()->tasks.size(), loaded->trace.tasks.size());
    }

    void aMissingNeighbourIsNamed()
    {
        const std::vector<std::string> files = copyTrace("pair");
        auto loaded = trace::loadTrace(files);
        QVERIFY(loaded.ok());
        auto opened = store::Project::open(m_dir.filePath("pair.schedlab").toStdString());
        QVERIFY(opened.ok());
        const int64_t traceId = opened.value()->addTrace(loaded->trace, files).value();
        move(m_dir.filePath("pair/pods.csv"), m_dir.filePath("elsewhere/pods.csv"));
        auto out = workflow::relocateTrace(*opened.value(), traceId, absolute(m_dir.filePath("elsewhere/pods.csv")));
        QVERIFY(!out.ok());
        QCOMPARE(QString::fromStdString(out.error().file), m_dir.filePath("elsewhere/nodes.csv"));
        QCOMPARE(opened.value()->traceFiles(traceId).value(), files); // nothing recorded
    }
};

QTEST_GUILESS_MAIN(TestTraceLocation)
#include "test_trace_location.moc"
