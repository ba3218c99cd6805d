// The first look at real traces in the workbench at 1280x800 (label real): the mode "auto"
// picks for each, the axes that go with it (dates for SWF, arrived workload for fill), tick
// labels that never run into each other on any plot, and an explicit choice remembered per trace.

#include "tick_labels.h"
#include "open_and_wait.h"
#include "test_util.h"

#include "dashboard_widget.h"
#include "heatmap_widget.h"
#include "trace_summary_view.h"
#include "main_window.h"
#include "trace_overview_widget.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace schedlab;
using schedlab::test::openAndWait;

namespace {
std::string shared(const char* rel) { return test::realTrace(rel); }

// Every plot of the Dashboard tab: the overview strip, the three plots and the heatmap.
std::vector<std::pair<QString, QCustomPlot*>> dashboardPlots(app::MainWindow& w)
{
    std::vector<std::pair<QString, QCustomPlot*>> out { { "overview", w.traceOverview()->plot() } };
    for (int i = 0; i < w.dashboard()->plotCount(); ++i)
        out.push_back({ QStringLiteral("plot %1").arg(i), w.dashboard()->plot(i) });
    out.push_back({ "heatmap", w.dashboard()->heatmap()->plot() });
    return out;
}

QString overlaps(app::MainWindow& w)
{
    QStringList found;
    for (auto& [name, plot] : dashboardPlots(w)) {
        if (!plot->isVisible())
            continue;
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (QCPAxis* axis : { plot->xAxis, plot->yAxis }) {
            const QString o = test::tickLabelOverlap(axis);
            if (!o.isEmpty())
                found << QStringLiteral("%1 %2: %3").arg(name, axis == plot->xAxis ? "x" : "y", o);
        }
    }
    return found.join("; ");
}

QString modeNote(app::MainWindow& w) { return w.findChild<QLabel*>("modeNote")->text(); }
} // namespace

