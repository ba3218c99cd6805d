// schedlab: the desktop workbench.
//   schedlab [FILE...]                   open the files as one trace (default: the bundled sample) and
//                                        replay the default policies
//   schedlab PROJECT.schedlab            open a project and show its newest runs
//   schedlab [PROJECT.schedlab] S.sweep  follow a sweep plan's shard files in the Sweeps tab
//   schedlab --load LOAD [--service F]   replay a request load in the Autoscaling tab
//   schedlab --screenshot OUT.png [--policies a,b] [FILE...]
//                                        the same offscreen-able: when the runs finish, save the
//                                        window to OUT.png and exit

#include "base/process_tuning.h"
#include "dashboard_widget.h"
#include "bench_step.h"
#include "main_window.h"
#include "training_panel.h"

#include <QTreeWidget>

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

namespace {
int tabIndex(const QString& name)
{
    return name == "comparison" ? 1 : name == "training" ? 2 : name == "incidents" ? 3 : name == "sweeps" ? 4 : name == "autoscaling" ? 5 : 0;
}

QString bundledSample()
{
    for (const QString& candidate :
        { QStringLiteral(SCHEDLAB_SOURCE_DIR "/samples/sample.sltrace"), QStringLiteral("samples/sample.sltrace") })
        if (QFileInfo::exists(candidate))
            return candidate;
    return {};
}
// Three runs with 1,000,000 series points each in all three plots; times full replots.
int benchmarkReplot()
{
    using namespace schedlab;
    views::DashboardWidget dash;
    dash.resize(1400, 500);
    dash.show();
    std::vector<views::RunResult> runs;
    for (int r = 0; r < 3; ++r) {
        auto timed = std::make_shared<sim::TimedResult>();
        timed->series.resize(1'000'000);
        for (int i = 0; i < 1'000'000; ++i) {
            sim::SeriesPoint& p = timed->series[std::size_t(i)];
            p.timeS = i * 60.0;
            p.p99WaitS = 100 + 50 * std::sin(i * 0.001 + r) + (i % 97);
            p.gpuFragRate = 0.3 + 0.1 * std::sin(i * 0.0007 + r);
            p.gpuUtil = 0.5 + 0.4 * std::sin(i * 0.0003 + r);
        }
        views::RunResult run;
        run.spec = sim::RunSpec::timed("policy" + std::to_string(r), {});
        run.id = r + 1;
        run.policy = run.spec.policy;
        run.label = "run " + std::to_string(r);
        run.timed = timed;
        runs.push_back(run);
    }
    QElapsedTimer load;
    load.start();
    dash.setRuns(runs);
    const double loadMs = double(load.nsecsElapsed()) / 1e6;
    std::vector<double> ms;
    for (int k = 0; k < 10; ++k) {
        // alternate between full range and a zoom so each replot really redraws
        dash.plot(0)->xAxis->setRange(k % 2 ? QCPRange(0, 60e6 / 3600) : QCPRange(1000, 1000 + 10000));
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < dash.plotCount(); ++i)
            dash.plot(i)->replot(QCustomPlot::rpImmediateRefresh);
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("dashboard with 3 runs x 1,000,000 points in each of 3 plots (9 graphs):\n");
    std::printf("  setRuns (build graphs): %.0f ms\n", loadMs);
    std::printf("  replot of the three plots: median %.1f ms, max %.1f ms (10 replots, adaptive sampling)\n", ms[ms.size() / 2],
        ms.back());
    return 0;
}
} // namespace

