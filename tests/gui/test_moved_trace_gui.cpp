// The workbench on a project whose trace file moved: a notice names the file and the runs that
// need it, the runs' stored results draw as the fill runs they are (arrived workload, labels
// apart), locating the file brings the trace back, and the project remembers the new place.

#include "open_and_wait.h"
#include "test_util.h"
#include "tick_labels.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "incident_panel.h"
#include "main_window.h"
#include "missing_trace_notice.h"

#include "store/project.h"
#include "trace/trace_loader.h"
#include "workflow/run_recorder.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace schedlab;

class TestMovedTraceGui : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    /// A project with two fill runs on a copy of the sample at `folder`/sample.sltrace, as
    /// schedlab-cli replay --project records them; its trace id.
    int64_t makeProject(const QString& project, const QString& folder)
    {
        QDir().mkpath(m_dir.filePath(folder));
        const QString copy = m_dir.filePath(folder + "/sample.sltrace");
        if (!QFile::copy(SCHEDLAB_SAMPLE, copy))
            qFatal("cannot copy the sample");
        auto loaded = trace::loadTrace({ copy.toStdString() });
        auto p = store::Project::open(m_dir.filePath(project).toStdString());
        if (!loaded || !p)
            qFatal("cannot make the project");
        const int64_t traceId = p.value()->addTrace(loaded->trace, { copy.toStdString() }).value();
        workflow::RunRecorder recorder(*p.value(), traceId);
        for (const char* policy : { "bestfit", "fgd" })
            if (!recorder.run(sim::RunSpec::fill(policy, {}), loaded->trace).ok())
                qFatal("run failed");
        return traceId;
    }
    /// Opens `project` in `w` and waits until its runs are read (and its trace, if any, imported).
    static bool openShown(app::MainWindow& w, const QString& project)
    {
        QSignalSpy shown(&w, &app::MainWindow::projectShown);
        return w.openProject(project) && (shown.count() || shown.wait(120000));
    }
    /// The dashboard shows `runs` fill runs with data, on the arrived-workload axis, labels apart.
    static void checkFillPlots(app::MainWindow& w, int runs)
    {
        views::DashboardWidget* d = w.dashboard();
        for (int i = 0; i < d->plotCount(); ++i) {
            QCustomPlot* p = d->plot(i);
            p->replot(QCustomPlot::rpImmediateRefresh);
            QCOMPARE(p->graphCount(), runs);
            QCOMPARE(p->xAxis->label(), QString("arrived GPU workload (%)"));
            for (int g = 0; g < p->graphCount(); ++g)
                QVERIFY(p->graph(g)->data()->size() > 10);
            const QString overlap = test::tickLabelOverlap(p->xAxis);
            QVERIFY2(overlap.isEmpty(), qPrintable(QString("plot %1: %2").arg(i).arg(overlap)));
        }
        // The Comparison tab's bars are named without the mode's suffix, side by side, apart.
        w.showTab(1);
        views::ComparisonWidget* c = w.comparison();
        QVERIFY(c->chartCount() > 0);
        for (int i = 0; i < c->chartCount(); ++i) {
            QCustomPlot* chart = c->chart(i);
            chart->replot(QCustomPlot::rpImmediateRefresh);
            chart->replot(QCustomPlot::rpImmediateRefresh); // the second with the final margins
            QVERIFY2(!chart->xAxis->tickVectorLabels().join(" ").contains("(fill)"),
                qPrintable(chart->xAxis->tickVectorLabels().join(" | ")));
            QCOMPARE(chart->xAxis->tickLabelRotation(), 0.0);
            const QString overlap = test::tickLabelOverlap(chart->xAxis);
            QVERIFY2(overlap.isEmpty(), qPrintable(QString("chart %1: %2").arg(i).arg(overlap)));
        }
        w.showTab(0);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests");
        QSettings().remove("tabDocks");
    }

    void movedTraceIsNoticedLocatedAndRemembered()
    {
        const QString project = m_dir.filePath("moved.schedlab");
        const int64_t traceId = makeProject("moved.schedlab", "old");
        const QString was = m_dir.filePath("old/sample.sltrace"), now = m_dir.filePath("new place/sample.sltrace");
        QDir().mkpath(m_dir.filePath("new place"));
        QVERIFY(QFile::rename(was, now));
        {
            app::MainWindow w;
            w.setInteractive(false);
            w.resize(1280, 800);
            w.show();
            QVERIFY2(openShown(w, project), qPrintable(w.bannerText()));
            views::MissingTraceNotice* notice = w.missingTraceNotice();
            QVERIFY(notice->isVisible());
            QCOMPARE(notice->traceId(), traceId);
            QVERIFY2(notice->text().contains(was) && notice->text().contains("runs 1 and 2")
                    && notice->text().contains("could not be reopened"),
                qPrintable(notice->text()));
            QVERIFY(notice->locateButton()->isEnabled() && notice->importButton()->isEnabled());
            QVERIFY(w.bannerText().isEmpty()); // a notice, not an error
            QCOMPARE(w.results().size(), std::size_t(2));
            checkFillPlots(w, 2); // the stored results, as fill runs
            // Incident replay says why it cannot, as the CLI does.
            QSignalSpy indexed(w.incidentPanel(), &views::IncidentPanel::indexed);
            QVERIFY(w.incidentPanel()->selectRun(w.results()[0].id));
            QVERIFY(indexed.wait(60000));
            QVERIFY(!indexed[0][0].toBool());
            QVERIFY2(indexed[0][1].toString().contains("could not be reopened"), qPrintable(indexed[0][1].toString()));

            // A file with other content is refused, and nothing changes.
            const QString other = QString::fromStdString(test::writeFile(m_dir, "other.sltrace", "not the trace\n"));
            QSignalSpy relocated(&w, &app::MainWindow::traceRelocated);
            QVERIFY(w.relocateTrace(traceId, other, false));
            QVERIFY(relocated.wait(60000));
            QVERIFY(!relocated[0][0].toBool());
            QVERIFY2(w.bannerText().contains("not the trace of these runs"), qPrintable(w.bannerText()));
            QVERIFY(notice->isVisible());

            // The file where it is now: the notice goes and the trace opens.
            QSignalSpy opened(&w, &app::MainWindow::traceOpened);
            QVERIFY(w.relocateTrace(traceId, now, false));
            QVERIFY(relocated.wait(60000));
            QVERIFY2(relocated[1][0].toBool(), qPrintable(relocated[1][1].toString()));
            QVERIFY(!notice->isVisible());
            QVERIFY(opened.wait(120000));
            QVERIFY(opened[0][0].toBool());
            QVERIFY(w.windowTitle().contains("sample"));
            checkFillPlots(w, 2);
        }
        // Reopened: the project found the file at its new place.
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy opened(&w, &app::MainWindow::traceOpened);
        QVERIFY(openShown(w, project));
        QVERIFY(!w.missingTraceNotice()->isVisible());
        QCOMPARE(opened.count(), 1); // the runs' trace was reopened from there
        QVERIFY(w.windowTitle().contains("sample"));
        auto p = store::Project::open(project.toStdString(), store::Project::OpenMode::ReadOnly);
        QVERIFY(p);
        QCOMPARE(p.value()->traceFiles(traceId).value(),
            std::vector<std::string> { QFileInfo(now).absoluteFilePath().toStdString() });
    }

    void importedTraceNeedsTheFileNoMore()
    {
        const QString project = m_dir.filePath("imported.schedlab");
        const int64_t traceId = makeProject("imported.schedlab", "gone");
        const QString now = m_dir.filePath("found/sample.sltrace");
        QDir().mkpath(m_dir.filePath("found"));
        QVERIFY(QFile::rename(m_dir.filePath("gone/sample.sltrace"), now));
        {
            app::MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(openShown(w, project));
            QVERIFY(w.missingTraceNotice()->isVisible());
            QSignalSpy relocated(&w, &app::MainWindow::traceRelocated);
            QVERIFY(w.relocateTrace(traceId, now, true));
            QVERIFY(relocated.wait(120000));
            QVERIFY2(relocated[0][0].toBool(), qPrintable(relocated[0][1].toString()));
            QVERIFY(!w.missingTraceNotice()->isVisible());
        }
        QVERIFY(QFile::remove(now));
        app::MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(openShown(w, project));
        QVERIFY(!w.missingTraceNotice()->isVisible()); // the project holds the trace itself now
        checkFillPlots(w, 2);
        // Incident replay reads the project's copy (no trace is open: its files are gone).
        QSignalSpy indexed(w.incidentPanel(), &views::IncidentPanel::indexed);
        QVERIFY(w.incidentPanel()->selectRun(w.results()[0].id));
        QVERIFY(indexed.wait(120000));
        QVERIFY2(indexed[0][0].toBool(), qPrintable(indexed[0][1].toString()));
    }
};

QTEST_MAIN(TestMovedTraceGui)
#include "test_moved_trace_gui.moc"