class TestFirstLook : public QObject {
    Q_OBJECT
private:
    // Opens `files` at 1280x800 with no options, runs two policies; the window stays for checks.
    bool openAndRun(app::MainWindow& w, const std::vector<std::string>& files)
    {
        w.resize(1280, 800);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w) || !openAndWait(w, files))
            return false;
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit" });
        if (!done.wait(240000))
            return false;
        QTest::qWait(50); // the layout after the runs' legends arrived
        // Listed in the order asked for, whichever finished first.
        return w.results().size() == 2 && w.results()[0].spec.policy == "firstfit" && w.results()[1].spec.policy == "bestfit";
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("traceMode"); // choices of an earlier run must not decide this one
        QSettings().remove("tabDocks");
    }

    void openbPairOpensInFill()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow w;
        QVERIFY(openAndRun(w, { shared("alibaba-gpu-v2023/openb_node_list_gpu_node.csv"),
                                 shared("alibaba-gpu-v2023/openb_pod_list_default.csv") }));
        QCOMPARE(w.findChild<QComboBox*>("modeBox")->currentText(), QStringLiteral("auto"));
        QVERIFY2(modeNote(w).startsWith("auto: fill experiment"), qPrintable(modeNote(w)));
        QVERIFY(w.results()[0].isFill());
        QCOMPARE(w.dashboard()->plot(0)->xAxis->label(), QStringLiteral("arrived GPU workload (%)"));
        auto* sw = w.findChild<QPushButton*>("modeSwitch");
        QVERIFY(sw->isVisible());
        QVERIFY2(sw->text().contains("timed replay"), qPrintable(sw->text()));
        const QString o = overlaps(w);
        QVERIFY2(o.isEmpty(), qPrintable(o));
    }

    void hpc2nTimedWithDates()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow w;
        QVERIFY(openAndRun(w, { shared("pwa-swf/hpc2n.swf") }));
        QVERIFY2(modeNote(w).startsWith("auto: timed replay"), qPrintable(modeNote(w)));
        QVERIFY(!w.results()[0].isFill());
        QCOMPARE(w.dashboard()->plot(0)->xAxis->label(), QStringLiteral("date (UTC, 2002)"));
        const QStringList labels = w.dashboard()->plot(0)->xAxis->tickVectorLabels();
        QVERIFY2(!labels.isEmpty() && labels.first().contains('-'), qPrintable(labels.join(" | ")));
        // The busiest week of 61 days, not the whole span.
        QVERIFY2(w.traceOverview()->windowText().contains("2002-"), qPrintable(w.traceOverview()->windowText()));
        QVERIFY2(w.traceOverview()->windowText().contains("of 61 d"), qPrintable(w.traceOverview()->windowText()));
        const QString o = overlaps(w);
        QVERIFY2(o.isEmpty(), qPrintable(o));
    }

    void googlePartZeroTimed()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow w;
        QVERIFY(openAndRun(w, { shared("google-2011/machine_events/part-00000-of-00001.csv.gz"),
                                 shared("google-2011/task_events/part-00000-of-00500.csv.gz") }));
        QVERIFY2(modeNote(w).startsWith("auto: timed replay"), qPrintable(modeNote(w)));
        QVERIFY(!w.results()[0].isFill());
        QCOMPARE(w.dashboard()->plot(0)->xAxis->label(), QStringLiteral("time since first submit"));
        const QString o = overlaps(w);
        QVERIFY2(o.isEmpty(), qPrintable(o));
    }

    void sampleTimedAndAChoiceIsRemembered()
    {
        {
            app::MainWindow w;
            QVERIFY(openAndRun(w, { SCHEDLAB_SAMPLE }));
            QVERIFY2(modeNote(w).startsWith("auto: timed replay"), qPrintable(modeNote(w)));
            QVERIFY(!w.results()[0].isFill());
            const QString o = overlaps(w);
            QVERIFY2(o.isEmpty(), qPrintable(o));
            // The Trace dock's summary is a form, the full text one menu away.
            auto* summary = w.findChild<views::TraceSummaryView*>();
            QVERIFY(summary);
            QCOMPARE(summary->rowValue("format"), QStringLiteral("generated"));
            QCOMPARE(summary->rowValue("nodes"), QStringLiteral("64 (56 with GPUs)"));
            QCOMPARE(summary->rowValue("jobs"), QStringLiteral("4000 (4188 tasks)"));
            QCOMPARE(summary->rowValue("warnings"), QStringLiteral("0"));
            QVERIFY2(summary->summaryText().contains("4188"), qPrintable(summary->summaryText()));
            // The heatmap's colour range and node order follow the visible window.
            views::HeatmapWidget* heat = w.dashboard()->heatmap();
            QVERIFY(heat->sortByLoad());
            QCPColorMapData* cells = heat->colorMap()->data();
            auto checkWindow = [&](double lower, double upper) {
                heat->setXRange(lower, upper);
                const int nodes = cells->valueSize();
                std::vector<double> load(std::size_t(nodes), 0.0);
                double top = 0;
                for (int n = 0; n < nodes; ++n)
                    for (int c = 0; c < cells->keySize(); ++c) {
                        double x = 0;
                        cells->cellToCoord(c, 0, &x, nullptr);
                        if (x < lower || x > upper)
                            continue;
                        const double v = heat->valueAt(x, n);
                        load[std::size_t(n)] += v;
                        top = std::max(top, v);
                    }
                if (heat->colourMax() != top)
                    return -1.0;
                for (int row = 1; row < nodes; ++row) // busiest on top (the last row)
                    if (load[std::size_t(heat->nodeOfRow(row - 1))] > load[std::size_t(heat->nodeOfRow(row))])
                        return -2.0;
                return top;
            };
            const double whole = checkWindow(0, 40);
            QVERIFY(whole > 0);
            const double late = checkWindow(34, 40);
            QVERIFY(late > 0 && late < whole);
            // One click switches to fill and is remembered for this trace.
            QTest::mouseClick(w.findChild<QPushButton*>("modeSwitch"), Qt::LeftButton);
            QCOMPARE(w.findChild<QComboBox*>("modeBox")->currentText(), QStringLiteral("fill experiment"));
            QVERIFY2(modeNote(w).contains("chosen for this trace"), qPrintable(modeNote(w)));
        }
        app::MainWindow again;
        again.resize(1280, 800);
        again.show();
        QVERIFY(openAndWait(again, { SCHEDLAB_SAMPLE }));
        QCOMPARE(again.findChild<QComboBox*>("modeBox")->currentText(), QStringLiteral("fill experiment"));
        // Another trace is not affected.
        SCHEDLAB_REQUIRE_REAL_TRACES();
        app::MainWindow other;
        QVERIFY(openAndWait(other, { shared("pwa-swf/hpc2n.swf") }));
        QCOMPARE(other.findChild<QComboBox*>("modeBox")->currentText(), QStringLiteral("auto"));
    }
};

QTEST_MAIN(TestFirstLook)
#include "test_first_look.moc"
