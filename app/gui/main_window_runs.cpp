// MainWindow: importing a trace and handing it to the pages, running the checked policies on it,
// rounds and sweep cells shown on the dashboard, sweep plans and the Autoscaling tab's load.

#include "main_window.h"

#include "mode_status.h"
#include "status_area.h"
#include "trace_dock.h"

#include "trace/load_profile.h"
#include "workflow/run_args.h"

#include <QTabWidget>

#include <utility>

namespace schedlab::app {

bool MainWindow::openTrace(const std::vector<std::string>& paths, const trace::ImportOptions& options)
{
    if (paths.empty() || !confirmDiscard())
        return false;
    // Parsed on a worker (ImportController): the window keeps painting and the cancel button works.
    m_statusArea->clearError();
    m_statusArea->setBusy(true);
    showStatus(tr("Importing %1…").arg(QString::fromStdString(trace::baseName(paths.front()))));
    m_importer->start(paths, options);
    return true;
}

void MainWindow::applyTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths)
{
    m_statusArea->setBusy(m_runs->isRunning());
    m_traceDock->setTrace(loaded, paths);
    // Shares the loaded trace: no copy of a large trace on the GUI thread.
    m_trace = std::shared_ptr<const trace::Trace>(loaded, &loaded->trace);
    m_traceName = QString::fromStdString(trace::baseName(paths.front()));
    m_tracePaths = paths;
    m_trainingPage->setTrace(m_trace, paths);
    m_sweepsPage->setTrace(m_trace, paths);
    // The load profile: auto's choice, the overview strip, the time axes' origin.
    const trace::LoadProfile profile = trace::loadProfile(*m_trace);
    const workflow::ModeChoice choice = workflow::chooseMode(profile);
    m_dashboardPage->setLoadProfile(profile, trace::epochOf(*m_trace));
    m_modeStatus->setTrace(m_trace, paths, choice.mode == sim::RunMode::Fill, QString::fromStdString(choice.reason));
    // Session runs of the previous trace go (confirmed when the import started); stored runs stay listed.
    m_runs->dropSessionRuns();
    const QString noGpuNote = switchAwayFromGpus();
    refreshDashboard();
    updateTitle();
    showStatus(tr("Loaded %1 jobs on %2 nodes in %3 s")
                          .arg(m_trace->jobs.size())
                          .arg(m_trace->nodes.size())
                          .arg(loaded->seconds, 0, 'f', 2)
        + noGpuNote + std::exchange(m_traceNote, QString()));
    emit traceOpened(true, {});
}

QString MainWindow::switchAwayFromGpus()
{
    // A trace without GPUs (or with GPU tasks under 1 %): the fill experiment and GPU metrics
    // mean nothing (or little); switch visibly.
    if (trace::gpuIsPrimary(*m_trace))
        return {};
    QStringList changed;
    if (m_options->modeChoice() == views::RunOptionsWidget::ModeChoice::Fill) {
        m_options->setModeChoice(views::RunOptionsWidget::ModeChoice::Auto);
        changed << tr("mode auto (timed)");
    }
    if (m_dashboardPage->showCpuMetrics())
        changed << tr("CPU utilization and fragmentation");
    if (m_trainingPage->switchToTimed())
        changed << tr("timed training");
    if (changed.isEmpty())
        return {};
    return (m_trace->totalGpus() == 0 ? tr(" — no GPUs in this trace: %1") : tr(" — GPU tasks are under 1 % of this trace: %1"))
        .arg(changed.join(", "));
}

void MainWindow::runPolicies(const std::vector<std::string>& given)
{
    if (!m_trace) {
        showError(tr("Open a trace first."));
        return;
    }
    const std::vector<std::string> policies = given.empty() ? m_options->checkedPolicies() : given;
    if (policies.empty()) {
        showError(tr("Check at least one policy."));
        return;
    }
    auto seeds = m_options->seeds();
    if (!seeds) {
        showError(QString::fromStdString(seeds.error().message));
        return;
    }
    RunBatch batch;
    batch.trace = m_trace;
    batch.policies = policies;
    batch.seeds = seeds.value();
    batch.spec = baseSpec();
    m_dashboardPage->reserveColours(batch.spec, policies);
    m_statusArea->clearError();
    m_statusArea->setBusy(true);
    m_runs->start(batch);
}

