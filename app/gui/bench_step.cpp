// `schedlab --bench-step [--policies P] FILES...`: the cost of stepping through decisions in the
// Incidents tab, as a user does with Alt+Down: import, one run, index it, then time each step
// (selection, inspection with re-scoring, the inspector's tables and strip) and its parts.

#include "bench_step.h"

#include "incident_panel.h"
#include "inspector_widget.h"
#include "main_window.h"

#include "incident/run_index.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace schedlab::app {

namespace {
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
} // namespace

int benchStep(const std::vector<std::string>& files, const std::string& policy, int steps)
{
    MainWindow w;
    w.setInteractive(false);
    w.resize(1280, 800);
    w.show();
    bool opened = false;
    QEventLoop importing;
    QObject::connect(&w, &MainWindow::traceOpened, &importing, [&](bool ok) {
        opened = ok;
        importing.quit();
    });
    if (w.openTrace(files))
        importing.exec();
    if (!opened) {
        std::fprintf(stderr, "schedlab: cannot open the trace: %s\n", qPrintable(w.bannerText()));
        return 1;
    }
    QEventLoop batch;
    QObject::connect(&w, &MainWindow::batchDone, &batch, &QEventLoop::quit);
    w.runPolicies({ policy });
    batch.exec();
    if (w.results().empty()) {
        std::fprintf(stderr, "schedlab: the run failed: %s\n", qPrintable(w.bannerText()));
        return 1;
    }
    w.showTab(3);
    views::IncidentPanel* panel = w.incidentPanel();
    QElapsedTimer t;
    t.start();
    bool indexed = false;
    QEventLoop wait;
    QObject::connect(panel, &views::IncidentPanel::indexed, &wait, [&](bool ok) {
        indexed = ok;
        wait.quit();
    });
    if (panel->selectRun(w.results().front().id))
        wait.exec();
    if (!indexed) {
        std::fprintf(stderr, "schedlab: indexing failed\n");
        return 1;
    }
    const double indexMs = double(t.nsecsElapsed()) / 1e6;
    const incident::RunIndex& index = *panel->runIndex();
    std::vector<double> step, inspect;
    panel->selectDecision(0);
    for (int i = 0; i < steps; ++i) {
        t.restart();
        panel->nextAction()->trigger();
        QApplication::processEvents(); // the repaint the user waits for
        step.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        (void)incident::inspect(index, panel->currentDecision(), { "bestfit", "fgd" });
        inspect.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::printf("incident stepping: %zu nodes, %zu decisions, policy %s; index %.0f ms\n", index.trace->nodes.size(),
        index.decisions.size(), policy.c_str(), indexMs);
    std::printf("  Alt+Down (select, inspect with bestfit,fgd re-scoring, tables, strip, repaint): median %.1f ms, max %.1f ms over %d steps\n",
        median(step), *std::max_element(step.begin(), step.end()), steps);
    std::printf("  of which incident::inspect alone: median %.1f ms\n", median(inspect));
    return 0;
}

} // namespace schedlab::app
