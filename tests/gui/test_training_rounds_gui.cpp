// Training rounds in the workbench: a round shown in its own mode and trace, a teacher round first,
// the Reward dock's weights (typed, undone), driven through the real window offscreen.

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

class TestTrainingRoundsGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks"); // docks per tab from an earlier run must not change this one
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

};

QTEST_MAIN(TestTrainingRoundsGui)
#include "test_training_rounds_gui.moc"
