// `schedlab-cli sweep` as a cluster runs it: each shard a process with its index in
// JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID, merged into one project;
// a shard killed with SIGKILL mid-cell resumes with its finished cells skipped, a merge killed
// mid-way leaves nothing half-copied, and the merge counts every cell once; the emitted Slurm script and manifest name the plan.

#include "cli_run.h"
#include "test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <set>

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 300000); }
Run cliWith(const QStringList& args, const QString& var, const QString& value)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(var, value);
    return schedlab::test::runCli(args, 300000, env);
}
QString sample() { return QStringLiteral(SCHEDLAB_SAMPLE); }
} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void indexedShardsMerge()
    {
        const QString plan = m_dir.filePath("s.sweep"), merged = m_dir.filePath("merged.schedlab");
        Run r = cli({ "sweep", "plan", sample(), "--mode", "timed", "--policy", "firstfit,bestfit", "--seeds", "1-3", "--shards", "3",
            "--out", plan });
        QVERIFY2(r.code == 0 && r.out.contains("6 cells") && r.out.contains("in 3 shards"), r.err.constData());
        QStringList shards;
        for (int i = 0; i < 3; ++i) {
            shards << m_dir.filePath(QString("shard-%1.schedlab").arg(i));
            // The index as an engine gives it: Kubernetes for 0 and 1, Slurm for 2.
            r = cliWith({ "sweep", "run", plan, "--project", shards.back() }, i < 2 ? "JOB_COMPLETION_INDEX" : "SLURM_ARRAY_TASK_ID",
                QString::number(i));
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(r.out.contains(QString("shard %1 of sweep").arg(i).toUtf8()) && r.out.contains("2 cells run"), r.out.constData());
        }
        r = cli(QStringList { "sweep", "merge", plan } + shards + QStringList { "--project", merged });
        QVERIFY2(r.code == 0 && r.out.contains("6 cells merged now, 0 before; 0 of 6 cells missing"), r.out.constData());
        r = cli({ "runs", "--project", merged, "--json" });
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["runs"].toArray();
        QCOMPARE(runs.size(), 6);
        std::set<std::pair<QString, int>> cells;
        for (const QJsonValue& v : runs)
            cells.emplace(v.toObject()["policy"].toString(), v.toObject()["seed"].toInt());
        QCOMPARE(int(cells.size()), 6); // each (policy, seed) once
        r = cli({ "sweep", "status", plan, shards[0], shards[1] });
        QVERIFY2(r.out.contains("4 of 6 cells finished"), r.out.constData());
        r = cli({ "sweep", "run", plan }); // no index from anywhere
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("give --shard I"));
    }

    void killedShardResumes()
    {
        const QString plan = m_dir.filePath("k.sweep"), shard = m_dir.filePath("k-shard.schedlab"), merged = m_dir.filePath("k.schedlab");
        Run r = cli({ "sweep", "plan", sample(), "--mode", "timed", "--policy", "fgd", "--seeds", "1-12", "--shards", "1",
            "--record", "full", "--out", plan });
        QVERIFY2(r.code == 0, r.err.constData());
        QProcess p;
        p.start(QStringLiteral(SCHEDLAB_CLI), { "sweep", "run", plan, "--shard", "0", "--project", shard });
        QVERIFY(p.waitForStarted());
        // Kill it once a cell is finished and before the last.
        int finished = 0;
        for (int i = 0; i < 600 && p.state() == QProcess::Running; ++i) {
            QTest::qWait(50);
            const Run s = cli({ "sweep", "status", plan, shard });
            const QRegularExpressionMatch total
                = QRegularExpression("^(\\d+) of 12 cells finished;", QRegularExpression::MultilineOption).match(QString::fromUtf8(s.out));
            finished = total.hasMatch() ? total.captured(1).toInt() : 0;
            if (finished >= 1)
                break;
        }
        if (p.state() == QProcess::Running) {
            ::kill(pid_t(p.processId()), SIGKILL);
            p.waitForFinished();
        } else {
            // Too fast a machine to kill it mid-way by polling: the shard is run again from
            // nothing and kills itself (SIGKILL) once 3 cells are committed, so the restart path
            // below runs all the same.
            p.waitForFinished();
            for (const char* suffix : { "", "-wal", "-shm" })
                QFile::remove(shard + suffix);
            QProcess q;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("SCHEDLAB_FAULT_KILL_AFTER_CELLS", "3");
            q.setProcessEnvironment(env);
            q.start(QStringLiteral(SCHEDLAB_CLI), { "sweep", "run", plan, "--shard", "0", "--project", shard });
            QVERIFY(q.waitForFinished(120000));
            QCOMPARE(q.exitStatus(), QProcess::CrashExit);
            const Run s = cli({ "sweep", "status", plan, shard });
            QVERIFY2(s.out.contains("3 of 12 cells finished"), s.out.constData());
            finished = 3;
        }
        QVERIFY(finished >= 1 && finished < 12);
        r = cli({ "sweep", "run", plan, "--shard", "0", "--project", shard });
        QVERIFY2(r.code == 0, r.err.constData());
        // "shard 0 of sweep X into F: R cells run, S done before (skipped), 0 failed": the cells
        // finished before the kill (at least those seen) are not run again.
        const QRegularExpressionMatch m = QRegularExpression("(\\d+) cells run, (\\d+) done before").match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), r.out.constData());
        const int ran = m.captured(1).toInt(), skipped = m.captured(2).toInt();
        QVERIFY2(skipped >= finished && skipped < 12 && ran + skipped == 12, r.out.constData());
        // A merge killed mid-way (SIGKILL soon after it starts) leaves nothing half-copied: its
        // shard file goes in one transaction. The next merge brings every cell in once.
        QProcess merging;
        merging.start(QStringLiteral(SCHEDLAB_CLI), { "sweep", "merge", plan, shard, "--project", merged });
        QVERIFY(merging.waitForStarted());
        QTest::qWait(40);
        if (merging.state() == QProcess::Running)
            ::kill(pid_t(merging.processId()), SIGKILL);
        merging.waitForFinished();
        r = cli({ "sweep", "merge", plan, shard, "--project", merged });
        QVERIFY2(r.code == 0 && (r.out.contains("12 cells merged now, 0 before") || r.out.contains("0 cells merged now, 12 before")),
            r.out.constData());
        // The killed cell's run row is in the shard as failed; the merge took finished ones only.
        r = cli({ "runs", "--project", merged, "--json" });
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["runs"].toArray();
        QCOMPARE(runs.size(), 12);
        for (const QJsonValue& v : runs)
            QCOMPARE(v.toObject()["status"].toString(), QString("finished"));
    }

    // After a node failure: the cells no shard file holds, whichever shard they were, run in one
    // process into S.sweep.shard-missing.schedlab, which status and merge then take with the rest.
    void onlyMissingRunsTheLeftovers()
    {
        const QString plan = m_dir.filePath("m.sweep");
        Run r = cli({ "sweep", "plan", sample(), "--mode", "timed", "--policy", "firstfit,bestfit", "--seeds", "1-3", "--shards", "3", "--out", plan });
        QVERIFY2(r.code == 0, r.err.constData());
        for (const char* shard : { "0", "2" })
            QCOMPARE(cli({ "sweep", "run", plan, "--shard", shard }).code, 0);
        r = cli({ "sweep", "status", plan });
        QVERIFY2(r.out.contains("4 of 6 cells finished"), r.out.constData());
        r = cli({ "sweep", "run", plan, "--only-missing" });
        QVERIFY2(r.code == 0 && r.out.contains("2 cells run, 0 done before"), r.out.constData() + r.err);
        r = cli({ "sweep", "run", plan, "--only-missing" }); // again: nothing left
        QVERIFY2(r.code == 0 && r.out.contains("0 cells run"), r.out.constData());
        r = cli({ "sweep", "status", plan });
        QVERIFY2(r.out.contains("6 of 6 cells finished") && r.out.contains("shard 1: 2 of 2"), r.out.constData());
        const QString merged = m_dir.filePath("m.schedlab");
        r = cli({ "sweep", "merge", plan, plan + ".shard-0.schedlab", plan + ".shard-2.schedlab", plan + ".shard-missing.schedlab", "--project",
            merged });
        QVERIFY2(r.code == 0 && r.out.contains("6 cells merged now, 0 before; 0 of 6 cells missing"), r.out.constData());
        QCOMPARE(cli({ "sweep", "run", plan, "--only-missing", "--shard", "1" }).code, 2);
    }

    void emitNamesThePlan()
    {
        const QString plan = m_dir.filePath("e.sweep");
        QVERIFY(cli({ "sweep", "plan", sample(), "--mode", "timed", "--policy", "firstfit", "--seeds", "1-8", "--shards", "8", "--out", plan })
                    .code
            == 0);
        Run r = cli({ "sweep", "emit", "slurm", plan, "--parallel", "3", "--mem", "2G" });
        QVERIFY2(r.code == 0 && r.out.contains("--array=0-7%3") && r.out.contains("--mem=2G") && r.out.contains("afterok"), r.out.constData());
        r = cli({ "sweep", "emit", "k8s", plan, "--image", "registry.local/schedlab:1" });
        QVERIFY2(r.code == 0 && r.out.contains("completionMode: Indexed") && r.out.contains("completions: 8")
                && r.out.contains("image: \"registry.local/schedlab:1\""),
            r.out.constData());
        r = cli({ "sweep", "emit", "nomad", plan });
        QCOMPARE(r.code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
