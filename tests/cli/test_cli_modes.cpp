// `schedlab-cli replay` without --mode: the mode "auto" picks (and says why), the default replay
// window of a long timed trace (the busiest stretch, said on stderr) and --from/--to.

#include "cli_run.h"
#include "test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using schedlab::test::dataPath;

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 120000); }
QString data(const char* rel) { return QString::fromStdString(dataPath(rel)); }

// One 8-processor machine over 10 days: a 1-proc hour at 0, a 4-proc hour at day 5 and a 1-proc
// day from day 9. The busiest day (the default window of a 10-day span) is the last one.
QString tenDaySwf(const QTemporaryDir& dir)
{
    const QString path = dir.filePath("ten-days.swf");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write("; MaxProcs: 8\n"
            "    1      0  0  3600  1 -1 -1 1  3600 -1 1 1 1 -1 -1 -1 -1 -1\n"
            "    2 432000  0  3600  4 -1 -1 4  3600 -1 1 1 1 -1 -1 -1 -1 -1\n"
            "    3 777600  0 86400  1 -1 -1 1 86400 -1 1 1 1 -1 -1 -1 -1 -1\n");
    return path;
}
} // namespace

class TestCliModes : public QObject {
    Q_OBJECT
private slots:
    void autoPicksFillForALightGpuPodList()
    {
        // tiny openb: 10 GPUs, the pods' arrivals ask for at most half a GPU at once.
        Run r = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--policy", "bestfit" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("auto mode: fill experiment: arrivals ask for at most 5.0 % of the cluster's GPUs"), r.err);
        QVERIFY2(r.out.startsWith("fill experiment:"), r.out);
        // An explicit mode is obeyed and nothing is said about auto.
        r = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--policy", "bestfit", "--mode", "timed" });
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.err.contains("auto mode"), r.err);
        QVERIFY2(r.out.startsWith("timed replay:"), r.out);
    }

    void autoTimedReplaysTheBusiestStretch()
    {
        QTemporaryDir dir;
        const QString swf = tenDaySwf(dir);
        Run r = cli({ "replay", swf, "--policy", "firstfit" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("auto mode: timed replay: the workload asks for no GPUs"), r.err);
        // 512 bins of 1687.5 s; a day is 51 bins; the first window fully inside the last day starts
        // at bin 461 (216.09 h), rounded down to 216 h; it runs to the end (240 h).
        QVERIFY2(r.err.contains("replaying the busiest 1d of the trace: --from 9d --to 10d"), r.err);
        QVERIFY2(r.out.contains("1 of 3 jobs (submitted in the window)"), r.out);

        r = cli({ "replay", swf, "--policy", "firstfit", "--from", "0" });
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.err.contains("busiest"), r.err);
        QVERIFY2(r.out.contains("3 of 3 jobs"), r.out);

        // --from/--to: job 2 only (submitted at 120 h), and the window in the JSON.
        r = cli({ "replay", swf, "--policy", "firstfit", "--from", "100h", "--to", "200h", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out).object().value("runs").toArray().at(0).toObject();
        QCOMPARE(run.value("completed").toInt(), 1);
        QCOMPARE(run.value("outsideWindow").toInt(), 2);
        QCOMPARE(run.value("window").toObject().value("fromS").toDouble(), 360000.0);
        QCOMPARE(run.value("window").toObject().value("toS").toDouble(), 720000.0);

        // A window that ends before it starts, or a fill run with one, is refused before any work.
        r = cli({ "replay", swf, "--policy", "firstfit", "--from", "5d", "--to", "2d" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--to must be after --from"), r.err);
        r = cli({ "replay", data("tiny/nodes.csv"), data("tiny/pods.csv"), "--policy", "bestfit", "--mode", "fill", "--from", "2h" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("the fill experiment replays the whole pod list"), r.err);
    }

    void trainSkipsAndItsCheckpointReplaysSo()
    {
        // A teacher round with the skip action, then a DQN round validated on the training window
        // (the trace ends inside it: evaluation and replay see the same whole trace).
        QTemporaryDir dir;
        const QString trace = dir.filePath("g.sltrace"), project = dir.filePath("s.schedlab");
        QCOMPARE(cli({ "generate", "--nodes", "12", "--jobs", "400", "--seed", "11", "--out", trace }).code, 0);
        Run t = cli({ "train", trace, "--mode", "timed", "--episodes", "2", "--window", "1000h", "--teacher", "bestfit",
            "--skip-action", "--rounds", "1", "--validate", "7", "--baselines", "bestfit", "--project", project, "--json" });
        QVERIFY2(t.code == 0, t.err.constData());
        const QJsonArray rounds = QJsonDocument::fromJson(t.out).object()["rounds"].toArray();
        QCOMPARE(rounds.size(), 2);
        const QJsonObject teacher = rounds[0].toObject(), dqn = rounds[1].toObject();
        // The DQN round validated its episodes (p99 waits, the start included) and kept one.
        QVERIFY(dqn.contains("keptEpisode") && dqn["startValidation"].toDouble() >= 0);
        QVERIFY(!teacher.contains("keptEpisode"));
        // The checkpoint keeps the skip: a replay of it skips as the evaluation did.
        const Run replayed = cli({ "replay", trace, "--mode", "timed", "--backfill", "easy", "--policy",
            "learned:" + teacher["checkpoint"].toString(), "--json" });
        QVERIFY2(replayed.code == 0, replayed.err.constData());
        const double p99 = QJsonDocument::fromJson(replayed.out).object()["runs"].toArray()[0].toObject()["waitS"].toObject()["p99"].toDouble();
        QCOMPARE(p99, teacher["eval"].toObject()["learned"].toObject()["waitP99S"].toDouble());
        // The lineage says so.
        const Run listed = cli({ "rounds", "--project", project, "--json" });
        QCOMPARE(listed.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(listed.out).object()["rounds"].toArray();
        QCOMPARE(rows.size(), 2);
        const QString window = rows[0].toObject()["window"].toString();
        QVERIFY2(window.contains("skips up to 16 jobs a pass (the teacher: while a shorter one waits behind)"), qPrintable(window));
        QVERIFY2(rows[1].toObject()["window"].toString().contains("skips up to 16 jobs a pass"), qPrintable(rows[1].toObject()["window"].toString()));
    }

    void trainMakesRoomWithinBudgets()
    {
        // Making room and budgets belong to timed training; bad ones are refused before any work.
        QTemporaryDir dir;
        const QString trace = dir.filePath("g.sltrace"), project = dir.filePath("b.schedlab");
        QCOMPARE(cli({ "generate", "--nodes", "12", "--jobs", "400", "--seed", "11", "--out", trace }).code, 0);
        Run bad = cli({ "train", trace, "--mode", "timed", "--budget", "speed=3", "--project", project });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("unknown key 'speed'"), bad.err);
        bad = cli({ "train", trace, "--mode", "fill", "--migration", "defragment", "--project", project });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("belong to --mode timed"), bad.err);
        QCOMPARE(cli({ "train", trace, "--mode", "timed", "--preemption", "always", "--project", project }).code, 2);
        QVERIFY(!QFile::exists(project)); // nothing was created
        // A round with both, under budgets: each episode's constraints, the evaluation's values,
        // and the same over-budget verdict from `train` and from `rounds`.
        Run t = cli({ "train", trace, "--mode", "timed", "--episodes", "2", "--window", "1000h", "--migration", "defragment",
            "--preemption", "priority", "--budget", "sla=0,migrations=0,evictions=0", "--baselines", "bestfit", "--project", project,
            "--json" });
        QVERIFY2(t.code == 0, t.err.constData());
        const QJsonObject round = QJsonDocument::fromJson(t.out).object()["rounds"].toArray()[0].toObject();
        const QJsonArray eps = round["episodes"].toArray();
        QCOMPARE(eps.size(), 2);
        const QJsonObject c1 = eps[0].toObject()["constraints"].toObject(), c2 = eps[1].toObject()["constraints"].toObject();
        for (const char* k : { "sla", "migrations", "evictions" }) {
            QCOMPARE(c1[k].toObject()["multiplier"].toDouble(), 0.0);
            QCOMPARE(c1[k].toObject()["budget"].toDouble(), 0.0);
            // budget 0: the step is rate 0.5 x the value (normalised by max(budget, 1) = 1)
            QCOMPARE(c2[k].toObject()["multiplier"].toDouble(), 0.5 * c1[k].toObject()["value"].toDouble());
        }
        const QJsonObject learned = round["eval"].toObject()["learned"].toObject();
        for (const char* m : { "slaViolationPct", "migrationsPerHour", "evictionsPerHour", "gpuBlockedWithRoom" })
            QVERIFY2(learned.contains(m) && round["eval"].toObject()["bestfit"].toObject().contains(m), m);
        // The trace ends inside the training window, so the evaluation replays it whole: the
        // baseline's GPU jobs blocked with room are those of a replay with the same room options.
        const Run replayed = cli({ "replay", trace, "--mode", "timed", "--backfill", "easy", "--migration", "defragment",
            "--preemption", "priority", "--policy", "bestfit", "--json" });
        QCOMPARE(replayed.code, 0);
        const double blocked = QJsonDocument::fromJson(replayed.out).object()["runs"].toArray()[0].toObject()["gpuBlockedWithRoom"].toDouble();
        QVERIFY(blocked > 0);
        QCOMPARE(round["eval"].toObject()["bestfit"].toObject()["gpuBlockedWithRoom"].toDouble(), blocked);
        QStringList expected;
        if (learned["slaViolationPct"].toDouble() > 0)
            expected << "sla";
        if (learned["migrationsPerHour"].toDouble() > 0)
            expected << "migrations";
        if (learned["evictionsPerHour"].toDouble() > 0)
            expected << "evictions";
        QStringList over;
        for (const QJsonValue& v : round["overBudget"].toArray())
            over << v.toString().section(' ', 0, 0);
        QCOMPARE(over, expected);
        const QJsonArray listed = QJsonDocument::fromJson(cli({ "rounds", "--project", project, "--json" }).out).object()["rounds"].toArray();
        QCOMPARE(listed[0].toObject()["overBudget"].toArray(), round["overBudget"].toArray());
    }
};

QTEST_GUILESS_MAIN(TestCliModes)
#include "test_cli_modes.moc"
