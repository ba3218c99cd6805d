// The Autoscaling tab driven through the real window offscreen: a two-hour generated load replayed
// under the default policies (hpa, forecast, static:4): a summary row per policy matching a
// replay of the same load in core, four plots with a graph per policy (and the load), their time
// axes linked; the HPA's worst incident is the burst's start, and a fork there under static:8 has
// fewer late minutes in the burst; a bad load file names its line.

#include "autoscale_view.h"
#include "main_window.h"
#include "reward_editor.h"
#include "scaler_reward_editor.h"
#include "scaler_training_panel.h"
#include "training_panel.h"

#include "autoscale/autoscale_replay.h"
#include "autoscale/scaler_features.h"
#include "rl/q_network.h"
#include "store/project.h"

#include <QFileInfo>

#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QComboBox>
#include <QPushButton>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>

using namespace schedlab;

class TestAutoscaleGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests-autoscale");
        QSettings().clear();
    }

    void replaysAndPlots()
    {
        // 2 hours: a quiet hour at 2 req/s, then a burst hour at 20 req/s (per-second counts):
        // 3600 x 2 + 3600 x 20 = 79,200 requests.
        QByteArray text;
        for (int s = 0; s < 7200; ++s)
            text += QByteArray::number(s < 3600 ? 2 : 20) + ' ';
        const QString load = m_dir.filePath("burst.txt");
        QFile f(load);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();

        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        QSignalSpy done(w.autoscaleController(), &app::AutoscaleController::finished);
        w.openAutoscaleLoad(load, QString(), true);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.at(0).at(0).toBool(), true);
        views::AutoscaleView* v = w.autoscaleView();
        QCOMPARE(v->summary()->rowCount(), 3);
        QVERIFY2(v->statusText().contains("burst.txt: 7200 s of load (per-second counts), 79200 requests"), qPrintable(v->statusText()));
        // The HPA row equals a replay in core of the same load and service.
        auto series = autoscale::readLoadSeries(load.toStdString());
        QVERIFY(series.ok());
        auto hpa = autoscale::makeReplicaPolicy("hpa", autoscale::ServiceConfig {}, nullptr);
        auto expected = autoscale::runAutoscale(*series, autoscale::ServiceConfig {}, *hpa);
        QVERIFY(expected.ok());
        bool found = false;
        for (int r = 0; r < v->summary()->rowCount(); ++r)
            if (v->summary()->item(r, 0)->text() == "hpa") {
                found = true;
                QCOMPARE(v->summary()->item(r, 1)->data(Qt::DisplayRole).toDouble(), std::round(expected->replicaHours * 10) / 10);
                QCOMPARE(v->summary()->item(r, 3)->data(Qt::DisplayRole).toInt(), expected->sloViolationMinutes);
                QCOMPARE(v->summary()->item(r, 5)->data(Qt::DisplayRole).toInt(), expected->scalingActions);
                QVERIFY(expected->maxReplicas > 3); // the burst needs more than 20 / 6 replicas
            }
        QVERIFY(found);
        QCOMPARE(v->plots()[0]->graphCount(), 4); // the load and the three policies' capacity
        for (int i = 1; i < 4; ++i)
            QCOMPARE(v->plots()[std::size_t(i)]->graphCount(), 3);
        QCOMPARE(v->plots()[1]->graph(0)->dataCount(), 120); // a point a minute
        // Linked in time: zoom one, the others follow.
        v->plots()[2]->xAxis->setRange(0.5, 1.5);
        for (QCustomPlot* p : v->plots())
            QCOMPARE(p->xAxis->range().lower, 0.5);
        // The HPA meets the burst with one replica (2 req/s before it): its worst incident starts
        // with the burst. Forked there under static:8, the burst hour has fewer late minutes.
        QVERIFY(!v->incidents().empty());
        QCOMPARE(v->incidents().front().fromS, 3600.0);
        QSignalSpy shown(w.autoscaleController(), &app::AutoscaleController::decisionShown);
        v->selectIncident(0);
        QVERIFY(v->plots()[1]->xAxis->range().lower < 1.0 && v->plots()[1]->xAxis->range().upper > 1.0); // hour 1 in view
        // The decision the HPA made as the burst began (the sync at 3600 s): the quiet hour's state.
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY2(v->decisionText().startsWith("Decision at 0 d 01:00: "), qPrintable(v->decisionText()));
        QVERIFY2(v->decisionText().contains("2.00 req/s"), qPrintable(v->decisionText()));
        QVERIFY(!v->decisionText().contains("Q-values")); // a heuristic weighs no actions
        v->requestFork("static:8");
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 30000);
        QCOMPARE(done.at(1).at(0).toBool(), true);
        QCOMPARE(int(v->results().size()), 4);
        QCOMPARE(v->results().back().policy, std::string("hpa -> static:8 at 3600 s"));
        QCOMPARE(v->summary()->rowCount(), 4);
        QCOMPARE(v->plots()[1]->graphCount(), 4);
        const auto before = autoscale::sliceResult(v->results().front(), 3600, 7200, 0.1);
        const auto after = autoscale::sliceResult(v->results().back(), 3600, 7200, 0.1);
        QVERIFY2(after.sloViolationMinutes < before.sloViolationMinutes,
            qPrintable(QString("%1 vs %2").arg(after.sloViolationMinutes).arg(before.sloViolationMinutes)));
        QVERIFY(w.grab().save(m_dir.filePath("autoscaling.png")));
        // Exports: a summary line per run, a header, a row per run and minute; the plots as a PNG.
        const QString csv = m_dir.filePath("runs.csv");
        QVERIFY(v->exportCsv(csv).ok());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = c.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 4 + 1 + 4 * 120);
        QVERIFY(lines[0].startsWith("# hpa: replica-hours "));
        QCOMPARE(lines[4], QByteArray("policy,t_s,arrival_rate,ready,replicas,capacity_rps,p99_s,missed_share,backlog"));
        QVERIFY2(lines[5].startsWith("\"hpa\",0,2,"), lines[5].constData());
        QVERIFY(v->exportPng(m_dir.filePath("plots.png")));
        QVERIFY(QImage(m_dir.filePath("plots.png")).width() > 400);
        // The load file is remembered for the next window.
        {
            app::MainWindow next;
            QCOMPARE(next.autoscaleView()->request().loadPath, load);
        }

        // A bad load file: the error names it and its line.
        const QString bad = m_dir.filePath("bad.txt");
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("1 2 3\n4 five\n");
        b.close();
        w.openAutoscaleLoad(bad, QString(), true);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 30000);
        QCOMPARE(done.at(2).at(0).toBool(), false);
        QVERIFY2(v->statusText().contains("bad.txt:2: count 5"), qPrintable(v->statusText()));
    }

    void learnedPolicyFromAModel()
    {
        // A replica policy's checkpoint (untrained: the tab only has to run it) and a placement
        // one, which the tab refuses naming it.
        auto net = rl::QNetwork::create(5, { autoscale::kScalerFeatures, 64, 32 });
        QVERIFY2(net.ok(), net.ok() ? "" : net.error().toString().c_str());
        const QString model = m_dir.filePath("scaler.slq"), placement = m_dir.filePath("placement.slq");
        QVERIFY((*net)->save(model.toStdString()).ok());
        QVERIFY((*rl::QNetwork::create(5))->save(placement.toStdString()).ok());
        QByteArray text;
        for (int s = 0; s < 1800; ++s)
            text += "3 ";
        const QString load = m_dir.filePath("flat.txt");
        QFile f(load);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();

        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy done(w.autoscaleController(), &app::AutoscaleController::finished);
        views::AutoscaleView* v = w.autoscaleView();
        v->setModelPath(model);
        w.openAutoscaleLoad(load, QString(), true);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(v->statusText()));
        bool found = false;
        for (int r = 0; r < v->summary()->rowCount(); ++r)
            found = found || v->summary()->item(r, 0)->text() == "learned:scaler.slq";
        QVERIFY(found);
        // Its decision at a time (as an incident asks): the state and each action's Q-value, the
        // chosen one in bold; an action below minReplicas masked.
        int learned = -1;
        for (std::size_t i = 0; i < v->results().size(); ++i)
            if (v->results()[i].policy == "learned:scaler.slq")
                learned = int(i);
        QSignalSpy shown(w.autoscaleController(), &app::AutoscaleController::decisionShown);
        QVERIFY(w.autoscaleController()->decision(learned, 600));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
        QVERIFY2(v->decisionText().startsWith("Decision at 0 d 00:10: "), qPrintable(v->decisionText()));
        QVERIFY2(v->decisionText().contains("Q-values: ") && v->decisionText().contains("<b>"), qPrintable(v->decisionText()));
        QCOMPARE(v->decisionText().count(", ") >= 5, true);
        {
            app::MainWindow next; // the model is remembered
            const auto policies = next.autoscaleView()->request().policies;
            QVERIFY(std::find(policies.begin(), policies.end(), "learned:" + model.toStdString()) != policies.end());
        }
        // With a project open, each replay's runs are stored in it (the CLI's record).
        const QString projectPath = m_dir.filePath("tab.schedlab");
        QVERIFY(store::Project::open(projectPath.toStdString()).ok()); // File > New Project
        QVERIFY(w.openProject(projectPath));
        v->setModelPath(model);
        w.openAutoscaleLoad(load, QString(), true);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
        QVERIFY2(done.at(1).at(0).toBool(), qPrintable(v->statusText()));
        QCOMPARE(w.autoscaleController()->storedIds().size(), v->results().size());
        {
            auto project = store::Project::open(projectPath.toStdString(), store::Project::OpenMode::ReadOnly);
            QVERIFY(project.ok());
            auto stored = (*project)->autoscaleRuns(true);
            QVERIFY(stored.ok());
            QCOMPARE(stored->size(), v->results().size());
            for (std::size_t i = 0; i < stored->size(); ++i) {
                QCOMPARE((*stored)[i].policy, v->results()[i].policy);
                QCOMPARE((*stored)[i].value("replicaHours"), v->results()[i].replicaHours);
                QCOMPARE((*stored)[i].load, QFileInfo(load).absoluteFilePath().toStdString());
                QCOMPARE((*stored)[i].series.size(), v->results()[i].series.size() * 8);
            }
        }
        v->setModelPath(placement);
        w.openAutoscaleLoad(load, QString(), true);
        QTRY_COMPARE_WITH_TIMEOUT(v->statusText().contains("placement.slq"), true, 60000);
        QCOMPARE(w.autoscaleController()->storedIds().size(), v->results().size()); // nothing new stored
        QVERIFY2(v->statusText().contains("not a replica policy checkpoint"), qPrintable(v->statusText()));
    }

    void trainsRoundsBesideTheTab()
    {
        // Two days of a daily cycle (0.3 to 3 req/s), per-second counts; rounds train on day 1 and
        // are judged on day 2.
        QByteArray text;
        for (int k = 0; k < 2 * 86400; ++k) {
            const double r = 0.3 + 2.7 * (0.5 - 0.5 * std::cos(2 * M_PI * double(k % 86400) / 86400.0));
            text += QByteArray::number(int(std::floor(double(k + 1) * r) - std::floor(double(k) * r))) + ' ';
        }
        const QString load = m_dir.filePath("daily.txt");
        QFile f(load);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();

        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        w.openAutoscaleLoad(load);
        views::ScalerTrainingPanel* panel = w.scalerPanel();
        panel->trainHoursBox()->setValue(24);
        panel->episodesBox()->setValue(1);
        panel->roundsBox()->setValue(2);
        panel->rewardEditor()->presetBox()->setCurrentText("cost-first");
        QCOMPARE(panel->rewardEditor()->reward().toString(), autoscale::ScalerReward::preset("cost-first")->toString());
        // Edit > Undo on this tab undoes the replica policy's reward edit, not the placement one's.
        const rl::RewardConfig placement = w.rewardEditor()->config();
        w.findChild<QAction*>("undoAction")->trigger();
        QCOMPARE(panel->rewardEditor()->reward().toString(), autoscale::ScalerReward {}.toString());
        QCOMPARE(w.rewardEditor()->config().toString(), placement.toString());
        panel->rewardEditor()->presetBox()->setCurrentText("cost-first");
        // Rounds are stored in a project: refused without one, with the reason.
        QVERIFY(!panel->trainButton()->isEnabled());
        QVERIFY(!w.startScalerTraining(panel->request()));
        QVERIFY2(panel->messageText().contains("project"), qPrintable(panel->messageText()));
        const QString projectPath = m_dir.filePath("rounds.schedlab");
        QVERIFY(w.newProject(projectPath));
        QVERIFY(panel->trainButton()->isEnabled());
        QSignalSpy finished(&w, &app::MainWindow::scalerTrainingFinished);
        QTest::mouseClick(panel->trainButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(panel->messageText()));
        QVERIFY2(panel->messageText().contains("learned") && panel->messageText().contains("hpa"), qPrintable(panel->messageText()));
        // The lineage: round 2 under round 1, each with its evaluation.
        QCOMPARE(panel->lineage()->topLevelItemCount(), 1);
        QTreeWidgetItem* first = panel->lineage()->topLevelItem(0);
        QCOMPARE(first->childCount(), 1);
        QVERIFY2(first->text(2).startsWith("autoscale, daily.txt 0 h-24 h"), qPrintable(first->text(2)));
        QVERIFY2(first->text(3).contains("replica-h: learned") && first->text(3).contains("hpa"), qPrintable(first->text(3)));
        QVERIFY2(first->text(4).startsWith("latency=0.05,cost=0.8,sla=0.15"), qPrintable(first->text(4)));
        QCOMPARE(w.trainingPanel()->lineage()->topLevelItemCount(), 0); // the placement agent's tab stays apart
        QCOMPARE(panel->parentBox()->currentText(), QString("round 2")); // the next session continues the newest
        {
            auto project = store::Project::open(projectPath.toStdString(), store::Project::OpenMode::ReadOnly);
            QVERIFY(project.ok());
            auto rows = (*project)->rounds();
            QCOMPARE(int(rows->size()), 2);
            QCOMPARE(rows->at(1).parentId, rows->at(0).id);
            QCOMPARE(rows->at(1).kind, store::RoundKind::Autoscale);
            QCOMPARE(rows->at(1).weights, autoscale::ScalerReward::preset("cost-first")->toString());
            QVERIFY(QFile::exists(QString::fromStdString(rows->at(1).checkpoint)));
        }
        // Use the second round as the tab's learned policy.
        first->child(0)->setSelected(true);
        QTest::mouseClick(panel->findChild<QPushButton*>("useScalerRound"), Qt::LeftButton);
        const auto policies = w.autoscaleView()->request().policies;
        QVERIFY(std::any_of(policies.begin(), policies.end(),
            [](const std::string& p) { return p.rfind("learned:", 0) == 0 && p.find("round-2.slq") != std::string::npos; }));
        app::MainWindow next; // the weights are remembered
        QCOMPARE(next.scalerPanel()->rewardEditor()->reward().toString(), autoscale::ScalerReward::preset("cost-first")->toString());
    }
};

QTEST_MAIN(TestAutoscaleGui)
#include "test_autoscale_gui.moc"
