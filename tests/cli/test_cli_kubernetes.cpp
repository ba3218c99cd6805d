// `schedlab-cli` on what a Kubernetes cluster logs: a generated 500-node cluster with the
// verbosity-10 kube-scheduler log of its scheduling (generate --kube-scheduler-log), replayed as
// logged into a project; decision K shows the scheduler's per-plugin scores next to ours, and
// k8s-default re-scoring the logged states agrees with every logged choice that was no tie. The
// year of klog lines travels with the project (--log-year given once, at the replay).

#include "cli_run.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Run = schedlab::test::CliRun;
Run cli(const QStringList& args) { return schedlab::test::runCli(args, 300000); }
} // namespace

class TestCliKubernetes : public QObject {
    Q_OBJECT
private slots:
    void generatedSchedulerLogReplaysAndAgrees()
    {
        QTemporaryDir dir;
        const QString cluster = dir.filePath("cluster"), project = dir.filePath("k8s.schedlab");
        Run r = cli({ "generate", "--kube-scheduler-log", cluster, "--nodes", "500", "--jobs", "900", "--seed", "4", "--load", "1.5" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("500 nodes") && r.out.contains("--log-year 2023"), r.out.constData());
        QVERIFY(QFile::exists(cluster + "/kube-scheduler.log"));
        r = cli({ "replay", cluster, "--log-year", "2023", "--mode", "timed", "--policy", "logged", "--from", "0", "--project", project });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("every logged decision was reproduced"), r.out.constData());

        // Agreement: every logged candidate score equals k8s-default's, and every untied choice.
        r = cli({ "decisions", "--project", project, "--run", "1", "--agreement", "k8s-default", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject a = QJsonDocument::fromJson(r.out).object();
        const double placed = a["placedWithScores"].toDouble(), ties = a["ties"].toDouble();
        QVERIFY2(placed > 800 && ties < placed, r.out.constData());
        QCOMPARE(a["agreed"].toDouble(), placed - ties);
        QCOMPARE(a["disagreed"].toDouble(), 0.0);
        QCOMPARE(a["agreementPct"].toDouble(), 100.0);
        QVERIFY(a["scoresCompared"].toDouble() > 10 * placed);
        QCOMPARE(a["scoresEqual"].toDouble(), a["scoresCompared"].toDouble());

        // Decision K: the scheduler's candidates with their per-plugin scores, the logged choice
        // first among them unless tied, and our re-scoring beside them. Times are the year given
        // at the replay (stored with the trace): within the run, not years away.
        r = cli({ "decisions", "--project", project, "--run", "1", "--index", "600", "--rescore", "k8s-default", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        const QJsonObject logged = d["logged"].toObject();
        QCOMPARE(logged["source"].toString(), QStringLiteral("kube-scheduler log"));
        QCOMPARE(logged["outcome"].toString(), QStringLiteral("placed"));
        QCOMPARE(logged["node"].toInt(), d["node"].toInt());
        QCOMPARE(logged["evaluatedNodes"].toInt(), 500);
        QVERIFY(std::abs(logged["time"].toDouble() - d["time"].toDouble()) < 1e-3);
        const QJsonArray candidates = logged["candidates"].toArray();
        QCOMPARE(candidates.size(), logged["feasibleNodes"].toInt());
        const QJsonObject best = candidates[0].toObject();
        const QJsonObject terms = best["terms"].toObject();
        QVERIFY(terms.contains("NodeResourcesFit") && terms.contains("NodeResourcesBalancedAllocation"));
        QCOMPARE(terms["NodeResourcesFit"].toDouble() + terms["NodeResourcesBalancedAllocation"].toDouble(), best["score"].toDouble());
        const QJsonObject ours = d["rescored"].toArray()[0].toObject();
        QCOMPARE(ours["candidates"].toArray()[0].toObject()["score"].toDouble(), best["score"].toDouble());
        if (!logged["tie"].toBool())
            QCOMPARE(ours["choice"].toInt(), logged["node"].toInt());
    }

    // A kube-scheduler configured with MostAllocated (cpu weighted 2, memory 1) and NodeResourcesFit
    // weighted 3: k8s-default under the same KubeSchedulerConfiguration agrees with every untied
    // logged choice and score; without it, it does not.
    void schedulerConfigurationIsHonoured()
    {
        QTemporaryDir dir;
        const QString cluster = dir.filePath("cluster"), config = dir.filePath("sched.yaml"), project = dir.filePath("c.schedlab");
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 100\n"
                "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n"
                "        weight: 3\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n"
                "        resources:\n        - name: cpu\n          weight: 2\n        - name: memory\n          weight: 1\n");
        f.close();
        Run r = cli({ "generate", "--kube-scheduler-log", cluster, "--nodes", "60", "--jobs", "200", "--seed", "3", "--scheduler-config", config });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "replay", cluster, "--log-year", "2023", "--mode", "timed", "--policy", "logged", "--from", "0", "--project", project,
            "--scheduler-config", config });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("NodeResourcesFit MostAllocated (cpu 2, memory 1) x3"), r.err.constData());
        // The run keeps the configuration: the agreement uses it without being told again.
        r = cli({ "decisions", "--project", project, "--run", "1", "--agreement", "k8s-default", "--json" });
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject a = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(a["placedWithScores"].toDouble() > 150, r.out.constData());
        QCOMPARE(a["agreementPct"].toDouble(), 100.0);
        QCOMPARE(a["scoresEqual"].toDouble(), a["scoresCompared"].toDouble());
        // The same log re-scored by the built-in k8s-default (LeastAllocated): scores differ.
        const QString plain = dir.filePath("plain.schedlab");
        r = cli({ "replay", cluster, "--log-year", "2023", "--mode", "timed", "--policy", "logged", "--from", "0", "--project", plain });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "decisions", "--project", plain, "--run", "1", "--agreement", "k8s-default", "--json" });
        a = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(a["scoresEqual"].toDouble() < 0.5 * a["scoresCompared"].toDouble(), r.out.constData());
        QVERIFY2(a["disagreed"].toDouble() > 0, r.out.constData());
        // ...and with --scheduler-config given at the question, they agree again.
        r = cli({ "decisions", "--project", plain, "--run", "1", "--agreement", "k8s-default", "--scheduler-config", config, "--json" });
        QCOMPARE(QJsonDocument::fromJson(r.out).object()["agreementPct"].toDouble(), 100.0);
    }

    // The scheduler's log converted to a decision log and back: replayed and compared the same.
    void decisionLogConvertsBothWays()
    {
        QTemporaryDir dir;
        const QString cluster = dir.filePath("cluster"), jsonl = dir.filePath("decisions.jsonl"),
                      native = dir.filePath("decisions.sltrace");
        Run r = cli({ "generate", "--kube-scheduler-log", cluster, "--nodes", "60", "--jobs", "250", "--seed", "9", "--load", "1.2" });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "convert", cluster, "--log-year", "2023", "--out", jsonl });
        QVERIFY2(r.code == 0 && r.out.contains("logged decisions"), r.err.constData());
        r = cli({ "convert", jsonl, "--out", native });
        QVERIFY2(r.code == 0, r.err.constData());
        QByteArray agreements[3];
        const QStringList inputs[3] = { { cluster, "--log-year", "2023" }, { jsonl }, { native } };
        for (int i = 0; i < 3; ++i) {
            const QString project = dir.filePath(QString("p%1.schedlab").arg(i));
            r = cli(QStringList { "replay" } + inputs[i] + QStringList { "--mode", "timed", "--policy", "logged", "--from", "0", "--project", project });
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(r.out.contains("every logged decision was reproduced"), r.out.constData());
            r = cli({ "decisions", "--project", project, "--run", "1", "--agreement", "k8s-default", "--json" });
            QVERIFY2(r.code == 0, r.err.constData());
            agreements[i] = r.out;
        }
        const QJsonObject a = QJsonDocument::fromJson(agreements[0]).object();
        QVERIFY2(a["placedWithScores"].toDouble() > 200, agreements[0].constData());
        QCOMPARE(a["agreementPct"].toDouble(), 100.0);
        QCOMPARE(agreements[1], agreements[0]);
        QCOMPARE(agreements[2], agreements[0]);
    }

    // A log without scores (verbosity 2) has nothing to agree on: n/a, not "0 of 0 (0.00 %)".
    void agreementWithoutScoresIsNotApplicable()
    {
        QTemporaryDir dir;
        const QString cluster = dir.filePath("cluster"), project = dir.filePath("p.schedlab");
        Run r = cli({ "generate", "--kube-scheduler-log", cluster, "--nodes", "20", "--jobs", "40", "--seed", "3", "--verbosity", "2" });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "replay", cluster, "--log-year", "2023", "--mode", "timed", "--policy", "logged", "--from", "0", "--project", project });
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({ "decisions", "--project", project, "--run", "1", "--agreement", "k8s-default" });
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("agreement n/a: 0 placements with logged scores") && r.out.contains("scores: n/a (no logged candidate score)")
                && !r.out.contains("%"),
            r.out.constData());
        r = cli({ "decisions", "--project", project, "--run", "1", "--agreement", "k8s-default", "--json" });
        const QJsonObject a = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(a.contains("agreementPct") && a["agreementPct"].isNull(), r.out.constData());
        QCOMPARE(a["placedWithScores"].toDouble(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCliKubernetes)
#include "test_cli_kubernetes.moc"
