// State that looks alive: a run or round left 'running' by a writer that is gone (killed with
// SIGKILL, or whose pid a later process took) is listed as interrupted without writing anything,
// and the next writer marks it failed; one of another host stays running and says where. Schema
// 13 (the writer's start time) migrates from 12. A project opened to look (ReadUntilWrite, as the
// workbench does) is not changed, not even migrated, until its first write.

#include "test_util.h"
#include "trace_builder.h"

#include "sim/fill_experiment.h"
#include "store/project.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace schedlab;

namespace {
std::unique_ptr<store::Project> mustOpen(const std::string& path, store::Project::OpenMode mode = store::Project::OpenMode::CreateIfMissing)
{
    auto p = store::Project::open(path, mode);
    if (!p)
        qFatal("open failed: %s", p.error().toString().c_str());
    return std::move(p).value();
}

/// Runs SQL statements on the file with Python's sqlite3 (a fixture of what another build wrote).
bool sql(const std::string& file, const QStringList& statements)
{
    QString code = QString("import sqlite3; c=sqlite3.connect('%1'); ").arg(QString::fromStdString(file));
    for (const QString& s : statements)
        code += QString("c.execute(\"%1\"); ").arg(s);
    return QProcess::execute("python3", { "-c", code + "c.commit()" }) == 0;
}

QByteArray digest(const std::string& file) { return schedlab::test::projectDigest(file); }

/// A child process opens `file`, begins a round and a run (both 'running') and is killed with
/// SIGKILL once they are committed; returns when it is reaped (its pid is free again).
void killWriterMidRound(const std::string& file)
{
    int fds[2];
    QVERIFY(::pipe(fds) == 0);
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        auto p = store::Project::open(file);
        if (!p)
            ::_exit(2);
        (void)(*p)->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 50, 1e-3, "balance=1", 7, "{}" });
        (void)(*p)->beginRun({ -1, "fill", "fgd", "", "", "{}", 43 });
        (void)!::write(fds[1], "R", 1);
        for (;;)
            ::pause(); // "running" until killed
    }
    ::close(fds[1]);
    char c = 0;
    QCOMPARE(::read(fds[0], &c, 1), ssize_t(1));
    ::close(fds[0]);
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    QVERIFY(WIFSIGNALED(status));
}

sim::FillResult fill()
{
    test::TraceBuilder b;
    for (int i = 0; i < 4; ++i)
        b.node(32000, 65536, 4);
    for (int i = 0; i < 20; ++i)
        b.task(1000, 1024, 1, 100);
    auto p = policy::makePlacementPolicy("bestfit");
    return sim::runFillExperiment(b.t, *p, {}).value();
}
} // namespace

