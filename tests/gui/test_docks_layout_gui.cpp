// The window's docks and layout: the Policies dock's controls (mode, making room), the Trace dock
// (SWF nodes), docks per tab, a 1024 px screen, box and y zoom, Save As; driven through the real
// window offscreen.

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

class TestDocksLayoutGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks"); // docks per tab from an earlier run must not change this one
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

QTEST_MAIN(TestDocksLayoutGui)
#include "test_docks_layout_gui.moc"
