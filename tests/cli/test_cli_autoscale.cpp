// `schedlab-cli autoscale` as a user runs it: options checked before any work, a small per-second
// load replayed under the HPA and a static policy (JSON figures that agree with each other), its
// incidents, a fork at the burst, and a bad file named with its line.

#include "cli_run.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 120000); }
} // namespace

class TestCliAutoscale : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_load;

private slots:
    void initTestCase()
    {
        // 20 minutes: 10 at 1 req/s, then 10 at 30 req/s (per-second counts).
        QByteArray text;
        for (int s = 0; s < 1200; ++s)
            text += s < 600 ? "1 " : "30 ";
        m_load = m_dir.filePath("burst.txt");
        QFile f(m_load);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
    }

    void checksOptionsFirst()
    {
        Run r = cli({ "autoscale", m_load, "--policy", "hpa,vpa" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("unknown replica policy 'vpa'"), r.err.constData());
        r = cli({ "autoscale", m_load, "--fork-at", "10m" });
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--fork-at T and --fork-policy P"));
        r = cli({ "autoscale", m_dir.filePath("missing.txt") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("missing.txt"));
    }

    void replaysToJson()
    {
        const Run r = cli({ "autoscale", m_load, "--policy", "hpa,static:1", "--json", "--incidents" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["schema"].toString(), QString("schedlab.autoscale/1"));
        QCOMPARE(o["steps"].toInt(), 1200);
        const QJsonArray runs = o["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        for (const QJsonValue& v : runs) {
            const QJsonObject run = v.toObject();
            QCOMPARE(run["requests"].toDouble(), 600.0 + 600.0 * 30);
            QCOMPARE(run["minutes"].toInt(), 20);
            QVERIFY(std::abs(run["cost"].toDouble() - run["replicaHours"].toDouble() * 0.10) < 1e-9);
        }
        // One replica at mu = 10 req/s cannot take 30 req/s: the backlog grows 20 a second.
        const QJsonObject one = runs[1].toObject();
        QCOMPARE(one["policy"].toString(), QString("static:1"));
        QCOMPARE(one["maxBacklog"].toDouble(), 20.0 * 600);
        QCOMPARE(one["sloViolationMinutes"].toInt(), 10);
        QCOMPARE(one["incidents"].toArray()[0].toObject()["fromS"].toDouble(), 600.0);
        // The HPA scales up and misses fewer minutes.
        QVERIFY(runs[0].toObject()["sloViolationMinutes"].toInt() < 10);
        QVERIFY(runs[0].toObject()["maxReplicas"].toInt() >= 5);
    }

    void forksAtTheBurst()
    {
        const Run r = cli({ "autoscale", m_load, "--policy", "static:1", "--fork-at", "600", "--fork-policy", "static:8",
            "--fork-window", "10m" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("from 600 s for 600 s"), r.out.constData());
        // static:1 over the window: 10 replica-minutes, 10 SLO minutes; switched: 8 replicas for 10 min.
        QVERIFY2(r.out.contains("static:1 ") && r.out.contains("0.17") && r.out.contains("static:1 -> static:8 at 600 s"), r.out.constData());
        QVERIFY2(r.out.contains("1.33"), r.out.constData()); // 8 x 10 min = 1.333 replica-hours
    }

    void badFileNamesItsLine()
    {
        const QString bad = m_dir.filePath("bad.csv");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("timestamp,value\n2014-04-10 00:04:00,94.0\n2014-04-10 00:09:00,-5\n");
        f.close();
        const Run r = cli({ "autoscale", bad });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("bad.csv:3: value: '-5' is not a non-negative number"), r.err.constData());
    }

    void storesRunsInAProject()
    {
        const QString project = m_dir.filePath("runs.schedlab");
        Run r = cli({ "autoscale", m_load, "--policy", "hpa,static:1", "--project", project, "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray runs = QJsonDocument::fromJson(r.out).object()["runs"].toArray();
        QCOMPARE(runs[0].toObject()["storedAs"].toInt(), 1);
        QCOMPARE(runs[1].toObject()["storedAs"].toInt(), 2);
        // Listed back with the same figures, the absolute load path and the window.
        r = cli({ "autoscale", "--project", project, "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["schema"].toString(), QString("schedlab.autoscale-runs/1"));
        const QJsonArray stored = o["runs"].toArray();
        QCOMPARE(stored.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject s = stored[i].toObject(), run = runs[i].toObject();
            QCOMPARE(s["policy"].toString(), run["policy"].toString());
            QCOMPARE(s["load"].toString(), QFileInfo(m_load).absoluteFilePath());
            QCOMPARE(s["service"].toString(), QString("(defaults)"));
            for (const char* key : { "replicaHours", "sloViolationMinutes", "scalingActions", "burstLags" })
                QCOMPARE(s["summary"].toObject()[key].toDouble(), run[key].toDouble());
        }
        r = cli({ "autoscale", "--project", project });
        QVERIFY2(r.code == 0 && r.out.contains("2 autoscaling runs in"), r.out.constData());
        // A fork is not stored; a project that cannot be opened fails before any work.
        r = cli({ "autoscale", m_load, "--project", project, "--fork-at", "10m", "--fork-policy", "static:8" });
        QCOMPARE(r.code, 2);
        r = cli({ "autoscale", m_load, "--project", m_dir.filePath("missing/dir/p.schedlab") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("p.schedlab"), r.err.constData());
    }

    void trainsAndUsesALearnedScaler()
    {
        // Options checked before any work (and before libtorch loads).
        Run r = cli({ "train", "--mode", "autoscale", m_load, "--out", m_dir.filePath("s.slq"), "--weights", "speed=1" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("unknown key 'speed'"), r.err.constData());
        r = cli({ "train", "--mode", "autoscale", m_load, "--out", m_dir.filePath("s.slq"), "--baselines", "hpa,vpa" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("unknown replica policy 'vpa'"), r.err.constData());
        // Train on the first 10 minutes (1 req/s), evaluated on the burst after them.
        const QString out = m_dir.filePath("scaler.slq");
        r = cli({ "train", "--mode", "autoscale", m_load, "--out", out, "--window", "10m", "--episodes", "2", "--baselines", "hpa,static:1",
            "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["schema"].toString(), QString("schedlab.train-autoscale/1"));
        QCOMPARE(o["trainToS"].toDouble(), 600.0);
        QCOMPARE(o["evalFromS"].toDouble(), 600.0);
        QCOMPARE(o["episodes"].toArray().size(), 2);
        QCOMPARE(o["episodes"].toArray()[0].toObject()["decisions"].toInt(), 600 / 15 - 2);
        const QJsonArray eval = o["evaluation"].toArray();
        QCOMPARE(eval.size(), 3);
        QCOMPARE(eval[0].toObject()["policy"].toString(), QString("learned:scaler.slq"));
        QCOMPARE(eval[2].toObject()["policy"].toString(), QString("static:1"));
        QCOMPARE(eval[2].toObject()["steps"].toInt(), 600);
        QVERIFY(QFile::exists(out));
        // The checkpoint as a policy of `autoscale`, next to the HPA.
        r = cli({ "autoscale", m_load, "--policy", "learned:" + out + ",hpa", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["runs"].toArray()[0].toObject()["steps"].toInt(), 1200);
        r = cli({ "autoscale", m_load, "--policy", "learned:" + m_dir.filePath("missing.slq") });
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("missing.slq"), r.err.constData());
    }

    void roundsInAProject()
    {
        // Two rounds on the first 10 minutes, judged on the burst after them, stored with their
        // lineage; a third continues round 2 by number; a placement parent is refused by kind.
        const QString project = m_dir.filePath("rounds.schedlab");
        Run r = cli({ "train", "--mode", "autoscale", m_load, "--project", project, "--rounds", "2", "--window", "10m", "--episodes", "1",
            "--baselines", "hpa", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["rounds"].toArray().size(), 2);
        QCOMPARE(o["round"].toInt(), 2); // the top level is the last round
        QVERIFY(o["checkpoint"].toString().endsWith("rounds.schedlab.models/round-2.slq"));
        QCOMPARE(o["evaluation"].toArray()[0].toObject()["policy"].toString(), QString("learned:round-2.slq"));
        r = cli({ "train", "--mode", "autoscale", m_load, "--project", project, "--parent", "2", "--window", "10m", "--episodes", "1",
            "--baselines", "hpa" });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "rounds", "--project", project, "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray rounds = QJsonDocument::fromJson(r.out).object()["rounds"].toArray();
        QCOMPARE(rounds.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(rounds[i].toObject()["mode"].toString(), QString("autoscale"));
            QCOMPARE(rounds[i].toObject()["parent"].toInt(), i == 0 ? -1 : i); // 1 <- 2 <- 3
            QVERIFY(rounds[i].toObject()["eval"].toObject()["hpa"].toObject().contains("replicaHours#0"));
        }
        r = cli({ "train", "--mode", "autoscale", m_load, "--project", project, "--parent", "9", "--window", "10m" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no round 9"), r.err.constData());
        // Nothing left to judge a round on: refused before any work.
        r = cli({ "train", "--mode", "autoscale", m_load, "--project", project });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("nothing is left to evaluate on"), r.err.constData());
    }

    void loggedReplicasPerApp()
    {
        // Two apps: app_a 1 replica, 2 from 60 s, 1 from 420 s (log end 600 s); app_b 1 from 0.
        const QString log = m_dir.filePath("dlrm.csv");
        QFile f(log);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("instance_sn,role,app_name,creation_time,scheduled_time,deletion_time\n"
                "i0,CN,app_a,,,\ni1,HN,app_a,60,61,420\ni2,CN,app_b,,,600\n");
        f.close();
        // Checked before work: an app is needed; logged needs an instance log; an unknown app is named.
        Run r = cli({ "autoscale", log });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("choose --app"), r.err.constData());
        r = cli({ "autoscale", m_load, "--policy", "logged" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("needs an instance log"), r.err.constData());
        r = cli({ "autoscale", log, "--app", "app_z" });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("--app app_z: not in dlrm.csv (2 apps"), r.err.constData());
        r = cli({ "autoscale", log, "--app", "app_a", "--role", "GPU" });
        QVERIFY2(r.code == 1 && r.err.contains("the log has roles CN, HN"), r.err.constData());

        // One app: (1 x 60 + 2 x 360 + 1 x 180) s = 960 s = 0.2667 replica-hours as logged.
        r = cli({ "autoscale", log, "--app", "app_a", "--policy", "logged,hpa", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["load"].toString(), QString("app_a"));
        QVERIFY(o["loadSource"].toString().contains("logged instances"));
        const QJsonArray runs = o["runs"].toArray();
        QCOMPARE(runs[0].toObject()["policy"].toString(), QString("logged"));
        QCOMPARE(runs[0].toObject()["replicaHours"].toDouble(), 960.0 / 3600);
        QCOMPARE(runs[0].toObject()["scalingActions"].toInt(), 2);
        QCOMPARE(runs[1].toObject()["policy"].toString(), QString("hpa"));

        // Every app, GPU-node instances only: app_a's one HN instance, app_b none.
        r = cli({ "autoscale", log, "--app", "all", "--role", "HN", "--policy", "logged,static:1", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["schema"].toString(), QString("schedlab.autoscale-apps/1"));
        QCOMPARE(o["role"].toString(), QString("HN"));
        const QJsonArray apps = o["apps"].toArray();
        QCOMPARE(apps.size(), 2);
        QCOMPARE(apps[0].toObject()["app"].toString(), QString("app_a/HN"));
        QCOMPARE(apps[0].toObject()["loggedReplicaHours"].toDouble(), 360.0 / 3600);
        QCOMPARE(apps[1].toObject()["instances"].toInt(), 0);
        const QJsonArray totals = o["totals"].toArray();
        QCOMPARE(totals[0].toObject()["replicaHours"].toDouble(), 360.0 / 3600);
        QCOMPARE(totals[1].toObject()["replicaHours"].toDouble(), 2 * 600.0 / 3600); // static:1, both apps
        // The table.
        r = cli({ "autoscale", log, "--app", "all" });
        QVERIFY2(r.code == 0 && r.out.contains("2 apps, 3 instances") && r.out.contains("total"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliAutoscale)
#include "test_cli_autoscale.moc"