class TestProjectLiveness : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    // kill -9 of a writer mid-round: a listing (read-only, or a writer opened before the kill, as
    // the workbench is) shows the round and the run interrupted and writes nothing; the next
    // writer's open marks them failed.
    void killedWriterIsListedInterrupted()
    {
        const std::string file = path("killed.schedlab");
        mustOpen(file);
        auto before = mustOpen(file, store::Project::OpenMode::ExistingOnly); // open while the writer lives
        killWriterMidRound(file);
        const QByteArray bytes = digest(file);
        {
            auto ro = mustOpen(file, store::Project::OpenMode::ReadOnly);
            const auto rounds = ro->rounds().value();
            QCOMPARE(rounds.size(), std::size_t(1));
            QCOMPARE(rounds[0].status, std::string("interrupted"));
            QVERIFY2(rounds[0].error.find("interrupted") != std::string::npos, rounds[0].error.c_str());
            QCOMPARE(ro->runs().value().at(0).status, std::string("interrupted"));
            QCOMPARE(before->rounds().value().at(0).status, std::string("interrupted"));
            QCOMPARE(before->runs().value().at(0).status, std::string("interrupted"));
        }
        QCOMPARE(digest(file), bytes);
        before.reset();
        auto w = mustOpen(file);
        QCOMPARE(w->recoveredRuns(), 2);
        QCOMPARE(w->rounds().value().at(0).status, std::string("failed"));
        QVERIFY(w->rounds().value().at(0).error.find("interrupted") != std::string::npos);
        QCOMPARE(w->runs().value().at(0).status, std::string("failed"));
    }

    // A row whose pid is alive but belongs to a process that started later than its writer (the
    // pid was reused): interrupted. The writer's own rows stay running; another host's rows stay
    // running and name the host.
    void reusedPidIsInterrupted()
    {
        const std::string file = path("reuse.schedlab");
        auto p = mustOpen(file);
        const int64_t reused = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 5, 1e-3, "balance=1", 1, "{}" }).value();
        const int64_t mine = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 5, 1e-3, "balance=1", 2, "{}" }).value();
        const int64_t remote = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 5, 1e-3, "balance=1", 3, "{}" }).value();
        const int64_t run = p->beginRun({ -1, "fill", "fgd", "", "", "{}", 1 }).value();
        auto status = [&](int64_t id) {
            const auto rows = mustOpen(file, store::Project::OpenMode::ReadOnly)->rounds().value();
            for (const store::RoundRow& r : rows)
                if (r.id == id)
                    return r.status;
            return std::string("?");
        };
        QCOMPARE(status(reused), std::string("running")); // this process: alive
        // Its pid (this live process) with another start time: a later process took the pid.
        QVERIFY(sql(file, { QString("update rounds set pid_start = pid_start + 1 where id = %1").arg(reused),
                              QString("update runs set pid_start = pid_start - 7 where id = %1").arg(run),
                              QString("update rounds set host = 'node-elsewhere-7' where id = %1").arg(remote) }));
        QCOMPARE(status(reused), std::string("interrupted"));
        QCOMPARE(status(mine), std::string("running"));
        QCOMPARE(status(remote), std::string("running"));
        const auto rounds = mustOpen(file, store::Project::OpenMode::ReadOnly)->rounds().value();
        QCOMPARE(rounds[2].error, std::string("running on node-elsewhere-7 (not checked from here)"));
        QCOMPARE(p->rounds().value().at(0).status, std::string("interrupted")); // the writer's own listing too
        QCOMPARE(mustOpen(file, store::Project::OpenMode::ReadOnly)->runs().value().at(0).status, std::string("interrupted"));
        // A writer's open marks it failed (the reused pid is not its writer); ours runs on.
        auto w = mustOpen(file, store::Project::OpenMode::ExistingOnly);
        QCOMPARE(w->rounds().value().at(0).status, std::string("failed"));
        QCOMPARE(w->rounds().value().at(1).status, std::string("running"));
        QCOMPARE(w->runs().value().at(0).status, std::string("failed"));
    }

    // Schema 12 -> 13: rows written before have no start time (the pid alone decides); the
    // migration adds the column and keeps every row.
    void schemaTwelveIsMigrated()
    {
        const std::string file = path("v12.schedlab");
        {
            auto p = mustOpen(file);
            const int64_t done = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 }).value();
            QVERIFY(p->finishFillRun(done, fill()).ok());
            (void)p->beginRun({ -1, "fill", "fgd", "", "", "{}", 43 }).value(); // running, this process
        }
        killWriterMidRound(file); // a round and a run of a dead writer
        QVERIFY(sql(file, { "alter table runs drop column pid_start", "alter table rounds drop column pid_start",
                              "update meta set value='12' where key='schema_version'" }));
        {
            auto ro = mustOpen(file, store::Project::OpenMode::ReadOnly);
            QCOMPARE(ro->schemaVersion(), 12);
            const auto runs = ro->runs().value();
            QCOMPARE(runs.size(), std::size_t(3));
            QCOMPARE(runs[0].status, std::string("finished"));
            QCOMPARE(runs[1].status, std::string("running")); // this process's pid, no start time to compare
            QCOMPARE(runs[2].status, std::string("interrupted"));
            QCOMPARE(ro->rounds().value().at(0).status, std::string("interrupted"));
        }
        auto p = mustOpen(file);
        QCOMPARE(p->schemaVersion(), store::kSchemaVersion);
        QCOMPARE(p->recoveredRuns(), 2);
        QVERIFY(p->loadRun(1).ok());
        QCOMPARE(p->runs().value().at(1).status, std::string("running"));
        const int64_t next = p->beginRun({ -1, "fill", "fgd", "", "", "{}", 44 }).value(); // the new column is written
        QVERIFY(sql(file, { QString("update runs set pid_start = pid_start + 1 where id = %1 and pid_start is not null").arg(next) }));
        QCOMPARE(p->runs().value().back().status, std::string("interrupted"));
    }

    // An older project opened to look (ReadUntilWrite): read as it is, bytes unchanged, its dead
    // writer's round listed interrupted; the first write migrates it and recovers the round.
    void readUntilWriteLeavesOlderProjectsUnchanged_data()
    {
        QTest::addColumn<int>("schema");
        QTest::addColumn<QStringList>("downgrade");
        QTest::newRow("schema 12") << 12 << QStringList { "alter table runs drop column pid_start", "alter table rounds drop column pid_start" };
        QTest::newRow("schema 10") << 10
                                   << QStringList { "alter table runs drop column pid_start", "alter table rounds drop column pid_start",
                                          "alter table rounds drop column start_validation", "alter table round_curves drop column validation" };
        QTest::newRow("schema 1") << 1
                                  << QStringList { "drop table node_heat", "drop table round_eval", "drop table round_curves",
                                         "drop table round_constraints", "drop table rounds", "drop table trace_data",
                                         "drop table state_hashes", "alter table decisions drop column reward", "drop table run_journals",
                                         "alter table traces drop column import_options", "alter table runs drop column pid_start",
                                         "drop table autoscale_summary", "drop table autoscale_runs" };
    }
    void readUntilWriteLeavesOlderProjectsUnchanged()
    {
        QFETCH(int, schema);
        QFETCH(QStringList, downgrade);
        const std::string file = path(("look-" + std::to_string(schema) + ".schedlab").c_str());
        int64_t done = -1;
        {
            auto p = mustOpen(file);
            done = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 }).value();
            QVERIFY(p->finishFillRun(done, fill()).ok());
        }
        killWriterMidRound(file);
        if (schema < 3) // no rounds table: the dead round goes with it
            downgrade.prepend("delete from rounds");
        QVERIFY(sql(file, downgrade << QString("update meta set value='%1' where key='schema_version'").arg(schema)));
        { mustOpen(file, store::Project::OpenMode::ReadOnly); } // merges the log: compare the file itself
        const QByteArray bytes = digest(file);
        {
            auto p = mustOpen(file, store::Project::OpenMode::ReadUntilWrite);
            QCOMPARE(p->schemaVersion(), schema);
            QVERIFY(!p->readOnly());
            QVERIFY(p->migratesOnWrite());
            QCOMPARE(p->recoveredRuns(), 0);
            const auto runs = p->runs().value();
            QCOMPARE(runs.size(), std::size_t(2));
            QCOMPARE(runs[1].status, std::string("interrupted"));
            auto rounds = p->rounds();
            QVERIFY2(rounds.ok(), rounds.ok() ? "" : rounds.error().toString().c_str());
            QCOMPARE(rounds->size(), std::size_t(schema < 3 ? 0 : 1));
            if (schema >= 3)
                QCOMPARE(rounds->front().status, std::string("interrupted"));
            auto run = p->loadRun(done);
            QVERIFY2(run.ok(), run.ok() ? "" : run.error().toString().c_str());
            QVERIFY(run->fill->curve.size() > 5);
            QVERIFY(p->decisions(done).ok());
            QVERIFY(p->stateHashes(done).ok());
            QVERIFY(p->journal(done).ok());
            QVERIFY(p->autoscaleRuns().ok());
            QVERIFY(p->roundConstraints(1).ok() && p->roundEval(1).ok() && p->roundCurve(1).ok());
            QVERIFY(p->setting("reward_weights").ok());
            // Save As (the workbench's copy) from the look-only connection: the copy is migrated, not this file.
            const std::string copy = file + ".copy";
            QVERIFY(p->copyTo(copy).ok());
            QCOMPARE(mustOpen(copy, store::Project::OpenMode::ExistingOnly)->schemaVersion(), store::kSchemaVersion);
        }
        QCOMPARE(digest(file), bytes);
        {
            auto p = mustOpen(file, store::Project::OpenMode::ReadUntilWrite);
            QVERIFY(p->setSetting("reward_weights", "balance=1").ok()); // the first write migrates
            QCOMPARE(p->schemaVersion(), store::kSchemaVersion);
            QVERIFY(!p->migratesOnWrite());
            QCOMPARE(p->recoveredRuns(), schema < 3 ? 1 : 2);
            QCOMPARE(p->runs().value().at(1).status, std::string("failed"));
            QVERIFY(p->beginRound({ -1, -1, store::RoundKind::Fill, "all", 1, 1e-3, "balance=1", 1, "{}" }).ok());
        }
        QVERIFY(digest(file) != bytes);
        QCOMPARE(mustOpen(file, store::Project::OpenMode::ReadOnly)->schemaVersion(), store::kSchemaVersion);
    }

    // A project of the current schema opened to look: nothing written at open (the dead writer's
    // rows stay 'running' in the file, listed interrupted), recovered by the first write.
    void readUntilWriteRecoversOnFirstWrite()
    {
        const std::string file = path("look-current.schedlab");
        mustOpen(file);
        killWriterMidRound(file);
        { mustOpen(file, store::Project::OpenMode::ReadOnly); }
        const QByteArray bytes = digest(file);
        auto p = mustOpen(file, store::Project::OpenMode::ReadUntilWrite);
        QVERIFY(!p->readOnly() && !p->migratesOnWrite());
        QCOMPARE(p->rounds().value().at(0).status, std::string("interrupted"));
        QCOMPARE(digest(file), bytes);
        QVERIFY(p->beginRun({ -1, "fill", "fgd", "", "", "{}", 1 }).ok());
        QCOMPARE(p->recoveredRuns(), 2);
        QCOMPARE(p->rounds().value().at(0).status, std::string("failed"));
        QCOMPARE(p->runs().value().back().status, std::string("running"));
    }
};

QTEST_GUILESS_MAIN(TestProjectLiveness)
#include "test_project_liveness.moc"
