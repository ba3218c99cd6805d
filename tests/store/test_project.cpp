// The project database: schema, runs, crash safety (kill -9 of a writer), and hostile files.

#include "test_util.h"
#include "trace_builder.h"

#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "store/project.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QFileInfo>
#include <QFile>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {
trace::Trace smallTrace()
{
    TraceBuilder b;
    for (int i = 0; i < 8; ++i)
        b.node(32000, 65536, 4);
    for (int i = 0; i < 60; ++i)
        b.task(1000 + 100 * (i % 7), 1024, 1, 100 + 100 * (i % 9));
    return b.t;
}
sim::FillResult fill(const trace::Trace& t)
{
    auto p = policy::makePlacementPolicy("bestfit");
    auto r = sim::runFillExperiment(t, *p, {});
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::move(r).value();
}
QByteArray sha(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}
std::unique_ptr<store::Project> mustOpen(const std::string& path, store::Project::OpenMode mode = store::Project::OpenMode::CreateIfMissing)
{
    auto p = store::Project::open(path, mode);
    if (!p)
        qFatal("open failed: %s", p.error().toString().c_str());
    return std::move(p).value();
}
} // namespace

class TestProject : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void createStoreAndReopen()
    {
        const std::string file = path("a.schedlab");
        const trace::Trace t = smallTrace();
        const sim::FillResult r = fill(t);
        int64_t runId = -1;
        {
            auto p = mustOpen(file);
            QCOMPARE(p->schemaVersion(), store::kSchemaVersion);
            auto traceId = p->addTrace(t, { test::dataPath("tiny/jobs.swf") });
            QVERIFY(traceId.ok());
            auto again = p->addTrace(t, { test::dataPath("tiny/jobs.swf") });
            QCOMPARE(again.value(), traceId.value()); // same content, same trace row
            auto id = p->beginRun({ traceId.value(), "fill", "bestfit", "", "", "{}", 42 });
            QVERIFY(id.ok());
            runId = id.value();
            QVERIFY(p->finishFillRun(runId, r).ok());
        }
        auto p = mustOpen(file, store::Project::OpenMode::ExistingOnly);
        auto runs = p->runs();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), std::size_t(1));
        QCOMPARE(runs->front().status, std::string("finished"));
        QCOMPARE(runs->front().policy, std::string("bestfit"));
        QCOMPARE(p->traceFiles(runs->front().traceId).value(), std::vector<std::string> { test::dataPath("tiny/jobs.swf") });
        QCOMPARE(p->countRows("fill_curve", runId).value(), int64_t(r.curve.size()));
        QCOMPARE(p->countRows("decisions", runId).value(), int64_t(r.decisions.size()));
        double alloc = -1;
        const auto summary = p->summary(runId); // keep the Result alive across the loop
        for (const auto& [k, v] : summary.value())
            if (k == "finalGpuAllocPct")
                alloc = v;
        QCOMPARE(alloc, r.finalGpuAllocPct);
        QCOMPARE(p->recoveredRuns(), 0);
    }

    void runsReadBackAsWritten()
    {
        const std::string file = path("load.schedlab");
        const trace::Trace t = smallTrace();
        const sim::FillResult f = fill(t);
        trace::Trace timedTrace = t;
        for (std::size_t i = 0; i < timedTrace.jobs.size(); ++i) {
            timedTrace.jobs[i].submitTimeS = double(i * 30);
            timedTrace.jobs[i].runTimeS = double(600 + 60 * (i % 5));
        }
        auto policy = policy::makePlacementPolicy("bestfit");
        sim::TimedOptions o;
        o.tickS = 60;
        const sim::TimedResult tr = sim::runTimedReplay(timedTrace, *policy, o).value();
        QVERIFY(tr.heat.columns() > 10);
        int64_t fillId = -1, timedId = -1;
        {
            auto p = mustOpen(file);
            fillId = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 }).value();
            QVERIFY(p->finishFillRun(fillId, f).ok());
            timedId = p->beginRun({ -1, "timed", "bestfit", "fcfs", "none", "{}", 42 }).value();
            sim::TimedResult stored = tr;
            stored.gpuBlockedWithRoom = 3; // a figure of room-making runs, kept like the others
            QVERIFY(p->finishTimedRun(timedId, stored).ok());
        }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        auto lf = p->loadRun(fillId);
        QVERIFY2(lf.ok(), lf.ok() ? "" : lf.error().toString().c_str());
        QVERIFY(lf->fill && !lf->timed);
        QCOMPARE(lf->fill->finalGpuAllocPct, f.finalGpuAllocPct);
        QCOMPARE(lf->fill->curve.size(), f.curve.size());
        QCOMPARE(lf->fill->curve.back().fragRatePct, f.curve.back().fragRatePct);
        QCOMPARE(lf->fill->heat.x, f.heat.x);
        QCOMPARE(lf->fill->heat.util, f.heat.util);
        auto lt = p->loadRun(timedId);
        QVERIFY2(lt.ok(), lt.ok() ? "" : lt.error().toString().c_str());
        QVERIFY(lt->timed && !lt->fill);
        QCOMPARE(lt->timed->waitS.p99, tr.waitS.p99);
        QCOMPARE(lt->timed->meanGpuUtil, tr.meanGpuUtil);
        QCOMPARE(lt->timed->gpuBlockedWithRoom, int64_t(3));
        QCOMPARE(lt->timed->series.size(), tr.series.size());
        QCOMPARE(lt->timed->series[5].p99WaitS, tr.series[5].p99WaitS);
        QCOMPARE(lt->timed->units_.size(), tr.units_.size());
        QCOMPARE(lt->timed->units_.back().startS, tr.units_.back().startS);
        QCOMPARE(lt->timed->heat.util, tr.heat.util);
        QCOMPARE(p->setting("reward_weights").value(), std::string()); // unset
        auto missing = p->loadRun(999);
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("no run 999") != std::string::npos);
    }

    void journalsReadBackAsWritten()
    {
        const std::string file = path("journal.schedlab");
        const trace::Trace t = smallTrace();
        auto policy = policy::makePlacementPolicy("bestfit");
        sim::StateJournal journal;
        sim::Recording rec;
        rec.journal = &journal;
        const sim::FillResult f = sim::runFillExperiment(t, *policy, sim::FillOptions {}, rec).value();
        QVERIFY(journal.position() > 10);
        int64_t id = -1;
        {
            auto p = mustOpen(file);
            id = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 }).value();
            QVERIFY(p->finishFillRun(id, f).ok());
            QVERIFY(p->storeJournal(id, journal, f.decisions, f.stateHash).ok());
        }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        auto j = p->journal(id);
        QVERIFY2(j.ok(), j.ok() ? "" : j.error().toString().c_str());
        QVERIFY(j.value().has_value());
        const store::StoredJournal& s = *j.value();
        QCOMPARE(s.finalHash, f.stateHash);
        QCOMPARE(s.ops.size(), journal.ops().size());
        for (std::size_t i = 0; i < s.ops.size(); ++i) {
            QVERIFY(s.ops[i].placement == journal.ops()[i].placement);
            QCOMPARE(s.ops[i].release, journal.ops()[i].release);
        }
        QCOMPARE(s.statePos.size(), f.decisions.size());
        for (std::size_t i = 0; i < s.statePos.size(); ++i)
            QCOMPARE(s.statePos[i], f.decisions.decisions()[i].statePos);
        auto none = p->journal(id + 100);
        QVERIFY(none.ok() && !none.value().has_value());
    }

    // A project written by schema 1 (no node_heat, no rounds) is migrated on open; its runs stay.
    void schemaOneIsMigrated()
    {
        const std::string file = path("v1.schedlab");
        int64_t runId = -1;
        {
            auto p = mustOpen(file);
            runId = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 }).value();
            QVERIFY(p->finishFillRun(runId, fill(smallTrace())).ok());
        }
        QVERIFY(QProcess::execute("python3", { "-c",
                    QString("import sqlite3; c=sqlite3.connect('%1'); c.execute('drop table node_heat'); "
                            "c.execute('drop table round_eval'); c.execute('drop table round_curves'); c.execute('drop table rounds'); "
                            "c.execute('drop table trace_data'); c.execute('drop table state_hashes'); c.execute('alter table decisions drop column reward'); "
                            "c.execute('drop table run_journals'); c.execute('alter table traces drop column import_options'); "
                            "c.execute('drop table autoscale_summary'); c.execute('drop table autoscale_runs'); c.execute('drop table round_constraints'); c.execute('alter table runs drop column pid_start'); "
                            "c.execute(\"update meta set value='1' where key='schema_version'\"); c.commit()")
                        .arg(QString::fromStdString(file)) })
            == 0);
        auto p = mustOpen(file);
        QCOMPARE(p->schemaVersion(), store::kSchemaVersion);
        auto run = p->loadRun(runId);
        QVERIFY(run.ok());
        QVERIFY(run->fill->heat.x.empty()); // heat was dropped with the table; the run itself is intact
        QVERIFY(run->fill->curve.size() > 50);
        auto id = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 43 });
        QVERIFY(p->finishFillRun(id.value(), fill(smallTrace())).ok()); // the new table is usable
        QVERIFY(!p->loadRun(id.value())->fill->heat.x.empty());
        QVERIFY(p->rounds().ok()); // schema 3's tables exist after the migration
        QVERIFY(p->journal(id.value()).ok()); // and schema 7's
        QVERIFY(p->autoscaleRuns().ok() && p->autoscaleRuns()->empty()); // and schema 9's
        QVERIFY(p->roundConstraints(1).ok() && p->roundConstraints(1)->empty()); // and schema 10's
        { // and schema 11's validation column
            const int64_t r = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 1, 1e-3, "balance=1", 1, "{}" }).value();
            store::CurvePoint c { 1, 0.5, 0.1, 0.9, 12.5, 0.3, 1.0, 100 };
            c.validation = 95.25;
            QVERIFY(p->finishRound(r, "/tmp/r.slq", "abc", { c }, {}, 1.0, {}, 95.5).ok());
            QCOMPARE(p->roundCurve(r).value().front().validation, 95.25);
            QCOMPARE(p->rounds().value().back().startValidation, 95.5); // and schema 12's
        }
        trace::Trace t = smallTrace(); // and schema 8's import options
        t.metadata["import.procsPerNode"] = "4";
        const std::string f = path("t.swf");
        QFile(QString::fromStdString(f)).open(QIODevice::WriteOnly);
        auto traceId = p->addTrace(t, { f });
        QVERIFY2(traceId.ok(), traceId.ok() ? "" : traceId.error().toString().c_str());
        QCOMPARE(p->traceImportOptions(traceId.value()).value().procsPerNode, 4);
        QVERIFY(p->setSetting("reward_weights", "balance=1").ok());
        QVERIFY(p->setSetting("reward_weights", "balance=2").ok()); // replaced, not duplicated
        QCOMPARE(p->setting("reward_weights").value(), std::string("balance=2"));
    }

    void roundsLineageCurvesAndRecovery()
    {
        const std::string file = path("rounds.schedlab");
        int64_t first = -1, second = -1;
        {
            auto p = mustOpen(file);
            store::RoundInfo info { -1, -1, store::RoundKind::Fill, "all pods", 3, 1e-3, "balance=0.4", 1, "{}" };
            first = p->beginRound(info).value();
            QVERIFY(p->finishRound(first, "/tmp/r1.slq", "abc", { { 1, 0.5, 0.1, 0.9, 12.5, 0.3, 1.0, 100 } },
                         { { "learned", 42, "finalGpuAllocPct", 91.5 }, { "bestfit", 42, "finalGpuAllocPct", 92.0 } }, 3.5)
                        .ok());
            info.parentId = first;
            second = p->beginRound(info).value();
            QVERIFY(p->endRound(second, store::RunStatus::Failed, "training diverged").ok());
        }
        auto p = mustOpen(file);
        auto rows = p->rounds();
        QCOMPARE(rows->size(), std::size_t(2));
        QCOMPARE(rows->at(0).status, std::string("finished"));
        QCOMPARE(rows->at(0).checkpoint, std::string("/tmp/r1.slq"));
        QCOMPARE(rows->at(1).parentId, first);
        QCOMPARE(rows->at(1).error, std::string("training diverged"));
        auto curve = p->roundCurve(first);
        QCOMPARE(curve->size(), std::size_t(1));
        QCOMPARE(curve->front().episodeReturn, 12.5);
        QCOMPARE(curve->front().decisions, int64_t(100));
        QCOMPARE(curve->front().validation, -1.0); // trained without validation seeds
        QVERIFY(!store::keptWeights(curve.value(), rows->at(0).startValidation));
        QCOMPARE(rows->at(0).startValidation, -1.0);
        // With validation: each episode's value back, the kept episode the first of the highest.
        {
            const int64_t v = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 3, 1e-3, "balance=1", 1, "{}" }).value();
            std::vector<store::CurvePoint> points(3);
            const double values[] = { 94.0, 95.5, 95.5 };
            for (int e = 0; e < 3; ++e) {
                points[std::size_t(e)].episode = e + 1;
                points[std::size_t(e)].validation = values[e];
            }
            QVERIFY(p->finishRound(v, "/tmp/v.slq", "abc", points, {}, 1.0, {}, 95.0).ok());
            auto back = p->roundCurve(v).value();
            QCOMPARE(back.size(), std::size_t(3));
            QCOMPARE(back[0].validation, 94.0);
            const double start = p->rounds().value().back().startValidation;
            QCOMPARE(start, 95.0);
            QCOMPARE(store::keptWeights(back, start)->episode, 2);
            QCOMPARE(store::keptWeights(back, start)->validation, 95.5);
            QCOMPARE(store::keptWeights(back)->episode, 2); // a round of schema 11: no start validation
            // Starting weights at least as good as every episode: they are the ones kept (episode 0).
            QCOMPARE(store::keptWeights(back, 95.5)->episode, 0);
            QCOMPARE(store::keptWeights(back, 95.5)->validation, 95.5);
            QCOMPARE(store::keptWeights({}, 93.0)->episode, 0);
            // A timed round's validation is a p99 wait: the lowest is kept (94 beats a 95 start).
            QCOMPARE(store::keptWeights(back, start, true)->episode, 1);
            QCOMPARE(store::keptWeights(back, start, true)->validation, 94.0);
            QCOMPARE(store::keptWeights(back, 90.0, true)->episode, 0);
        }
        auto eval = p->roundEval(first);
        QCOMPARE(eval->size(), std::size_t(2));
        QCOMPARE(eval->at(1).policy, std::string("learned")); // ordered by policy
        QCOMPARE(eval->at(1).value, 91.5);
        // A round left 'running' by a dead writer is marked failed on the next open.
        {
            auto w = mustOpen(file);
            const pid_t child = ::fork();
            if (child == 0) {
                auto c = store::Project::open(file);
                (void)c.value()->beginRound({ second, -1, store::RoundKind::Fill, "all", 1, 1e-3, "", 1, "{}" });
                ::raise(SIGKILL);
            }
            int status = 0;
            ::waitpid(child, &status, 0);
        }
        auto again = mustOpen(file);
        QCOMPARE(again->rounds()->back().status, std::string("failed"));
        QVERIFY(again->rounds()->back().error.find("interrupted") != std::string::npos);
    }

    // A project of schema 10 opened read-only (as `rounds` does: a listing never migrates) lists
    // its rounds and curves without the later columns.
    void olderProjectListsRoundsReadOnly()
    {
        const std::string file = path("v10.schedlab");
        {
            auto p = mustOpen(file);
            const int64_t r = p->beginRound({ -1, -1, store::RoundKind::Fill, "all pods", 1, 1e-3, "balance=1", 1, "{}" }).value();
            QVERIFY(p->finishRound(r, "/tmp/r.slq", "abc", { { 1, 0.5, 0.1, 0.9, 12.5, 0.3, 1.0, 100 } }, {}, 1.0).ok());
        }
        QVERIFY(QProcess::execute("python3", { "-c",
                    QString("import sqlite3; c=sqlite3.connect('%1'); c.execute('alter table rounds drop column start_validation'); "
                            "c.execute('alter table round_curves drop column validation'); "
                            "c.execute(\"update meta set value='10' where key='schema_version'\"); c.commit()")
                        .arg(QString::fromStdString(file)) })
            == 0);
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        QCOMPARE(p->schemaVersion(), 10);
        auto rows = p->rounds();
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().toString().c_str());
        QCOMPARE(rows->size(), std::size_t(1));
        QCOMPARE(rows->front().startValidation, -1.0);
        auto curve = p->roundCurve(rows->front().id);
        QVERIFY2(curve.ok(), curve.ok() ? "" : curve.error().toString().c_str());
        QCOMPARE(curve->front().episodeReturn, 12.5);
        QCOMPARE(curve->front().validation, -1.0);
    }

    void importedTraceIsStoredAndReadBack()
    {
        auto p = mustOpen(path("import.schedlab"));
        const trace::Trace t = smallTrace();
        auto id = p->importTrace(t, { test::dataPath("tiny/jobs.swf") });
        QVERIFY2(id.ok(), id.ok() ? "" : id.error().toString().c_str());
        QCOMPARE(p->importTrace(t, { test::dataPath("tiny/jobs.swf") }).value(), id.value()); // same content: same trace
        auto back = p->storedTrace(id.value());
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->jobs.size(), t.jobs.size());
        QCOMPARE(back->tasks, t.tasks);
        QCOMPARE(back->nodes, t.nodes);
        auto none = p->storedTrace(id.value() + 1);
        QVERIFY(!none.ok());
    }

    void cancelledRunKeepsNoResults()
    {
        auto p = mustOpen(path("c.schedlab"));
        auto id = p->beginRun({ -1, "fill", "fgd", "", "", "{}", 1 });
        QVERIFY(p->endRun(id.value(), store::RunStatus::Cancelled).ok());
        QCOMPARE(p->runs()->front().status, std::string("cancelled"));
        QCOMPARE(p->countRows("run_summary", id.value()).value(), int64_t(0));
    }

    // A writer killed with SIGKILL in the middle of a run: the earlier run stays intact and the
    // interrupted one is marked failed on the next open.
    void killedWriterMidRun()
    {
        const std::string file = path("k.schedlab");
        const trace::Trace t = smallTrace();
        const sim::FillResult r = fill(t);
        {
            auto p = mustOpen(file);
            auto id = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 });
            QVERIFY(p->finishFillRun(id.value(), r).ok());
        }
        int fds[2];
        QVERIFY(::pipe(fds) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(fds[0]);
            auto p = store::Project::open(file);
            if (!p)
                ::_exit(2);
            auto id = (*p)->beginRun({ -1, "fill", "fgd", "", "", "{}", 43 });
            (void)!::write(fds[1], "R", 1);
            for (;;)
                ::pause(); // "running" until killed
        }
        ::close(fds[1]);
        char c = 0;
        QCOMPARE(::read(fds[0], &c, 1), ssize_t(1));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        // A read-only open (a listing) shows it interrupted and writes nothing.
        auto digest = [&] { return schedlab::test::projectDigest(file); }; // the killed writer's rows are in the WAL
        const QByteArray before = digest();
        {
            auto ro = store::Project::open(file, store::Project::OpenMode::ReadOnly);
            QVERIFY(ro.ok());
            QCOMPARE((*ro)->recoveredRuns(), 0);
            auto listed = (*ro)->runs().value();
            QCOMPARE(listed.size(), std::size_t(2));
            QCOMPARE(listed[1].status, std::string("interrupted"));
        }
        QCOMPARE(digest(), before);
        auto p = mustOpen(file);
        QCOMPARE(p->recoveredRuns(), 1);
        auto runs = p->runs().value();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].status, std::string("finished"));
        QCOMPARE(p->countRows("fill_curve", runs[0].id).value(), int64_t(r.curve.size()));
        QCOMPARE(runs[1].status, std::string("failed"));
        QVERIFY(runs[1].error.find("interrupted") != std::string::npos);
    }

    // Killed while writing results, at varying moments: every run is either finished with all its
    // rows or failed with none; never half.
    void killedWriterWhileCommitting()
    {
        const trace::Trace t = smallTrace();
        const sim::FillResult r = fill(t);
        for (int attempt = 0; attempt < 6; ++attempt) {
            const std::string file = path(std::string("w").append(std::to_string(attempt)).append(".schedlab").c_str());
            { mustOpen(file); }
            int fds[2];
            QVERIFY(::pipe(fds) == 0);
            const pid_t child = ::fork();
            if (child == 0) {
                ::close(fds[0]);
                auto p = store::Project::open(file);
                if (!p)
                    ::_exit(2);
                for (;;) {
                    auto id = (*p)->beginRun({ -1, "fill", "bestfit", "", "", "{}", 42 });
                    if (!id || !(*p)->finishFillRun(id.value(), r))
                        ::_exit(3);
                    (void)!::write(fds[1], "F", 1);
                }
            }
            ::close(fds[1]);
            char c = 0;
            QCOMPARE(::read(fds[0], &c, 1), ssize_t(1));
            ::usleep(useconds_t(1000 + attempt * 3700));
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            ::close(fds[0]);
            auto p = mustOpen(file);
            auto runs = p->runs().value();
            QVERIFY(runs.size() >= 1);
            int finished = 0;
            for (const store::RunRow& run : runs) {
                const int64_t curve = p->countRows("fill_curve", run.id).value();
                const int64_t decisions = p->countRows("decisions", run.id).value();
                if (run.status == "finished") {
                    ++finished;
                    QCOMPARE(curve, int64_t(r.curve.size()));
                    QCOMPARE(decisions, int64_t(r.decisions.size()));
                } else {
                    QCOMPARE(run.status, std::string("failed"));
                    QCOMPARE(curve, int64_t(0));
                    QCOMPARE(decisions, int64_t(0));
                }
            }
            QVERIFY(finished >= 1);
        }
    }

    void notSqliteIsRefusedAndUntouched()
    {
        const std::string file = schedlab::test::writeFile(m_dir, "notes.schedlab", "these are my notes, not a database\n");
        const QByteArray before = sha(file);
        auto p = store::Project::open(file);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().code, ErrorCode::Format);
        QVERIFY2(p.error().toString().find("notes.schedlab: not a schedlab project (not an SQLite database)")
                != std::string::npos,
            p.error().toString().c_str());
        QCOMPARE(sha(file), before);
    }

    void newerSchemaIsRefusedAndUntouched()
    {
        const std::string file = path("new.schedlab");
        { mustOpen(file); }
        {
            // Simulate a future schedlab: bump the version with SQLite directly.
            auto p = mustOpen(file);
            (void)p;
        }
        QVERIFY(QProcess::execute("python3", { "-c",
                    QString("import sqlite3; c=sqlite3.connect('%1'); c.execute(\"update meta set value='99' where "
                            "key='schema_version'\"); c.commit()")
                        .arg(QString::fromStdString(file)) })
            == 0);
        const QByteArray before = sha(file);
        auto p = store::Project::open(file);
        QVERIFY(!p.ok());
        QVERIFY2(p.error().message.find("newer schedlab (schema 99") != std::string::npos, p.error().message.c_str());
        QCOMPARE(sha(file), before);
    }

    void foreignSqliteIsRefused()
    {
        const std::string file = path("other.db");
        QVERIFY(QProcess::execute("python3", { "-c",
                    QString("import sqlite3; c=sqlite3.connect('%1'); c.execute('create table t(x)'); c.commit()")
                        .arg(QString::fromStdString(file)) })
            == 0);
        auto p = store::Project::open(file);
        QVERIFY(!p.ok());
        QVERIFY(p.error().message.find("not a schedlab project (no meta table)") != std::string::npos);
    }

    void corruptedFileGivesAClearError()
    {
        const std::string file = path("bad.schedlab");
        {
            auto p = mustOpen(file);
            const sim::FillResult r = fill(smallTrace());
            for (int i = 0; i < 5; ++i) {
                auto id = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", uint64_t(i) });
                QVERIFY(p->finishFillRun(id.value(), r).ok());
            }
        }
        {
            // Smash the headers of b-tree pages 2..5 (SQLite's default page size is 4096).
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            const std::string junk(12, '\xA5');
            for (int page = 1; page <= 4; ++page) {
                f.seekp(4096 * page);
                f.write(junk.data(), std::streamsize(junk.size()));
            }
        }
        auto p = store::Project::open(file);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().code, ErrorCode::Format);
        QVERIFY2(p.error().message.find("corrupted") != std::string::npos, p.error().message.c_str());
    }

    void readOnlyProjectRefusesWrites()
    {
        const std::string file = path("ro.schedlab");
        { mustOpen(file); }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        QVERIFY(p->readOnly());
        auto id = p->beginRun({ -1, "fill", "bestfit", "", "", "{}", 1 });
        QVERIFY(!id.ok());
        QVERIFY(id.error().message.find("read-only") != std::string::npos);
        QVERIFY(p->runs().ok());
    }

    // Autoscaling runs (schema 9): what they replayed, their figures and series, read back as
    // written, in order; a damaged series is named, not misread.
    void autoscaleRunsRoundTrip()
    {
        const std::string file = path("autoscale.schedlab");
        store::AutoscaleRunRecord a;
        a.load = "/data/load.txt";
        a.service = "(defaults)";
        a.policy = "hpa";
        a.fromS = 60;
        a.durationS = 3600;
        a.summary = { { "replicaHours", 2.5 }, { "sloViolationMinutes", 3 } };
        a.seriesColumns = 2;
        a.series = { 0, 1.5f, 60, 2.5f };
        store::AutoscaleRunRecord b = a;
        b.policy = "learned:s.slq";
        b.series.clear();
        {
            auto p = mustOpen(file);
            QCOMPARE(p->addAutoscaleRun(a).value(), int64_t(1));
            QCOMPARE(p->addAutoscaleRun(b).value(), int64_t(2));
            store::AutoscaleRunRecord odd = a;
            odd.series.push_back(1); // 5 floats in rows of 2
            QVERIFY(!p->addAutoscaleRun(odd).ok());
        }
        auto p = mustOpen(file, store::Project::OpenMode::ReadOnly);
        auto runs = p->autoscaleRuns(true);
        QVERIFY2(runs.ok(), runs.ok() ? "" : runs.error().toString().c_str());
        QCOMPARE(runs->size(), std::size_t(2));
        const store::AutoscaleRunRecord& r = (*runs)[0];
        QCOMPARE(r.policy, std::string("hpa"));
        QCOMPARE(r.load, a.load);
        QCOMPARE(r.fromS, 60.0);
        QCOMPARE(r.durationS, 3600.0);
        QCOMPARE(r.value("replicaHours"), 2.5);
        QCOMPARE(r.value("sloViolationMinutes"), 3.0);
        QCOMPARE(r.series, a.series);
        QVERIFY(!r.createdAt.empty());
        QCOMPARE((*runs)[1].policy, std::string("learned:s.slq"));
        QVERIFY((*runs)[1].series.empty());
        QVERIFY(p->autoscaleRuns(false)->at(0).series.empty()); // without series when not asked
        QVERIFY(!p->addAutoscaleRun(a).ok()); // read-only
        p.reset();
        QVERIFY(QProcess::execute("python3", { "-c",
                    QString("import sqlite3; c=sqlite3.connect('%1'); c.execute(\"update autoscale_runs set series=x'0000803f00' where id=1\"); c.commit()")
                        .arg(QString::fromStdString(file)) })
            == 0);
        auto damaged = mustOpen(file)->autoscaleRuns(true);
        QVERIFY(!damaged.ok());
        QVERIFY2(damaged.error().toString().find("autoscaling run 1: its series is not whole rows") != std::string::npos,
            damaged.error().toString().c_str());
    }

    void missingFileWithExistingOnly()
    {
        auto p = store::Project::open(path("nope.schedlab"), store::Project::OpenMode::ExistingOnly);
        QVERIFY(!p.ok());
        QVERIFY(p.error().message.find("does not exist") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "test_project.moc"
