// The Training tab with making room and safety budgets: the choices reach the round, a budget
// that does not parse is refused before any work, the constraint plot shows each budget with its
// value and multiplier, and a round whose evaluation ended over budget is marked in the lineage.

#include "open_and_wait.h"

#include "training_panel.h"

#include "main_window.h"
#include "rl/fine_tune.h"
#include "workflow/fine_tune_session.h"
#include "store/project.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace schedlab;
using schedlab::test::openAndWait;

class TestTrainingRoomGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks");
    }

    void budgetsAreTrainedPlottedAndMarked()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        const std::string projectPath = m_dir.filePath("room.schedlab").toStdString();
        QVERIFY(w.newProject(QString::fromStdString(projectPath)));
        views::TrainingPanel* panel = w.trainingPanel();
        QVERIFY(!panel->roomBox()->isEnabled() && !panel->budgetsEdit()->isEnabled()); // fill mode: timed only
        panel->modeBox()->setCurrentIndex(1);
        QVERIFY(panel->roomBox()->isEnabled() && panel->budgetsEdit()->isEnabled());
        panel->episodesBox()->setValue(2);
        panel->roomBox()->setCurrentIndex(1); // migrate
        // A budget that does not parse: refused with the reason, nothing trained.
        panel->budgetsEdit()->setText("migrations=-2");
        QSignalSpy trained(&w, &app::MainWindow::trainingDone);
        QTest::mouseClick(panel->startButton(), Qt::LeftButton);
        QVERIFY(!trained.wait(300));
        QVERIFY2(panel->findChild<QProgressBar*>()->format().contains("migrations budget must be >= 0"),
            qPrintable(panel->findChild<QProgressBar*>()->format()));
        QCOMPARE(panel->lineage()->topLevelItemCount(), 0);

        panel->budgetsEdit()->setText("sla=0,migrations=0,rate=1");
        const views::TrainRequest req = panel->request();
        QCOMPARE(req.migration, sim::Migration::Defragment);
        QCOMPARE(req.preemption, sim::Preemption::None);
        QCOMPARE(req.constraints.toString(), std::string("sla=0,migrations=0,slaS=3600,rate=1"));
        QVERIFY(panel->constraintPlot()->isHidden()); // nothing to plot yet
        QVERIFY(w.startTraining(req));
        QVERIFY(trained.wait(180000));
        // Two constraints x (value, budget, multiplier) over the two episodes.
        QCustomPlot* plot = panel->constraintPlot();
        QVERIFY(!plot->isHidden());
        QCOMPARE(plot->graphCount(), 6);
        QCOMPARE(plot->graph(0)->name(), QString("sla %"));
        QCOMPARE(plot->graph(3)->name(), QString("migrations/h"));
        QCOMPARE(plot->graph(5)->name(), QString::fromUtf8("λ migrations"));
        QCOMPARE(plot->graph(0)->dataCount(), 2);
        QCOMPARE(plot->graph(2)->data()->at(0)->value, 0.0); // the first episode trains without a price
        QCOMPARE(plot->graph(4)->data()->at(1)->value, 0.0); // budget 0
        // The second multiplier is the dual-ascent step from the first episode's value.
        const double v1 = plot->graph(3)->data()->at(0)->value;
        QCOMPARE(plot->graph(5)->data()->at(1)->value, std::max(0.0, v1));
        // The lineage: the round, marked over budget exactly when its stored evaluation is.
        QCOMPARE(panel->lineage()->topLevelItemCount(), 1);
        QTreeWidgetItem* round = panel->lineage()->topLevelItem(0);
        auto project = store::Project::open(projectPath, store::Project::OpenMode::ReadOnly).value();
        const int64_t id = round->data(0, Qt::UserRole).toLongLong();
        const auto over = workflow::overBudget(project->roundConstraints(id).value(), project->roundEval(id).value());
        QCOMPARE(round->text(1).contains("over budget"), !over.empty());
        if (!over.empty())
            QVERIFY2(round->toolTip(1).contains(QString::fromStdString(over.front())), qPrintable(round->toolTip(1)));
        QVERIFY(round->toolTip(3).contains("migrations/h: learned"));
        // SCHEDLAB_SHOTS=DIR: the Training tab as the user sees it, for a look.
        if (const QString dir = qEnvironmentVariable("SCHEDLAB_SHOTS"); !dir.isEmpty()) {
            w.resize(1280, 800);
            if (auto* tabs = w.findChild<QTabWidget*>())
                for (int i = 0; i < tabs->count(); ++i)
                    if (tabs->tabText(i).remove('&') == "Training")
                        tabs->setCurrentIndex(i);
            QTest::qWait(200);
            QVERIFY(w.grab().save(dir + "/training-budgets.png"));
        }
    }
};

QTEST_MAIN(TestTrainingRoomGui)
#include "test_training_room_gui.moc"
