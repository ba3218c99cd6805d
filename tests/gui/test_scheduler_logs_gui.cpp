// Production scheduler logs in the workbench, driven through the real window offscreen: the Trace
// dock says what a decision log holds; a generated kube-scheduler log folder replays as logged and
// the inspector shows the scheduler's own candidates and per-plugin scores beside ours; the
// Policies dock's KubeSchedulerConfiguration is checked, used by k8s-default and remembered.

#include "open_and_wait.h"
#include "test_util.h"

#include "incident_panel.h"
#include "inspector_widget.h"
#include "trace_summary_view.h"

#include "incident/run_index.h"
#include "main_window.h"
#include "store/sweep_plan.h"

#include <QLineEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace schedlab;
using schedlab::test::openAndWait;

class TestSchedulerLogsGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests-logs");
        QSettings().clear();
    }

    void traceDockListsLoggedDecisions()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openAndWait(w, { schedlab::test::dataPath("decision-log/small.jsonl") }));
        auto* summary = w.findChild<views::TraceSummaryView*>("traceSummary");
        QVERIFY(summary);
        const QString logged = summary->rowValue(tr("logged decisions"));
        QVERIFY2(logged.startsWith("4: 2 placed, 1 unschedulable (3 attempts, 1 tasks), 1 waited"), qPrintable(logged));
        // The bad score on line 11 and batch-7, which no node can hold (the CLI test names both).
        QVERIFY2(summary->rowValue(tr("warnings")) == "2", qPrintable(summary->rowValue(tr("warnings"))));
    }

    void inspectorShowsTheLoggedCandidates()
    {
        const QString cluster = m_dir.filePath("cluster");
        QProcess gen;
        gen.start(SCHEDLAB_CLI, { "generate", "--kube-scheduler-log", cluster, "--nodes", "30", "--jobs", "120", "--seed", "5" });
        QVERIFY(gen.waitForFinished(120000));
        QCOMPARE(gen.exitCode(), 0);

        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        trace::ImportOptions o;
        o.logYear = 2023;
        QSignalSpy opened(&w, &app::MainWindow::traceOpened);
        QVERIFY(w.openTrace({ cluster.toStdString() }, o)); // the folder: dump and log together
        QVERIFY(opened.wait(120000));
        QVERIFY(opened[0][0].toBool());
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "logged" });
        QVERIFY(done.wait(120000));

        views::IncidentPanel* panel = w.incidentPanel();
        panel->findChild<QLineEdit*>("rescorePolicies")->setText("k8s-default");
        QSignalSpy indexed(panel, &views::IncidentPanel::indexed);
        QVERIFY(panel->selectRun(w.results().front().id));
        QVERIFY(indexed.wait(120000));
        QVERIFY(indexed[0][0].toBool());
        const auto& ds = panel->runIndex()->decisions.decisions();
        const auto placed = std::find_if(ds.begin() + 20, ds.end(), [](const sim::Decision& d) { return d.outcome == sim::Outcome::Placed; });
        QVERIFY(placed != ds.end());
        panel->selectDecision(int64_t(placed - ds.begin()));
        QTableWidget* t = panel->inspector()->candidateTable();
        QCOMPARE(t->horizontalHeaderItem(3)->text(), QString("log: node"));
        QCOMPARE(t->horizontalHeaderItem(5)->text(), QString("k8s-default node"));
        // The scheduler's choice is marked L; its best score equals k8s-default's best; the score's
        // tooltip lists the plugins.
        bool marked = false;
        for (int r = 0; r < t->rowCount(); ++r)
            marked = marked || (t->item(r, 3) && t->item(r, 3)->text() == QString("%1 L").arg(placed->node));
        QVERIFY(marked);
        QCOMPARE(t->item(0, 4)->text(), t->item(0, 6)->text());
        QVERIFY2(t->item(0, 4)->toolTip().contains("NodeResourcesFit = "), qPrintable(t->item(0, 4)->toolTip()));
        QVERIFY2(panel->inspector()->headerText().contains("Logged</b> by kube-scheduler log: placed on node"),
            qPrintable(panel->inspector()->headerText()));
        w.showTab(3); // Incidents
        const QString shot = m_dir.filePath("inspector.png");
        QVERIFY(w.grab().save(shot));
        if (const QByteArray keep = qgetenv("SCHEDLAB_SCREENSHOT_DIR"); !keep.isEmpty())
            w.grab().save(QString::fromLocal8Bit(keep) + "/inspector-logged.png");
    }

    // Run > Plan Sweep: the open trace, the checked policies and seeds, the dock's mode, written as
    // a plan the CLI's sweep commands read (store/sweep_plan.h).
    void planSweepFromTheDocks()
    {
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(!w.planSweep(m_dir.filePath("none.sweep"), 2)); // no trace yet
        QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
        auto* seeds = w.findChild<QLineEdit*>("seedsEdit");
        QVERIFY(seeds);
        seeds->setText("1-5");
        const QString path = m_dir.filePath("study.sweep");
        QVERIFY(w.planSweep(path, 3));
        auto plan = store::readSweepPlan(path.toStdString());
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().toString().c_str());
        QCOMPARE(plan->shards, 3);
        QCOMPARE(int(plan->cells.size()), 4 * 5); // the 4 policies checked by default x 5 seeds
        QCOMPARE(plan->cells[0].spec.isFill(), w.baseSpec().isFill());
        QCOMPARE(plan->traces[0].files.size(), std::size_t(1));
    }

    void schedulerConfigIsCheckedUsedAndRemembered()
    {
        const std::string good = schedlab::test::writeFile(m_dir, "most.yaml",
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n"
            "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n");
        const std::string bad = schedlab::test::writeFile(m_dir, "bad.yaml", "apiVersion: v1\nkind: Pod\n");
        {
            app::MainWindow w;
            w.setInteractive(false);
            w.show();
            QCOMPARE(w.schedulerConfigLabel(), QString("built-in"));
            QVERIFY(!w.setSchedulerConfig(QString::fromStdString(bad)));
            QCOMPARE(w.schedulerConfigLabel(), QString("built-in")); // nothing changed
            QVERIFY(w.setSchedulerConfig(QString::fromStdString(good)));
            QCOMPARE(w.schedulerConfigLabel(), QString("most.yaml"));
            QVERIFY(openAndWait(w, { SCHEDLAB_SAMPLE }));
            QSignalSpy done(&w, &app::MainWindow::batchDone);
            w.runPolicies({ "k8s-default", "bestfit" });
            QVERIFY(done.wait(300000));
            QCOMPARE(int(w.results().size()), 2);
            for (const auto& r : w.results()) {
                const bool k8s = r.spec.policy == "k8s-default";
                QCOMPARE(QString::fromStdString(r.label).contains("(configured)"), k8s);
                QVERIFY(r.spec.schedulerConfig.find("MostAllocated") != std::string::npos);
            }
        }
        app::MainWindow again; // remembered
        QCOMPARE(again.schedulerConfigLabel(), QString("most.yaml"));
        QVERIFY(again.setSchedulerConfig({}));
        QCOMPARE(app::MainWindow().schedulerConfigLabel(), QString("built-in"));
    }
};

QTEST_MAIN(TestSchedulerLogsGui)
#include "test_scheduler_logs_gui.moc"
