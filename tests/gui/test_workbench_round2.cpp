// Workbench correctness, round 2 (found walking the workbench under Xvfb): each point driven
// through the real window offscreen.

#include "open_and_wait.h"
#include "test_util.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "reward_editor.h"
#include "trace_summary_view.h"
#include "training_panel.h"
#include "incident_panel.h"
#include "inspector_widget.h"

#include "incident/run_index.h"
#include "main_window.h"
#include "training_controller.h"

#include <qcustomplot.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QStatusBar>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QProgressBar>
#include <QPushButton>
#include <QLineEdit>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QUndoStack>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

using namespace schedlab;

using schedlab::test::openAndWait;

class TestWorkbenchRound2 : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks"); // docks per tab from an earlier run must not change this one
    }

    void comparisonComparesOneModeAtATime()
    {
        // A fill run and a timed run in one list: the figures of the first run's mode, for the
        // runs of that mode only (a timed run has no fill figures to show).
        views::RunResult fill, timed;
        fill.spec = sim::RunSpec::fill("bestfit", {});
        auto f = std::make_shared<sim::FillResult>();
        f->finalGpuAllocPct = 91.5;
        f->failed = 7;
        fill.fill = f;
        fill.label = "bestfit #42";
        timed.spec = sim::RunSpec::timed("fgd", {});
        timed.timed = std::make_shared<sim::TimedResult>();
        timed.label = "fgd #42";
        views::ComparisonWidget c([](const std::string&) { return QColor(Qt::blue); });
        c.setRuns({ fill, timed });
        QCOMPARE(c.metricNames(), (QStringList { "final GPU allocation (%)", "final fragmentation rate (%)", "failed pods", "failed GPU request (GPUs)" }));
        auto* table = c.findChild<QTableWidget*>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 1)->text(), QString("91.5"));
        QCOMPARE(table->item(0, 3)->text(), QString("7"));
        c.setRuns({ timed, fill });
        QCOMPARE(c.metricNames().size(), 6);
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QString("fgd #42"));
    }

    void comparisonShowsPolicyMeansWithTheirRange()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        w.findChild<QLineEdit*>("seedsEdit")->setText("1-2");
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().size(), std::size_t(4));
        views::ComparisonWidget* c = w.comparison();
        QCOMPARE(c->chartCount(), 7);
        const int p99 = int(c->metricNames().indexOf("wait p99 (s)"));
        QVERIFY(p99 >= 0);
        QCustomPlot* chart = c->chart(p99);
        // the policy names label the bars
        auto ticker = chart->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QString("firstfit"));
        QCOMPARE(ticker->ticks().value(1), QString("bestfit"));
        // one bar per policy at the mean of its seeds, a whisker from min to max
        for (const char* policy : { "firstfit", "bestfit" }) {
            std::vector<double> v;
            for (const views::RunResult& r : w.results())
                if (r.policy == policy)
                    v.push_back(r.timed->waitS.p99);
            QCOMPARE(v.size(), std::size_t(2));
            QCPBars* bars = nullptr;
            QCPErrorBars* whisker = nullptr;
            for (int i = 0; i < chart->plottableCount(); ++i) {
                if (auto* b = qobject_cast<QCPBars*>(chart->plottable(i)); b && b->name() == policy)
                    bars = b;
                if (auto* e = qobject_cast<QCPErrorBars*>(chart->plottable(i)); e && e->dataPlottable() && e->dataPlottable()->name() == policy)
                    whisker = e;
            }
            QVERIFY(bars && whisker);
            const double mean = (v[0] + v[1]) / 2;
            QCOMPARE(bars->data()->at(0)->value, mean);
            QCOMPARE(mean - whisker->data()->at(0).errorMinus, std::min(v[0], v[1]));
            QCOMPARE(mean + whisker->data()->at(0).errorPlus, std::max(v[0], v[1]));
        }
        // on the dashboard: seeds of a policy in shades of its colour, one legend entry per policy
        QCustomPlot* plot = w.dashboard()->plot(0);
        QCOMPARE(plot->graphCount(), 4);
        QCOMPARE(plot->legend->itemCount(), 2);
        QVERIFY(plot->graph(0)->pen().color() != plot->graph(1)->pen().color());
        QCOMPARE(plot->graph(0)->property("policy").toString(), plot->graph(1)->property("policy").toString());
        if (qEnvironmentVariableIsSet("SCHEDLAB_TEST_SHOTS"))
            w.grab().save(qEnvironmentVariable("SCHEDLAB_TEST_SHOTS") + "/seeds.png");
        // rows per run, then a mean [min, max] row per policy
        QTableWidget* t = c->table();
        QCOMPARE(t->rowCount(), 6);
        QVERIFY(t->item(4, 0)->text().startsWith("firstfit: mean of 2"));
        QVERIFY(t->item(4, p99 + 1)->text().contains("["));
        const QString csv = m_dir.filePath("cmp.csv");
        QVERIFY(c->exportSummaryCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        QCOMPARE(QString::fromUtf8(f.readAll()).count('\n'), 7); // header + 4 runs + 2 means
        // the dashboard's utilization choice applies here too
        w.dashboard()->setUtilization(views::DashboardWidget::Utilization::Cpu);
        QVERIFY(c->metricNames().contains("mean CPU utilization (%)"));
    }

    void makingRoomFromThePolicyDock()
    {
        // Preemption and migration chosen in the Policies dock reach the run, and the comparison
        // adds evictions, migrations and work lost once a run made room.
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        w.findChild<QLineEdit*>("seedsEdit")->setText("42");
        auto* mode = w.findChild<QComboBox*>("modeBox");
        mode->setCurrentIndex(1); // timed
        auto* preemption = w.findChild<QComboBox*>("preemptionBox");
        auto* migration = w.findChild<QComboBox*>("migrationBox");
        QVERIFY(preemption && migration && preemption->isEnabled());
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.comparison()->metricNames().size(), 6); // nothing made room
        migration->setCurrentIndex(migration->findData("defragment"));
        preemption->setCurrentIndex(preemption->findData("priority"));
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().size(), std::size_t(2));
        const views::RunResult& r = w.results()[1];
        QCOMPARE(r.spec.timedOptions()->migration, sim::Migration::Defragment);
        QCOMPARE(r.spec.timedOptions()->preemption, sim::Preemption::Priority);
        QVERIFY(r.timed->migrations > 0);
        QCOMPARE(w.results()[0].timed->migrations, int64_t(0));
        // The two runs of one policy and seed are told apart by how they made room.
        QCOMPARE(w.results()[0].label, std::string("bestfit #42"));
        QCOMPARE(r.label, std::string("bestfit #42 + preemption + migration"));
        // ... and compared as two groups, not one mean over both.
        QCOMPARE(r.policy, std::string("bestfit + preemption + migration"));
        QCOMPARE(w.results()[0].policy, std::string("bestfit"));
        const QStringList names = w.comparison()->metricNames();
        QVERIFY2(names.contains("migrations") && names.contains("evictions") && names.contains("work lost (GPU-h)")
                && names.contains("GPU jobs blocked with room free"),
            qPrintable(names.join(", ")));
        if (const QString dir = qEnvironmentVariable("SCHEDLAB_SHOTS"); !dir.isEmpty()) {
            w.resize(1280, 800);
            QTest::qWait(200); // the plots re-lay out their legends
            w.grab().save(dir + "/comparison_room.png");
        }
        mode->setCurrentIndex(2); // fill: pods may move, nothing is evicted
        QVERIFY(migration->isEnabled() && !preemption->isEnabled());
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().back().spec.fillOptions()->migration, sim::Migration::Defragment);
        QCOMPARE(w.results().back().label, std::string("bestfit #42 fill + migration"));
    }

    void inspectorSaysWhenThereIsNoScore()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "random" });
        QVERIFY(done.wait(120000));
        views::IncidentPanel* panel = w.incidentPanel();
        auto* rescore = panel->findChild<QLineEdit*>("rescorePolicies");
        QVERIFY(rescore);
        rescore->setText("bestfit,random");
        QSignalSpy indexed(panel, &views::IncidentPanel::indexed);
        QVERIFY(panel->selectRun(w.results().front().id));
        QVERIFY(indexed.wait(120000));
        QVERIFY(indexed[0][0].toBool());
        // the first placed decision: candidates of random (the run), bestfit and random
        const auto& ds = panel->runIndex()->decisions.decisions();
        const auto placed = std::find_if(ds.begin(), ds.end(), [](const sim::Decision& d) { return d.outcome == sim::Outcome::Placed; });
        QVERIFY(placed != ds.end());
        panel->selectDecision(int64_t(placed - ds.begin()));
        QTableWidget* t = panel->inspector()->candidateTable();
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QString("random node"));
        QCOMPARE(t->item(0, 2)->text(), QString("no score")); // the run's own policy: random
        QVERIFY(t->item(0, 4)->text() != "no score"); // bestfit scores
        QCOMPARE(t->item(0, 6)->text(), QString("no score")); // random re-scoring
        // a decision that waited: the empty candidate table says why
        const auto waited = std::find_if(ds.begin(), ds.end(), [](const sim::Decision& d) { return d.outcome == sim::Outcome::Waited && d.feasible == 0; });
        if (waited != ds.end()) {
            panel->selectDecision(int64_t(waited - ds.begin()));
            QVERIFY(t->item(0, 1) && t->item(0, 1)->text().startsWith("no candidate"));
        }
    }

    void aRoundIsShownInItsOwnModeAndTrace()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        views::TrainingPanel* panel = w.trainingPanel();
        QVERIFY(!panel->startButton()->isEnabled()); // no project: nothing to store rounds in, said in the tooltip
        QVERIFY(panel->startButton()->toolTip().contains("project"));
        QVERIFY(w.newProject(m_dir.filePath("rounds.schedlab")));
        QVERIFY(panel->startButton()->isEnabled());
        QCOMPARE(panel->request().mode, sim::RunMode::Fill);
        panel->episodesBox()->setValue(1);
        panel->podsBox()->setValue(100);
        QSignalSpy trained(&w, &app::MainWindow::trainingDone);
        QVERIFY(w.startTraining(panel->request()));
        QVERIFY(trained.wait(120000));
        QCOMPARE(panel->lineage()->topLevelItemCount(), 1);
        // The round's evaluation against its baselines, named by its metric.
        const QString eval = panel->lineage()->topLevelItem(0)->text(3);
        QVERIFY2(eval.startsWith("final GPU allocation %: learned "), qPrintable(eval));
        QVERIFY2(eval.contains(", bestfit ") && eval.contains(", fgd "), qPrintable(eval));
        QVERIFY(panel->lineage()->topLevelItem(0)->toolTip(3).contains("failed pods: learned"));
        // Another trace and the timed mode in the Policies dock: the round must not be shown there.
        QVERIFY(openAndWait(w, { test::dataPath("tiny/jobs.swf") }));
        auto* mode = w.findChild<QComboBox*>("modeBox");
        mode->setCurrentIndex(1);
        auto* policies = w.findChild<QListWidget*>("policyList");
        for (int i = 0; i < policies->count(); ++i)
            policies->item(i)->setCheckState(policies->item(i)->text() == "bestfit" ? Qt::Checked : Qt::Unchecked);
        panel->lineage()->topLevelItem(0)->setSelected(true);
        QSignalSpy batch(&w, &app::MainWindow::batchDone);
        QTest::mouseClick(panel->findChild<QPushButton*>("showRounds"), Qt::LeftButton);
        QVERIFY(batch.wait(120000));
        QCOMPARE(mode->currentIndex(), 2); // fill, as trained
        QVERIFY2(w.windowTitle().contains("sample"), qPrintable(w.windowTitle())); // its trace reopened
        QCOMPARE(w.results().size(), std::size_t(2));
        for (const views::RunResult& r : w.results())
            QVERIFY2(r.isFill(), r.label.c_str());
    }

    void aTeacherRoundLeadsTheSession()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QVERIFY(w.newProject(m_dir.filePath("teacher.schedlab")));
        views::TrainingPanel* panel = w.trainingPanel();
        panel->episodesBox()->setValue(1);
        panel->podsBox()->setValue(100);
        // The skip action is timed-only, excludes the wait action and reaches the rounds' options
        // with its budget of 16 skips a pass.
        QVERIFY(!panel->skipBox()->isEnabled());
        panel->modeBox()->setCurrentIndex(1);
        QVERIFY(panel->skipBox()->isEnabled());
        panel->waitBox()->setChecked(true);
        panel->skipBox()->setChecked(true);
        QVERIFY(!panel->waitBox()->isChecked());
        const views::TrainRequest skipping = panel->request();
        QVERIFY(skipping.skip && !skipping.allowWait);
        const workflow::SessionOptions sk = app::sessionOptionsOf(skipping, rl::RewardConfig {}, m_dir.path().toStdString());
        QVERIFY(sk.base.train.policy.skip && !sk.base.train.policy.allowWait);
        QCOMPARE(sk.base.train.policy.maxConsecutiveWaits, 16);
        panel->modeBox()->setCurrentIndex(0);
        QVERIFY(!panel->request().skip); // a fill round has no skip
        panel->skipBox()->setChecked(false);
        QVERIFY(!panel->keepTeacherBox()->isEnabled()); // no teacher yet
        panel->teacherBox()->setCurrentText("fgd");
        QCOMPARE(panel->request().teacher, std::string("fgd"));
        QVERIFY(panel->keepTeacherBox()->isEnabled());
        // Keeping the teacher in view and validation seeds reach the rounds' options; a seed text
        // that does not parse is refused before any work.
        panel->keepTeacherBox()->setChecked(true);
        panel->validationEdit()->setText("7-8");
        const views::TrainRequest kept = panel->request();
        QVERIFY(kept.keepTeacher);
        QCOMPARE(kept.validationSeeds, (std::vector<uint64_t> { 7, 8 }));
        const workflow::SessionOptions so = app::sessionOptionsOf(kept, rl::RewardConfig {}, m_dir.path().toStdString());
        QCOMPARE(so.base.train.teacherLoss, std::string("fgd"));
        QCOMPARE(so.base.train.validationSeeds, (std::vector<uint64_t> { 7, 8 }));
        QCOMPARE(so.base.train.blend, 1.0); // off unless asked
        panel->blendBox()->setValue(0.7);
        QCOMPARE(app::sessionOptionsOf(panel->request(), rl::RewardConfig {}, m_dir.path().toStdString()).base.train.blend, 0.7);
        panel->blendBox()->setValue(1.0);
        panel->validationEdit()->setText("seven");
        {
            QSignalSpy started(panel, &views::TrainingPanel::startRequested);
            QTest::mouseClick(panel->startButton(), Qt::LeftButton);
            QCOMPARE(started.count(), 0);
            QVERIFY2(panel->findChild<QProgressBar*>()->format().startsWith("validation seeds:"),
                qPrintable(panel->findChild<QProgressBar*>()->format()));
        }
        panel->validationEdit()->setText("7"); // the DQN round validates its episode
        panel->keepTeacherBox()->setChecked(false);
        QSignalSpy trained(&w, &app::MainWindow::trainingDone);
        QVERIFY(w.startTraining(panel->request()));
        QVERIFY(trained.wait(120000));
        // The teacher's round, then the DQN round under it.
        QCOMPARE(panel->lineage()->topLevelItemCount(), 1);
        QTreeWidgetItem* teacher = panel->lineage()->topLevelItem(0);
        QVERIFY2(teacher->text(2).startsWith("fill, teacher fgd; 100 pods"), qPrintable(teacher->text(2)));
        QCOMPARE(teacher->childCount(), 1);
        QVERIFY2(!teacher->child(0)->text(2).contains("teacher"), qPrintable(teacher->child(0)->text(2)));
        // Its one episode does not beat the FGD-taught weights it started from on seed 7: the round
        // keeps those (episode 0), and the lineage says so.
        QVERIFY2(teacher->child(0)->text(2).contains("best episode on validation seeds 7; kept its starting weights ("),
            qPrintable(teacher->child(0)->text(2)));
        QVERIFY2(!teacher->text(2).contains("kept episode"), qPrintable(teacher->text(2))); // a teacher round does not validate
        QCOMPARE(teacher->child(0)->text(1), QString("finished"));
    }

    void resetZoomKeepsEveryRunDrawn()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        auto* empty = w.dashboard()->findChild<QLabel*>("dashboardEmpty");
        QVERIFY(empty && empty->isVisible()); // no run yet: what to do, not dummy axes
        QVERIFY(!w.dashboard()->plot(0)->isVisible());
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit" });
        QVERIFY(done.wait(120000));
        QCustomPlot* p = w.dashboard()->plot(0);
        const QCPRange full = p->xAxis->range();
        p->xAxis->setRange(full.lower + 1, full.lower + 2); // zoomed in
        auto* reset = w.findChild<QAction*>("resetZoomAction");
        QVERIFY(reset);
        QCOMPARE(reset->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
        reset->trigger();
        QCOMPARE(w.dashboard()->runs().size(), std::size_t(2));
        for (int i = 0; i < w.dashboard()->plotCount(); ++i)
            QCOMPARE(w.dashboard()->plot(i)->graphCount(), 2);
        QVERIFY(std::abs(p->xAxis->range().lower - full.lower) < 1e-6);
        QVERIFY(std::abs(p->xAxis->range().upper - full.upper) < 1e-6);
        QVERIFY(!w.dashboard()->readout().contains("no runs"));
        QVERIFY(!empty->isVisible() && p->isVisible());
        reset->trigger(); // twice in a row too
        QCOMPARE(w.dashboard()->plot(2)->graphCount(), 2);
    }

    void fitsA1024PixelScreen()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit", "k8s-default", "fgd" }); // legends, lists and tables filled
        QVERIFY(done.wait(120000));
        for (int tab = 0; tab < 4; ++tab) {
            w.showTab(tab);
            w.resize(1024, 700);
            QCoreApplication::processEvents();
            if (w.width() > 1024)
                for (QWidget* c : w.findChildren<QWidget*>())
                    if (c->isVisible() && c->minimumSizeHint().width() > 200)
                        qInfo("%s %s min %d (in %s)", c->metaObject()->className(), qPrintable(c->objectName()), c->minimumSizeHint().width(),
                            c->parentWidget() ? c->parentWidget()->metaObject()->className() : "");
            QVERIFY2(w.width() <= 1024 && w.minimumSizeHint().width() <= 1024, qPrintable(QString("tab %1: width %2, minimum %3").arg(tab).arg(w.width()).arg(w.minimumSizeHint().width())));
        }
    }

    void boxZoomYZoomDocksAndModeControls()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        // timed trace, auto mode: queue and backfill apply, the fill ratio does not
        auto* queue = w.findChild<QComboBox*>("queueBox");
        auto* ratio = w.findChild<QDoubleSpinBox*>("ratioBox");
        auto* head = w.findChild<QComboBox*>("headBox");
        auto* trim = w.findChild<QCheckBox*>("trimBox");
        QVERIFY(queue && ratio && head && trim);
        QVERIFY(queue->isEnabled() && head->isEnabled() && !ratio->isEnabled() && !trim->isEnabled());
        w.findChild<QComboBox*>("modeBox")->setCurrentIndex(2);
        QVERIFY(!queue->isEnabled() && !head->isEnabled() && ratio->isEnabled() && trim->isEnabled());
        ratio->setValue(1.1);
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().back().fill->ratio, 1.1);
        // The sample asks for ~13x the GPUs: trimmed, and the status bar says so.
        QVERIFY(w.results().back().fill->podsRemoved > 3000);
        bool said = false;
        for (const QLabel* l : w.statusBar()->findChildren<QLabel*>())
            said = said || l->text().contains("pods removed at random");
        QVERIFY(said);
        trim->setChecked(false);
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().back().fill->podsRemoved, int64_t(0));
        QCOMPARE(w.results().back().fill->pods, w.results().back().fill->originalPods);
        // Ctrl+drag zooms into the box, in x and y
        QCustomPlot* p = w.dashboard()->plot(0);
        const QCPRange x0 = p->xAxis->range(), y0 = p->yAxis->range();
        const QRect r = p->axisRect()->rect();
        const QPoint a = r.topLeft() + QPoint(r.width() / 4, r.height() / 4), b = r.topLeft() + QPoint(r.width() / 2, r.height() / 2);
        QTest::mousePress(p, Qt::LeftButton, Qt::ControlModifier, a);
        QMouseEvent move(QEvent::MouseMove, b, p->mapToGlobal(b), Qt::NoButton, Qt::LeftButton, Qt::ControlModifier);
        QCoreApplication::sendEvent(p, &move);
        QTest::mouseRelease(p, Qt::LeftButton, Qt::ControlModifier, b);
        QVERIFY2(p->xAxis->range().size() < 0.5 * x0.size(), qPrintable(QString::number(p->xAxis->range().size())));
        QVERIFY(p->yAxis->range().size() < 0.5 * y0.size());
        QVERIFY(std::abs(w.dashboard()->plot(1)->xAxis->range().lower - p->xAxis->range().lower) < 1e-9); // linked
        // the readout carries units, its tooltip names every value
        w.dashboard()->setCursorX(p->xAxis->range().center());
        QVERIFY2(w.dashboard()->readout().contains(QStringLiteral("\u00a0%")), qPrintable(w.dashboard()->readout()));
        QVERIFY(w.dashboard()->readout(true).contains("GPU allocation (%): "));
        // every dock can be brought back from the View menu
        auto* runsDock = w.findChild<QDockWidget*>("runsDock");
        runsDock->close();
        QVERIFY(!runsDock->isVisible());
        runsDock->toggleViewAction()->trigger();
        QVERIFY(runsDock->isVisible());
        QMenu* view = nullptr;
        for (QAction* m : w.menuBar()->actions())
            if (m->text() == "&View")
                view = m->menu();
        QVERIFY(view && view->actions().contains(runsDock->toggleViewAction()));
    }

    void controlsFollowTheTraceAndRunsStayDistinct()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        auto* mode = w.findChild<QComboBox*>("modeBox");
        // one policy in both modes: different labels and colours
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        mode->setCurrentIndex(1);
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        mode->setCurrentIndex(2);
        w.runPolicies({ "bestfit" });
        QVERIFY(done.wait(120000));
        QCOMPARE(w.results().size(), std::size_t(2));
        const views::RunResult &a = w.results()[0], &b = w.results()[1];
        QVERIFY(a.isFill() != b.isFill());
        QVERIFY2(a.label != b.label, a.label.c_str());
        QVERIFY(w.dashboard()->colourOf(a.policy) != w.dashboard()->colourOf(b.policy));
        // a CPU-only SWF with fill selected: timed mode, CPU metrics and timed training, said so
        QVERIFY(openAndWait(w, { test::dataPath("tiny/jobs.swf") }));
        QCOMPARE(mode->currentIndex(), 0);
        QCOMPARE(w.dashboard()->utilization(), views::DashboardWidget::Utilization::Cpu);
        QCOMPARE(w.trainingPanel()->request().mode, sim::RunMode::Timed);
        QVERIFY(w.findChild<QComboBox*>("queueBox")->isEnabled());
        // a training window with too few jobs is refused before it starts, with the reason
        QVERIFY(w.newProject(m_dir.filePath("few.schedlab")));
        QVERIFY(!w.startTraining(w.trainingPanel()->request()));
        QVERIFY2(w.bannerText().contains("too few to train"), qPrintable(w.bannerText()));
        // baselines typed by the user survive a mode switch; the defaults follow it
        auto* baselines = w.trainingPanel()->findChild<QLineEdit*>("trainBaselines");
        QVERIFY(baselines);
        QCOMPARE(baselines->text(), QString("firstfit,bestfit"));
        baselines->setText("bestfit");
        w.trainingPanel()->setMode(sim::RunMode::Fill);
        QCOMPARE(baselines->text(), QString("bestfit"));
    }

    void rewardWeightsTypedUndoneAndTheDockKeepsItsWidth()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>("rewardDock");
        dock->raise();
        QCoreApplication::processEvents();
        views::RewardEditor* e = w.rewardEditor();
        QDoubleSpinBox* balance = e->weightSpin(0);
        const double before = balance->value();
        const int width = dock->width();
        balance->setFocus();
        balance->selectAll();
        QTest::keyClicks(balance, "0.80");
        QTest::keyClick(balance, Qt::Key_Return);
        QCOMPARE(balance->value(), 0.80); // the typed value, not 0 after the first key
        QCOMPARE(e->config().balance, 0.80);
        QCOMPARE(e->undoStack()->count(), 1); // one edit, not one per key
        QCoreApplication::processEvents();
        QCOMPARE(dock->width(), width); // the Undo button keeps its label; the long text is its tooltip
        if (qEnvironmentVariableIsSet("SCHEDLAB_TEST_SHOTS"))
            w.grab().save(qEnvironmentVariable("SCHEDLAB_TEST_SHOTS") + "/reward.png");
        auto* undo = w.findChild<QAction*>("undoAction");
        QVERIFY(undo);
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        undo->trigger(); // Edit > Undo (Ctrl+Z)
        QCOMPARE(balance->value(), before);
    }

    void swfLogsSplitIntoNodesFromTheTraceDock()
    {
        // A log with its .machines file (as the Parallel Workloads Archive ships them).
        const std::string swf = test::writeFile(m_dir, "cluster.swf", test::readFile(test::dataPath("tiny/jobs.swf")));
        test::writeFile(m_dir, "cluster.swf.machines", "0\ttiny\t4\t2\t1\t1048576\n");
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { swf }));
        auto* procs = w.findChild<QSpinBox*>("procsPerNode");
        QVERIFY(procs && procs->isVisible());
        QCOMPARE(procs->value(), 2); // from the .machines file
        auto* summary = w.findChild<views::TraceSummaryView*>();
        QVERIFY2(summary->summaryText().startsWith("cluster model: one pool of 8 processors"), qPrintable(summary->summaryText()));
        QSignalSpy opened(&w, &app::MainWindow::traceOpened);
        QTest::mouseClick(w.findChild<QPushButton*>("procsPerNodeReload"), Qt::LeftButton);
        QVERIFY(opened.wait(120000));
        QVERIFY(opened[0][0].toBool());
        QVERIFY2(summary->summaryText().startsWith("cluster model: 4 nodes of 2 processors"), qPrintable(summary->summaryText()));
        QCOMPARE(procs->value(), 2);
        // not an SWF trace: no such control
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QVERIFY(!procs->isVisible());
    }

    void docksPerTabAreRemembered()
    {
        QSettings().remove("tabDocks");
        app::MainWindow w;
        w.setInteractive(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* trace = w.findChild<QDockWidget*>("traceDock");
        auto* reward = w.findChild<QDockWidget*>("rewardDock");
        QVERIFY(trace->toggleViewAction()->isChecked());
        w.showTab(3); // Incidents: the table gets the Trace dock's width
        QVERIFY(!trace->toggleViewAction()->isChecked());
        QVERIFY(reward->toggleViewAction()->isChecked()); // behind Policies, still open
        trace->toggleViewAction()->trigger(); // the user wants it here
        w.showTab(0);
        QVERIFY(trace->toggleViewAction()->isChecked());
        w.showTab(3);
        QVERIFY(trace->toggleViewAction()->isChecked()); // remembered for the Incidents tab
        QSettings().remove("tabDocks");
    }

    void saveAsAddsTheProjectExtension()
    {
        app::MainWindow w;
        w.setInteractive(false);
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit" });
        QVERIFY(done.wait(120000));
        const QString bare = m_dir.filePath("openb");
        QVERIFY2(w.saveProjectAs(bare), qPrintable(w.bannerText()));
        QVERIFY(QFileInfo::exists(bare + ".schedlab"));
        // saved: opening another trace (two files) has nothing to ask about
        QVERIFY(!w.hasUnsavedRuns());
        QVERIFY(openAndWait(w, { test::dataPath("tiny/nodes.csv"), test::dataPath("tiny/pods.csv") }));
        QVERIFY(!w.hasUnsavedRuns());
        QVERIFY(!w.isWindowModified());
        QVERIFY(!QFileInfo::exists(bare));
        QCOMPARE(w.projectPath(), QFileInfo(bare + ".schedlab").absoluteFilePath());
        QVERIFY(w.newProject(m_dir.filePath("second")));
        QVERIFY(QFileInfo::exists(m_dir.filePath("second.schedlab")));
        QVERIFY2(w.saveProjectAs(m_dir.filePath("third.db")), qPrintable(w.bannerText())); // an extension of the user's own stays
        QVERIFY(QFileInfo::exists(m_dir.filePath("third.db")));
    }
};

QTEST_MAIN(TestWorkbenchRound2)
#include "test_workbench_round2.moc"
