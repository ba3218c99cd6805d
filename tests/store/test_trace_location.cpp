// A trace whose files moved: the new place is recorded only for the same bytes, persists across
// reopening, and is refused by a read-only project.

#include "test_util.h"

#include "store/project.h"
#include "trace/trace_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

using namespace schedlab;

namespace {
std::unique_ptr<store::Project> mustOpen(
    const std::string& path, store::Project::OpenMode mode = store::Project::OpenMode::CreateIfMissing)
{
    auto p = store::Project::open(path, mode);
    if (!p)
        qFatal("open failed: %s", p.error().toString().c_str());
    return std::move(p).value();
}
} // namespace

class TestTraceLocation : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const QString& name) const { return m_dir.filePath(name).toStdString(); }
    /// tiny/jobs.swf copied to `name` (folders made).
    std::string copyOfSwf(const QString& name) const
    {
        const QString to = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(to).absolutePath());
        QFile::remove(to);
        if (!QFile::copy(QString::fromStdString(test::dataPath("tiny/jobs.swf")), to))
            qFatal("cannot copy jobs.swf");
        return to.toStdString();
    }

private slots:
    void movedFilesAreRecordedAndPersist_data()
    {
        QTest::addColumn<bool>("withOptions");
        QTest::newRow("default import options") << false;
        QTest::newRow("SWF read as nodes of 4 processors") << true; // the options are part of the hash
    }
    void movedFilesAreRecordedAndPersist()
    {
        QFETCH(bool, withOptions);
        const std::string file = path(withOptions ? "opts.schedlab" : "moved.schedlab");
        const std::string before = copyOfSwf("old/jobs.swf");
        trace::ImportOptions options;
        if (withOptions)
            options.procsPerNode = 4;
        auto loaded = trace::loadTrace({ before }, options);
        QVERIFY(loaded);
        int64_t id = -1;
        {
            auto p = mustOpen(file);
            id = p->addTrace(loaded->trace, { before }).value();
            QVERIFY(!p->hasStoredTrace(id).value());
        }
        const std::string after = path("new/renamed.swf");
        QDir().mkpath(m_dir.filePath("new"));
        QVERIFY(QFile::rename(QString::fromStdString(before), QString::fromStdString(after)));
        {
            auto p = mustOpen(file);
            const Status s = p->relocateTrace(id, { after });
            QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        QCOMPARE(p->traceFiles(id).value(),
            std::vector<std::string> { QFileInfo(QString::fromStdString(after)).absoluteFilePath().toStdString() });
        // The trace's identity did not change: adding the moved file again finds it.
        auto again = mustOpen(file);
        QCOMPARE(again->addTrace(loaded->trace, { after }).value(), id);
        QFile::remove(QString::fromStdString(after));
    }

    void otherContentIsRefused()
    {
        const std::string file = path("other.schedlab");
        const std::string swf = copyOfSwf("other/jobs.swf");
        auto loaded = trace::loadTrace({ swf });
        QVERIFY(loaded);
        auto p = mustOpen(file);
        const int64_t id = p->addTrace(loaded->trace, { swf }).value();
        const std::string edited
            = test::writeFile(m_dir, "edited.swf", test::readFile(swf) + "; one more comment line\n");
        const Status s = p->relocateTrace(id, { edited });
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("not the trace of these runs") != std::string::npos, s.error().message.c_str());
        QCOMPARE(s.error().file, edited);
        QCOMPARE(p->traceFiles(id).value().front(), swf); // unchanged
        const Status none = p->relocateTrace(id + 1, { swf });
        QVERIFY(!none.ok());
    }

    void readOnlyProjectSaysSo()
    {
        const std::string file = path("ro.schedlab");
        const std::string swf = copyOfSwf("ro/jobs.swf");
        int64_t id = -1;
        {
            auto loaded = trace::loadTrace({ swf });
            QVERIFY(loaded);
            id = mustOpen(file)->addTrace(loaded->trace, { swf }).value();
        }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        const Status s = p->relocateTrace(id, { swf });
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("read-only") != std::string::npos, s.error().message.c_str());
    }

    void storedCopyIsSeenWithoutReadingIt()
    {
        const std::string swf = copyOfSwf("stored/jobs.swf");
        auto loaded = trace::loadTrace({ swf });
        QVERIFY(loaded);
        auto p = mustOpen(path("stored.schedlab"));
        const int64_t id = p->importTrace(loaded->trace, { swf }).value();
        QVERIFY(p->hasStoredTrace(id).value());
        QVERIFY(!p->hasStoredTrace(id + 1).value());
    }
};

QTEST_GUILESS_MAIN(TestTraceLocation)
#include "test_trace_location.moc"
