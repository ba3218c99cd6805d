// Projects shared between processes and volumes: two processes creating one project at once (two
// merges of a sweep's shards), and finished projects on a read-only volume.

#include "test_util.h"
#include "trace_builder.h"

#include "sim/fill_experiment.h"
#include "store/project.h"
#include "store/sqlite_db.h"

#include <QProcess>
#include <QtTest>

#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {
trace::Trace smallTrace()
{
    TraceBuilder b;
    for (int i = 0; i < 4; ++i)
        b.node(32000, 65536, 4);
    for (int i = 0; i < 20; ++i)
        b.task(1000, 1024, 1, 100 + 100 * (i % 9));
    return b.t;
}
std::unique_ptr<store::Project> mustOpen(const std::string& path)
{
    auto p = store::Project::open(path);
    if (!p)
        qFatal("open failed: %s", p.error().toString().c_str());
    return std::move(p).value();
}
} // namespace

class TestProjectSharing : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    // Two processes creating the same new project at the same moment (two merges of a sweep's
    // shards into a project that does not exist yet): both open it, one schema, no "locked".
    void twoProcessesCreateOneProject()
    {
        for (int trial = 0; trial < 12; ++trial) {
            const std::string file = path(("race-" + std::to_string(trial) + ".schedlab").c_str());
            int gate[2];
            QCOMPARE(::pipe(gate), 0);
            pid_t kids[2];
            for (pid_t& kid : kids) {
                kid = ::fork();
                QVERIFY(kid >= 0);
                if (kid == 0) {
                    ::close(gate[1]);
                    char c;
                    (void)!::read(gate[0], &c, 1); // both start together
                    auto p = store::Project::open(file);
                    if (!p.ok())
                        std::fprintf(stderr, "trial %d: %s\n", trial, p.error().toString().c_str());
                    ::_exit(p.ok() ? 0 : 1);
                }
            }
            ::close(gate[0]);
            ::close(gate[1]); // releases both
            for (pid_t kid : kids) {
                int status = 0;
                QCOMPARE(::waitpid(kid, &status, 0), kid);
                QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, ("trial " + std::to_string(trial)).c_str());
            }
            auto p = mustOpen(file);
            QCOMPARE(p->schemaVersion(), store::kSchemaVersion);
        }
    }

    // A finished project on a read-only mount (a sweep's shards on a read-only volume): read as
    // immutable, its runs as written; with unmerged writes in a -wal file, an error that says so
    // (never "corrupted"). Needs a read-only bind mount, so root (CI runs as root).
    void readOnlyMountOpensAsImmutable()
    {
        QTemporaryDir src, mnt;
        const std::string file = src.filePath("shard.schedlab").toStdString();
        {
            auto p = mustOpen(file);
            auto traceId = p->addTrace(smallTrace(), { test::dataPath("tiny/jobs.swf") });
            auto id = p->beginRun({ traceId.value(), "fill", "bestfit", "", "", "{}", 42 });
            auto policy = policy::makePlacementPolicy("bestfit");
            QVERIFY(p->finishFillRun(id.value(), sim::runFillExperiment(smallTrace(), *policy, {}).value()).ok());
        }
        auto sh = [](const QString& cmd) { return QProcess::execute("/bin/sh", { "-c", cmd + " 2>/dev/null" }); };
        if (sh(QString("mount --bind '%1' '%2' && mount -o remount,ro,bind '%2'").arg(src.path(), mnt.path())) != 0)
            QSKIP("cannot make a read-only bind mount here (needs root)");
        struct Unmount {
            QString dir;
            ~Unmount() { QProcess::execute("umount", { dir }); }
        } unmount { mnt.path() };
        const std::string ro = mnt.filePath("shard.schedlab").toStdString();
        auto uri = store::Database::readUri(ro);
        QVERIFY(uri.ok() && uri->ends_with("?immutable=1"));
        auto p = store::Project::open(ro, store::Project::OpenMode::ReadOnly);
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
        auto runs = p.value()->runs();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), std::size_t(1));
        QCOMPARE(runs->front().status, std::string("finished"));
        p = Result<std::unique_ptr<store::Project>>(makeError(ErrorCode::Empty, "closed"));
        // Unmerged writes beside it on the read-only volume: said, not read as corrupted.
        QProcess::execute("umount", { mnt.path() });
        std::ofstream(file + "-wal") << "not yet merged";
        QCOMPARE(sh(QString("mount --bind '%1' '%2' && mount -o remount,ro,bind '%2'").arg(src.path(), mnt.path())), 0);
        auto refused = store::Project::open(ro, store::Project::OpenMode::ReadOnly);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.find("write-ahead log") != std::string::npos
                && refused.error().message.find("corrupted") == std::string::npos,
            refused.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestProjectSharing)
#include "test_project_sharing.moc"