int main(int argc, char** argv)
{
    schedlab::enableMallocHugePages(argv); // may re-execute once; before any thread starts
    QApplication app(argc, argv);
    QApplication::setApplicationName("schedlab");
    QApplication::setOrganizationName("schedlab");

    QCommandLineParser parser;
    parser.setApplicationDescription("schedlab workbench");
    parser.addHelpOption();
    QCommandLineOption screenshot("screenshot", "Render the window to <png> once the runs finish, then exit.", "png");
    QCommandLineOption policies("policies", "Comma-separated placement policies to run at start.", "list");
    QCommandLineOption noRun("no-run", "Open the trace without running any policy.");
    QCommandLineOption tab("tab", "Tab to show at start: dashboard, comparison, training, incidents (the first run indexed), sweeps or autoscaling.", "name", "dashboard");
    QCommandLineOption load("load", "A request load to replay in the Autoscaling tab (with the default replica policies).", "file");
    QCommandLineOption service("service", "The service file for --load.", "json");
    QCommandLineOption benchReplot("bench-replot", "Time replots of the dashboard with 1,000,000 points per series.");
    QCommandLineOption benchStep("bench-step", "Time stepping through decisions in the Incidents tab (files, --policies: the first).");
    QCommandLineOption size("size", "Window size for --screenshot, WIDTHxHEIGHT (default 1280x800).", "WxH", "1280x800");
    parser.addOption(screenshot);
    parser.addOption(policies);
    parser.addOption(noRun);
    parser.addOption(benchReplot);
    parser.addOption(tab);
    parser.addOption(size);
    parser.addOption(benchStep);
    parser.addOption(load);
    parser.addOption(service);
    parser.addPositionalArgument("files", "Trace files to open as one trace (default: the bundled sample).");
    parser.process(app);

    if (parser.isSet(benchReplot))
        return benchmarkReplot();
    if (parser.isSet(benchStep)) {
        std::vector<std::string> files;
        for (const QString& f : parser.positionalArguments())
            files.push_back(f.toStdString());
        if (files.empty())
            files.push_back(bundledSample().toStdString());
        const QString policy = parser.value(policies).split(',', Qt::SkipEmptyParts).value(0, QStringLiteral("fgd"));
        return schedlab::app::benchStep(files, policy.trimmed().toStdString(), 40);
    }

    schedlab::app::MainWindow window;
    if (parser.isSet(screenshot)) {
        // A fixed size: screenshots do not depend on a saved layout.
        const QStringList wh = parser.value(size).split('x');
        const int width = wh.value(0).toInt(), height = wh.value(1).toInt();
        if (wh.size() != 2 || width < 200 || height < 200) {
            std::fprintf(stderr, "schedlab: --size takes WIDTHxHEIGHT, e.g. 1280x800\n");
            return 2;
        }
        window.resize(width, height);
        window.setInteractive(false);
    }
    std::vector<std::string> files;
    // --screenshot: the window to the PNG, then exit (0 when written).
    auto saveAndQuit = [&window, &parser, &screenshot] {
        const QString out = parser.value(screenshot);
        const bool ok = window.grab().save(out, "PNG");
        std::fprintf(ok ? stdout : stderr, "%s %s (window %dx%d)\n", ok ? "wrote" : "cannot write", qPrintable(out),
            window.width(), window.height());
        QApplication::exit(ok ? 0 : 1);
    };
    QString project, sweep;
    for (const QString& f : parser.positionalArguments())
        if (f.endsWith(".schedlab"))
            project = f;
        else if (f.endsWith(".sweep"))
            sweep = f;
        else
            files.push_back(f.toStdString());
    if (parser.isSet(load)) {
        // The Autoscaling tab on a load (in the project given, whose replica-policy rounds show
        // beside it), replayed; a screenshot once it is done.
        window.show();
        if (!project.isEmpty())
            window.openProject(project);
        if (parser.isSet(screenshot))
            QObject::connect(window.autoscaleController(), &schedlab::app::AutoscaleController::finished, &window,
                [&saveAndQuit] { QTimer::singleShot(100, saveAndQuit); }, Qt::SingleShotConnection);
        window.openAutoscaleLoad(parser.value(load), parser.isSet(service) ? parser.value(service) : QString(), true);
        return app.exec();
    }
    if (!sweep.isEmpty()) {
        // A sweep plan (and the project its cells merge into): the Sweeps tab once the shard files are read.
        window.show();
        if (!project.isEmpty())
            window.openProject(project);
        if (parser.isSet(screenshot))
            QObject::connect(window.sweepController(), &schedlab::app::SweepController::progressRead, &window, saveAndQuit,
                Qt::SingleShotConnection);
        if (!window.openSweep(sweep) && parser.isSet(screenshot))
            return 1;
        return app.exec();
    }
    if (!project.isEmpty()) {
        window.showTab(tabIndex(parser.value(tab)));
        window.show();
        window.openProject(project);
        if (parser.value(tab) == "training")
            window.trainingPanel()->lineage()->selectAll(); // the curves of every stored round
        if (parser.isSet(screenshot))
            QTimer::singleShot(50, saveAndQuit);
        return app.exec();
    }
    if (files.empty()) {
        const QString sample = bundledSample();
        if (!sample.isEmpty())
            files.push_back(sample.toStdString());
    }
    window.show(); // before the tab: the tab's dock visibility applies to a shown window
    window.showTab(tabIndex(parser.value(tab)));
    const bool willRun = !files.empty() && !parser.isSet(noRun);
    if (parser.isSet(screenshot)) {
        if (willRun && tabIndex(parser.value(tab)) == 3) {
            // Incidents: index the first run, then grab the panel with its first incident inspected.
            QObject::connect(&window, &schedlab::app::MainWindow::batchDone, &window, [&] {
                if (window.results().empty())
                    return saveAndQuit();
                QObject::connect(window.incidentPanel(), &schedlab::views::IncidentPanel::indexed, &window,
                    [&] { QTimer::singleShot(200, saveAndQuit); });
                window.incidentPanel()->selectRun(window.results().front().id);
            });
        } else if (willRun) {
            QObject::connect(&window, &schedlab::app::MainWindow::batchDone, &window, [&] { QTimer::singleShot(50, saveAndQuit); });
        }
    }
    std::vector<std::string> list;
    for (const QString& p : parser.value(policies).split(',', Qt::SkipEmptyParts))
        list.push_back(p.trimmed().toStdString());
    // The import runs in the background; the runs (and a screenshot) follow when it is done.
    QObject::connect(&window, &schedlab::app::MainWindow::traceOpened, &window, [&, list](bool ok) {
        if (ok && willRun)
            window.runPolicies(list);
        else if (parser.isSet(screenshot))
            QTimer::singleShot(50, saveAndQuit);
    }, Qt::SingleShotConnection); // the first import only, not the ones the user starts later
    if (files.empty() || !window.openTrace(files)) {
        if (parser.isSet(screenshot))
            QTimer::singleShot(50, saveAndQuit);
    }
    return app.exec();
}
