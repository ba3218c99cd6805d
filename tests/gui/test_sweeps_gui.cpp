// The Sweeps tab driven through the real window offscreen: a plan of 12 cells in 3 shards with
// shard 0 done shows 4 finished cells and 8 waiting, plots them with the Pareto front the model
// computed, picks up shard 1 when it finishes (auto-refresh), opens a finished cell on the
// dashboard by merging the finished cells into the open project (each once), exports its table.
// A training sweep planned from the Reward dock's weights (a range) trains a lineage per vector;
// its cell opens as the learned policy of its last round on the dashboard.

#include "open_and_wait.h"
#include "test_util.h"

#include "main_window.h"
#include "sweep_view.h"

#include "store/project.h"
#include "workflow/sweep.h"

#include <qcustomplot.h>

#include <QFile>
#include <QListWidget>
#include <QSettings>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace schedlab;

class TestSweepsGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const std::string& name) const { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests-sweeps");
        QSettings().clear();
    }

    void followsShardsAndOpensCells()
    {
        workflow::SweepSpec spec;
        spec.traces = { { test::dataPath("tiny/nodes.csv"), test::dataPath("tiny/pods.csv") }, { test::dataPath("tiny/jobs.swf") } };
        spec.policies = { "bestfit", "worstfit" };
        spec.seeds = { 1, 2, 3 };
        spec.base = sim::RunSpec::timed({}, sim::TimedOptions {});
        spec.shards = 3;
        auto plan = workflow::makeSweepPlan(spec);
        QVERIFY(plan.ok());
        const std::string planPath = path("s.sweep");
        QVERIFY(workflow::writeSweepPlan(*plan, planPath).ok());
        auto runShard = [&](int s) {
            auto p = store::Project::open(planPath + ".shard-" + std::to_string(s) + ".schedlab");
            return p.ok() && workflow::runSweepShard(*plan, s, *p.value()).ok();
        };
        QVERIFY(runShard(0));

        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.newProject(m_dir.filePath("p.schedlab")));
        QSignalSpy read(w.sweepController(), &app::SweepController::progressRead);
        w.sweepController()->setInterval(100);
        QVERIFY(w.openSweep(QString::fromStdString(planPath)));
        QTRY_VERIFY_WITH_TIMEOUT(read.count() >= 1, 10000);
        views::SweepView* view = w.sweepView();
        views::SweepCellModel* model = view->model();
        QCOMPARE(model->rowCount(), 12);
        QCOMPARE(model->progress().count(workflow::CellStatus::Finished), 4);
        QCOMPARE(model->progress().count(workflow::CellStatus::Waiting), 8);
        QVERIFY2(view->titleText().contains("4 finished (0 merged), 0 running, 0 failed, 8 waiting"), qPrintable(view->titleText()));
        // Shard 0 holds cells 0, 3, 6, 9: status by row.
        QCOMPARE(model->data(model->index(3, views::SweepCellModel::Status)).toString(), QString("finished"));
        QCOMPARE(model->data(model->index(4, views::SweepCellModel::Status)).toString(), QString("waiting"));
        QCOMPARE(model->metric(0), QString("wait.p99"));

        // The plot: a graph per policy with each finished cell, and the front's cells ringed.
        int points = 0, ringed = 0;
        for (int g = 0; g < view->plot()->graphCount(); ++g) {
            QCPGraph* graph = view->plot()->graph(g);
            (graph->name() == "Pareto front" ? ringed : points) += graph->dataCount();
        }
        QCOMPARE(points, 4);
        int front = 0;
        for (int c = 0; c < 12; ++c)
            front += model->onFront(c) ? 1 : 0;
        QVERIFY(front >= 1 && front <= 4);
        QCOMPARE(ringed, front);
        // A front over one metric (lower p99 wait): exactly the cells with the least p99 wait.
        view->setMetrics("wait.p99", "wait.p99", "");
        double least = INFINITY;
        for (int c : { 0, 3, 6, 9 })
            least = std::min(least, model->value(c, "wait.p99"));
        for (int c : { 0, 3, 6, 9 })
            QCOMPARE(model->onFront(c), model->value(c, "wait.p99") == least);
        view->setMetrics("wait.p99", "meanGpuFragRate", "meanGpuUtil");

        // Shard 1 finishes while the tab is open: auto-refresh picks it up.
        QVERIFY(runShard(1));
        QTRY_COMPARE_WITH_TIMEOUT(model->progress().count(workflow::CellStatus::Finished), 8, 10000);

        // Opening a finished cell merges the finished cells into the project, then shows it.
        QCOMPARE(w.runList()->count(), 0);
        w.openSweepCell(4);
        QTRY_COMPARE_WITH_TIMEOUT(model->progress().count(workflow::CellStatus::Merged), 8, 10000);
        QCOMPARE(w.runList()->count(), 8);
        QTRY_COMPARE_WITH_TIMEOUT(int(w.results().size()), 1, 10000);
        QCOMPARE(w.results()[0].policy, plan->cells[4].spec.policy);
        QCOMPARE(w.results()[0].seed(), plan->cells[4].spec.seed());
        auto stored = store::Project::open(m_dir.filePath("p.schedlab").toStdString(), store::Project::OpenMode::ReadOnly);
        QVERIFY(stored.ok());
        QCOMPARE(int(stored.value()->runs()->size()), 8);
        stored.value().reset();
        // Merging again (the button) adds nothing.
        QSignalSpy merged(w.sweepController(), &app::SweepController::merged);
        emit view->mergeRequested();
        QTRY_COMPARE_WITH_TIMEOUT(merged.count(), 1, 10000);
        QCOMPARE(merged.at(0).at(0).toInt(), 0);
        QCOMPARE(w.runList()->count(), 8);
        QVERIFY2(view->messageText().contains("Merged 0 cells into the project now (8 before); 4 of 12"), qPrintable(view->messageText()));
        // A waiting cell says so instead of opening.
        w.openSweepCell(2);
        QVERIFY2(view->messageText().contains("Cell 2 has not finished"), qPrintable(view->messageText()));

        // The table as CSV: a header and a row per cell; finished cells have their metrics.
        const QString csv = m_dir.filePath("cells.csv");
        QVERIFY(view->exportCsv(csv).ok());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 13);
        QVERIFY(lines[0].startsWith("cell,shard,trace,policy,seed,status,file,run,"));
        QVERIFY(lines[0].contains(",wait.p99"));
        QVERIFY2(lines[5].startsWith("4,\"1\",\"pods.csv\",\"worstfit\",\"2\",\"merged\""), lines[5].constData());
        QVERIFY2(lines[3].startsWith("2,\"2\",\"pods.csv\",\"bestfit\",\"3\",\"waiting\",\"\","), lines[3].constData());

        const QString shot = m_dir.filePath("sweeps.png");
        QVERIFY(w.grab().save(shot));
    }

    void trainingSweepFromTheRewardDock()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(test::openAndWait(w, { test::dataPath("tiny/nodes.csv"), test::dataPath("tiny/pods.csv") }));
        QVERIFY(w.newProject(m_dir.filePath("train.schedlab")));
        const QString plan = m_dir.filePath("train.sweep");
        QVERIFY2(w.planTrainingSweep(plan, 2, "balance=0.1:0.9:0.8"), qPrintable(w.bannerText()));
        QTRY_COMPARE_WITH_TIMEOUT(w.sweepView()->model()->rowCount(), 2, 10000);
        const store::SweepPlan& p = w.sweepView()->model()->plan();
        QVERIFY(p.cells[0].train && p.cells[0].train->weights.rfind("balance=0.1,", 0) == 0);
        QVERIFY(p.cells[1].train && p.cells[1].train->weights.rfind("balance=0.9,", 0) == 0);
        QVERIFY2(w.sweepView()->model()->data(w.sweepView()->model()->index(1, views::SweepCellModel::Policy)).toString().startsWith("learned ×1 [balance=0.9"),
            qPrintable(w.sweepView()->model()->data(w.sweepView()->model()->index(1, views::SweepCellModel::Policy)).toString()));
        QCOMPARE(w.sweepView()->model()->metric(0), QString("fragRatePct"));
        // The shards run (as a cluster would), then the view sees them.
        for (int s = 0; s < 2; ++s) {
            auto project = store::Project::open(plan.toStdString() + ".shard-" + std::to_string(s) + ".schedlab");
            QVERIFY(project.ok());
            auto r = workflow::runSweepShard(p, s, *project.value());
            QVERIFY2(r.ok() && r->ran == 1, r.ok() ? (r->errors.empty() ? "" : r->errors[0].c_str()) : r.error().toString().c_str());
        }
        emit w.sweepView()->refreshRequested();
        QTRY_COMPARE_WITH_TIMEOUT(w.sweepView()->model()->progress().count(workflow::CellStatus::Finished), 2, 10000);
        QVERIFY(w.sweepView()->model()->value(1, "finalGpuAllocPct") > 0);
        // Opening cell 1 merges both lineages, then replays its last round on the dashboard.
        w.openSweepCell(1);
        QTRY_COMPARE_WITH_TIMEOUT(w.sweepView()->model()->progress().count(workflow::CellStatus::Merged), 2, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(w.results().begin(), w.results().end(),
                                     [](const views::RunResult& r) { return r.policy.rfind("learned:", 0) == 0; }),
            60000);
        auto stored = store::Project::open(m_dir.filePath("train.schedlab").toStdString(), store::Project::OpenMode::ReadOnly);
        QCOMPARE(int(stored.value()->rounds()->size()), 2);
    }

    void aBadPlanIsRefusedByName()
    {
        app::MainWindow w;
        w.setInteractive(false);
        const QString bad = m_dir.filePath("bad.sweep");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"schedlab.sweep/1\", \"cells\": 3}");
        f.close();
        QVERIFY(!w.openSweep(bad));
        QVERIFY2(w.bannerText().contains("bad.sweep"), qPrintable(w.bannerText()));
        QVERIFY(!w.sweepView()->hasPlan());
    }
};

QTEST_MAIN(TestSweepsGui)
#include "test_sweeps_gui.moc"
