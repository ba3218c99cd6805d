// The Comparison tab, the dashboard's zoom and the decision inspector, driven through the real
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

class TestComparisonGui : public QObject {
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

};

QTEST_MAIN(TestComparisonGui)
#include "test_comparison_gui.moc"
