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
#include <functional>

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
// The command line's options.
struct Options {
    QCommandLineOption screenshot { "screenshot", "Render the window to <png> once the runs finish, then exit.", "png" };
    QCommandLineOption policies { "policies", "Comma-separated placement policies to run at start.", "list" };
    QCommandLineOption noRun { "no-run", "Open the trace without running any policy." };
    QCommandLineOption tab { "tab", "Tab to show at start: dashboard, comparison, training, incidents (the first run indexed), sweeps or autoscaling.",
        "name", "dashboard" };
    QCommandLineOption load { "load", "A request load to replay in the Autoscaling tab (with the default replica policies).", "file" };
    QCommandLineOption service { "service", "The service file for --load.", "json" };
    QCommandLineOption benchReplot { "bench-replot", "Time replots of the dashboard with 1,000,000 points per series." };
    QCommandLineOption benchStep { "bench-step", "Time stepping through decisions in the Incidents tab (files, --policies: the first)." };
    QCommandLineOption size { "size", "Window size for --screenshot, WIDTHxHEIGHT (default 1280x800).", "WxH", "1280x800" };

    void addTo(QCommandLineParser& parser) const
    {
        for (const QCommandLineOption* o : { &screenshot, &policies, &noRun, &benchReplot, &tab, &size, &benchStep, &load, &service })
            parser.addOption(*o);
        parser.addPositionalArgument("files", "Trace files to open as one trace (default: the bundled sample).");
    }
};

// The window at start, what it opens and, with --screenshot, when it is saved.
struct Startup {
    const QCommandLineParser& parser;
    const Options& options;
    schedlab::app::MainWindow& window;
    std::function<void()> saveAndQuit;
    bool screenshot() const { return parser.isSet(options.screenshot); }
};

// --load: the Autoscaling tab on a load (in the project given, whose replica-policy rounds show
// beside it), replayed; a screenshot once it is done.
int startWithLoad(Startup& s, const QString& project)
{
    s.window.show();
    if (!project.isEmpty())
        s.window.openProject(project);
    if (s.screenshot())
        QObject::connect(s.window.autoscaleController(), &schedlab::app::AutoscaleController::finished, &s.window,
            [&s] { QTimer::singleShot(100, s.saveAndQuit); }, Qt::SingleShotConnection);
    s.window.openAutoscaleLoad(s.parser.value(s.options.load), s.parser.isSet(s.options.service) ? s.parser.value(s.options.service) : QString(), true);
    return QApplication::exec();
}

// A sweep plan (and the project its cells merge into): the Sweeps tab once the shard files are read.
int startWithSweep(Startup& s, const QString& project, const QString& sweep)
{
    s.window.show();
    if (!project.isEmpty())
        s.window.openProject(project);
    if (s.screenshot())
        QObject::connect(s.window.sweepController(), &schedlab::app::SweepController::progressRead, &s.window, s.saveAndQuit,
            Qt::SingleShotConnection);
    if (!s.window.openSweep(sweep) && s.screenshot())
        return 1;
    return QApplication::exec();
}

int startWithProject(Startup& s, const QString& project)
{
    const QString tab = s.parser.value(s.options.tab);
    s.window.showTab(tabIndex(tab));
    s.window.show();
    // Once the runs it shows are read and its trace imported; then a turn of the event loop for
    // the plots' queued replots (earlier, the grab showed the empty plots built at start).
    if (s.screenshot())
        QObject::connect(&s.window, &schedlab::app::MainWindow::projectShown, &s.window, [&s] { QTimer::singleShot(100, s.saveAndQuit); },
            Qt::SingleShotConnection);
    if (!s.window.openProject(project) && s.screenshot())
        QTimer::singleShot(50, s.saveAndQuit);
    if (tab == "training")
        s.window.trainingPanel()->lineage()->selectAll(); // the curves of every stored round
    return QApplication::exec();
}

