// schedlab-cli killed with SIGKILL in the middle of a training round or a replay: `rounds` and
// `runs` (read-only listings) show it as interrupted, in text and in --json, and leave the project
// file as it was; the next writer marks it failed. Listings never migrate an older project.

#include "cli_run.h"
#include "test_util.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QtTest>

using schedlab::test::runCli;

namespace {
/// The project file and its write-ahead log.
QByteArray digest(const QString& project) { return schedlab::test::projectDigest(project.toStdString()); }

/// The rows (`key`: "rounds" or "runs") of `command --project P --json`.
QJsonArray listed(const QString& command, const QString& project, const QString& key)
{
    const auto r = runCli({ command, "--project", project, "--json" });
    return r.code == 0 ? QJsonDocument::fromJson(r.out).object()[key].toArray() : QJsonArray();
}

/// Starts `args`, waits until the listing shows its row running, then kills it with SIGKILL.
bool killWhileRunning(const QStringList& args, const QString& command, const QString& project, const QString& key)
{
    QProcess p;
    p.start(QStringLiteral(SCHEDLAB_CLI), args);
    if (!p.waitForStarted())
        return false;
    bool running = false;
    for (int i = 0; i < 1200 && !running && p.state() == QProcess::Running; ++i) {
        QThread::msleep(25);
        const QJsonArray rows = listed(command, project, key);
        running = !rows.isEmpty() && rows.last().toObject()["status"].toString() == "running";
    }
    p.kill(); // SIGKILL
    p.waitForFinished();
    return running;
}
} // namespace

class TestCliInterrupted : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void killedTrainingRoundIsListedInterrupted()
    {
        const QString trace = m_dir.filePath("train.sltrace");
        QCOMPARE(runCli({ "generate", "--nodes", "48", "--jobs", "3000", "--seed", "4", "--out", trace }).code, 0);
        const QString project = m_dir.filePath("train.schedlab");
        QVERIFY(killWhileRunning({ "train", trace, "--mode", "fill", "--episodes", "200", "--project", project }, "rounds", project, "rounds"));
        const QByteArray before = digest(project);
        const auto text = runCli({ "rounds", "--project", project });
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("interrupted") && !text.out.contains(" running "), text.out.constData());
        const QJsonArray rounds = listed("rounds", project, "rounds");
        QCOMPARE(rounds.size(), 1);
        QCOMPARE(rounds[0].toObject()["status"].toString(), QString("interrupted"));
        QVERIFY(rounds[0].toObject()["error"].toString().contains("interrupted (the process training it stopped"));
        QCOMPARE(digest(project), before); // listing wrote nothing
        // The next writer marks it failed for good.
        QCOMPARE(runCli({ "train", trace, "--mode", "fill", "--episodes", "1", "--pods", "50", "--eval-seeds", "42", "--baselines",
                            "bestfit", "--project", project })
                     .code,
            0);
        const QJsonArray after = listed("rounds", project, "rounds");
        QCOMPARE(after.size(), 2);
        QCOMPARE(after[0].toObject()["status"].toString(), QString("failed"));
        QCOMPARE(after[1].toObject()["status"].toString(), QString("finished"));
    }

    void killedReplayIsListedInterrupted()
    {
        const QString trace = m_dir.filePath("big.sltrace");
        QCOMPARE(runCli({ "generate", "--nodes", "2000", "--jobs", "20000", "--seed", "4", "--out", trace }).code, 0);
        const QString project = m_dir.filePath("replay.schedlab");
        QVERIFY(killWhileRunning({ "replay", trace, "--mode", "fill", "--policy", "fgd", "--seeds", "1", "--jobs", "1", "--project", project },
            "runs", project, "runs"));
        const QByteArray before = digest(project);
        const QJsonArray runs = listed("runs", project, "runs");
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()["status"].toString(), QString("interrupted"));
        const auto text = runCli({ "runs", "--project", project });
        QVERIFY2(text.out.contains("interrupted"), text.out.constData());
        QCOMPARE(digest(project), before);
    }

    // The listings read a project of an older schedlab as it is: not migrated, not written.
    void listingsDoNotMigrateOlderProjects()
    {
        const QString trace = m_dir.filePath("small.sltrace");
        QCOMPARE(runCli({ "generate", "--nodes", "8", "--jobs", "200", "--seed", "4", "--out", trace }).code, 0);
        const QString project = m_dir.filePath("older.schedlab");
        QCOMPARE(runCli({ "replay", trace, "--mode", "fill", "--policy", "bestfit", "--seeds", "1", "--project", project }).code, 0);
        const QString sql = QString("import sqlite3; c=sqlite3.connect('%1'); c.execute('alter table runs drop column pid_start'); "
                                    "c.execute('alter table rounds drop column pid_start'); "
                                    "c.execute(\"update meta set value='12' where key='schema_version'\"); c.commit()")
                                .arg(project);
        QCOMPARE(QProcess::execute("python3", { "-c", sql }), 0);
        QCOMPARE(runCli({ "runs", "--project", project }).code, 0); // the first reader after python's write
        const QByteArray before = digest(project);
        const QJsonArray runs = listed("runs", project, "runs");
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()["status"].toString(), QString("finished"));
        QCOMPARE(runCli({ "rounds", "--project", project }).code, 0);
        QCOMPARE(runCli({ "decisions", "--project", project, "--run", "1", "--list", "--limit", "5" }).code, 0);
        QCOMPARE(digest(project), before);
    }
};

QTEST_GUILESS_MAIN(TestCliInterrupted)
#include "test_cli_interrupted.moc"