void MainWindow::batchFinished(bool cancelled, const QString& error)
{
    m_statusArea->setBusy(false);
    if (!error.isEmpty())
        showError(error);
    showStatus(cancelled ? tr("Cancelled") : error.isEmpty() ? m_runs->doneText() : tr("Run failed"));
    emit batchDone();
}

void MainWindow::refreshDashboard()
{
    m_dashboardPage->setRuns(m_runs->checkedRuns()); // the Comparison tab follows
    m_sweepsPage->projectChanged();
    m_incidentsPage->setRuns(m_runs->replayableRuns(), m_trace);
}

void MainWindow::showRoundsOnDashboard(const std::vector<std::string>& rounds)
{
    std::vector<std::string> policies = rounds;
    for (const std::string& p : m_options->checkedPolicies())
        policies.push_back(p);
    showTab(0);
    // The round's own mode and trace: a fill-trained round replayed in timed mode (or on another
    // trace) says nothing about how it was judged.
    const std::optional<store::RoundRow> round = rounds.empty() ? std::nullopt : m_session.roundOfPolicy(rounds.front());
    if (!round) {
        runPolicies(policies);
        return;
    }
    using ModeChoice = views::RunOptionsWidget::ModeChoice;
    const ModeChoice mode = round->kind == store::RoundKind::Fill ? ModeChoice::Fill : ModeChoice::Timed;
    m_options->setModeChoice(mode);
    const std::vector<std::string> files = m_session.traceFilesOf(round->traceId);
    const bool present = ProjectSession::filesExist(files);
    if (!present || files == m_tracePaths) {
        if (!present && !files.empty() && files != m_tracePaths)
            showError(tr("The trace round %1 was trained on is not where it was (%2); showing it on the open trace.")
                          .arg(round->id)
                          .arg(QString::fromStdString(files.front())));
        runPolicies(policies);
        return;
    }
    const QMetaObject::Connection then = connect(this, &MainWindow::traceOpened, this, [this, policies, mode](bool ok) {
        if (ok) {
            m_options->setModeChoice(mode); // opening a trace restores its own mode
            runPolicies(policies);
        }
    }, Qt::SingleShotConnection);
    if (!openTrace(files, m_session.traceOptionsOf(round->traceId)))
        disconnect(then);
}

bool MainWindow::planSweep(const QString& path, int shards)
{
    if (!m_sweepsPage->planRuns(path, shards, m_options->checkedPolicies(), m_options->seeds(), baseSpec()))
        return false;
    openSweep(path);
    return true;
}

bool MainWindow::planTrainingSweep(const QString& path, int shards, const QString& weights)
{
    const auto spec = m_trainingPage->sweepSpec(weights, baseSpec(), m_options->fillRatio(), shards);
    if (!spec || !m_sweepsPage->writePlan(*spec, path))
        return false;
    openSweep(path);
    return true;
}

bool MainWindow::openSweep(const QString& path)
{
    if (!m_sweepsPage->openPlan(path))
        return false;
    m_tabs->setCurrentWidget(m_sweepsPage);
    return true;
}

void MainWindow::showRunCell(int cell, qlonglong runId, const QString& policy, qulonglong seed)
{
    m_runs->appendNewStoredRuns();
    if (!m_runs->showStoredRun(runId)) {
        showError(tr("Sweep cell %1: the project names run %2, which it does not list").arg(cell).arg(runId));
        return;
    }
    m_tabs->setCurrentIndex(0);
    showStatus(tr("Sweep cell %1 (%2 seed %3) is run %4 of the project").arg(cell).arg(policy).arg(seed).arg(runId));
}

void MainWindow::openAutoscaleLoad(const QString& loadPath, const QString& servicePath, bool run)
{
    m_tabs->setCurrentWidget(m_autoscalePage);
    m_autoscalePage->openLoad(loadPath, servicePath, run);
}

} // namespace schedlab::app