// --screenshot after a trace's runs: when the batch is done (Incidents: once the first run is
// indexed, with its first incident inspected).
void screenshotAfterRuns(Startup& s)
{
    if (tabIndex(s.parser.value(s.options.tab)) != 3) {
        QObject::connect(&s.window, &schedlab::app::MainWindow::batchDone, &s.window, [&s] { QTimer::singleShot(50, s.saveAndQuit); });
        return;
    }
    QObject::connect(&s.window, &schedlab::app::MainWindow::batchDone, &s.window, [&s] {
        if (s.window.results().empty())
            return s.saveAndQuit();
        QObject::connect(s.window.incidentPanel(), &schedlab::views::IncidentPanel::indexed, &s.window,
            [&s] { QTimer::singleShot(200, s.saveAndQuit); });
        s.window.incidentPanel()->selectRun(s.window.results().front().id);
    });
}

int startWithTrace(Startup& s, std::vector<std::string> files)
{
    if (files.empty()) {
        const QString sample = bundledSample();
        if (!sample.isEmpty())
            files.push_back(sample.toStdString());
    }
    s.window.show(); // before the tab: the tab's dock visibility applies to a shown window
    s.window.showTab(tabIndex(s.parser.value(s.options.tab)));
    const bool willRun = !files.empty() && !s.parser.isSet(s.options.noRun);
    if (s.screenshot() && willRun)
        screenshotAfterRuns(s);
    std::vector<std::string> list;
    for (const QString& p : s.parser.value(s.options.policies).split(',', Qt::SkipEmptyParts))
        list.push_back(p.trimmed().toStdString());
    // The import runs in the background; the runs (and a screenshot) follow when it is done.
    QObject::connect(&s.window, &schedlab::app::MainWindow::traceOpened, &s.window, [&s, list, willRun](bool ok) {
        if (ok && willRun)
            s.window.runPolicies(list);
        else if (s.screenshot())
            QTimer::singleShot(50, s.saveAndQuit);
    }, Qt::SingleShotConnection); // the first import only, not the ones the user starts later
    if ((files.empty() || !s.window.openTrace(files)) && s.screenshot())
        QTimer::singleShot(50, s.saveAndQuit);
    return QApplication::exec();
}

int benchmarkStep(const QCommandLineParser& parser, const Options& options)
{
    std::vector<std::string> files;
    for (const QString& f : parser.positionalArguments())
        files.push_back(f.toStdString());
    if (files.empty())
        files.push_back(bundledSample().toStdString());
    const QString policy = parser.value(options.policies).split(',', Qt::SkipEmptyParts).value(0, QStringLiteral("fgd"));
    return schedlab::app::benchStep(files, policy.trimmed().toStdString(), 40);
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
    const Options options;
    options.addTo(parser);
    parser.process(app);
    if (parser.isSet(options.benchReplot))
        return benchmarkReplot();
    if (parser.isSet(options.benchStep))
        return benchmarkStep(parser, options);

    schedlab::app::MainWindow window;
    if (parser.isSet(options.screenshot)) {
        // A fixed size: screenshots do not depend on a saved layout.
        const QStringList wh = parser.value(options.size).split('x');
        const int width = wh.value(0).toInt(), height = wh.value(1).toInt();
        if (wh.size() != 2 || width < 200 || height < 200) {
            std::fprintf(stderr, "schedlab: --size takes WIDTHxHEIGHT, e.g. 1280x800\n");
            return 2;
        }
        window.resize(width, height);
        window.setInteractive(false);
    }
    // --screenshot: the window to the PNG, then exit (0 when written).
    Startup start { parser, options, window, [&window, &parser, &options] {
                       const QString out = parser.value(options.screenshot);
                       const bool ok = window.grab().save(out, "PNG");
                       std::fprintf(ok ? stdout : stderr, "%s %s (window %dx%d)\n", ok ? "wrote" : "cannot write", qPrintable(out),
                           window.width(), window.height());
                       QApplication::exit(ok ? 0 : 1);
                   } };
    std::vector<std::string> files;
    QString project, sweep;
    for (const QString& f : parser.positionalArguments())
        if (f.endsWith(".schedlab"))
            project = f;
        else if (f.endsWith(".sweep"))
            sweep = f;
        else
            files.push_back(f.toStdString());
    if (parser.isSet(options.load))
        return startWithLoad(start, project);
    if (!sweep.isEmpty())
        return startWithSweep(start, project, sweep);
    if (!project.isEmpty())
        return startWithProject(start, project);
    return startWithTrace(start, files);
}
