// Sweeps in the workbench (docs/sweeps.md): Run > Plan Sweep writes the open trace, the checked
// policies and seeds and the Policies dock's options as a sweep plan (store/sweep_plan.h) to run
// on a cluster; the Sweeps tab follows a plan's shard files (SweepController) and opens a cell on
// the dashboard, merging the finished cells into the open project first when they are not yet.

#include "main_window.h"

#include "reward_editor.h"
#include "training_panel.h"

#include "rl/reward.h"
#include "store/project.h"
#include "store/sweep_plan.h"
#include "sweep_view.h"
#include "trace/import_context.h"
#include "workflow/run_args.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QTabWidget>

#include <cstdlib>
#include <cstring>
#include <utility>
#include <QLabel>
#include <QLineEdit>
#include <QDoubleSpinBox>
#include <QListWidget>

namespace schedlab::app {

std::optional<store::SweepPlan> MainWindow::writeSweep(const store::SweepSpec& spec, const QString& path)
{
    auto plan = store::makeSweepPlan(spec);
    if (!plan) {
        showError(QString::fromStdString(plan.error().toString()));
        return std::nullopt;
    }
    if (Status s = store::writeSweepPlan(*plan, path.toStdString()); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return std::nullopt;
    }
    openSweep(path);
    return std::move(plan).value();
}

bool MainWindow::planSweep(const QString& path, int shards)
{
    if (!m_trace || m_tracePaths.empty()) {
        showError(tr("Open a trace first: a sweep plan names its files."));
        return false;
    }
    store::SweepSpec spec;
    spec.traces = { m_tracePaths };
    spec.importOptions = trace::importOptionsFromMetadata(m_trace->metadata);
    for (int i = 0; i < m_policyList->count(); ++i)
        if (m_policyList->item(i)->checkState() == Qt::Checked)
            spec.policies.push_back(m_policyList->item(i)->text().toStdString());
    auto seeds = workflow::parseSeeds(m_seeds->text().toStdString());
    if (!seeds) {
        showError(QString::fromStdString(seeds.error().message));
        return false;
    }
    spec.seeds = seeds.value();
    spec.base = baseSpec();
    spec.shards = shards;
    auto plan = writeSweep(spec, path);
    if (!plan)
        return false;
    const QString name = QFileInfo(path).fileName();
    m_status->setText(tr("Wrote %1: %2 cells in %3 shards. On the cluster: schedlab-cli sweep emit slurm %1 (or k8s)")
                          .arg(name)
                          .arg(plan->cells.size())
                          .arg(plan->shards));
    return true;
}

bool MainWindow::planTrainingSweep(const QString& path, int shards, const QString& weights)
{
    if (!m_trace || m_tracePaths.empty()) {
        showError(tr("Open a trace first: a sweep plan names its files."));
        return false;
    }
    // The Training tab's settings (mode, window, episodes, rounds, rate, baselines, seeds), the
    // weight vectors from `weights` (the Reward dock's, or ranges of them).
    const views::TrainRequest r = m_training->request();
    store::SweepSpec spec;
    spec.traces = { m_tracePaths };
    spec.importOptions = trace::importOptionsFromMetadata(m_trace->metadata);
    spec.seeds = { r.seed };
    spec.shards = shards;
    store::SweepTraining t;
    t.rounds = r.rounds;
    t.episodes = r.episodes;
    t.learningRate = r.learningRate;
    t.gamma = r.gamma;
    t.maxPods = r.pods;
    t.fromS = r.fromH * 3600;
    t.windowS = r.windowH * 3600;
    t.evalSeeds = r.evalSeeds;
    t.baselines = r.baselines;
    spec.train = t;
    auto vectors = store::expandWeightRanges(weights.toStdString());
    if (!vectors) {
        showError(QString::fromStdString(vectors.error().message));
        return false;
    }
    for (const std::string& v : *vectors) {
        auto w = rl::RewardConfig::parse(v, m_reward->config());
        if (!w) {
            showError(tr("Weights '%1': %2").arg(QString::fromStdString(v), QString::fromStdString(w.error().message)));
            return false;
        }
        spec.weights.push_back(w->toString());
    }
    sim::FillOptions fill;
    fill.ratio = m_ratio->value();
    spec.base = r.mode == sim::RunMode::Fill ? sim::RunSpec::fill({}, fill) : baseSpec();
    if (r.mode == sim::RunMode::Timed && spec.base.isFill())
        spec.base = sim::RunSpec::timed({}, sim::TimedOptions {});
    auto plan = writeSweep(spec, path);
    if (!plan)
        return false;
    m_status->setText(tr("Wrote %1: %2 training cells (%3 weight vectors, %4 rounds each) in %5 shards")
                          .arg(QFileInfo(path).fileName())
                          .arg(plan->cells.size())
                          .arg(spec.weights.size())
                          .arg(t.rounds)
                          .arg(plan->shards));
    return true;
}

void MainWindow::buildSweepTab()
{
    m_sweepView = new views::SweepView(m_tabs);
    m_sweeps = new SweepController(m_sweepView, this);
    m_tabs->addTab(m_sweepView, tr("Sweeps"));
    connect(m_sweepView, &views::SweepView::openPlanRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep Plan"), QString(), tr("Sweep plans (*.sweep);;All files (*)"));
        if (!path.isEmpty())
            openSweep(path);
    });
    connect(m_sweepView, &views::SweepView::openCellRequested, this, &MainWindow::openSweepCell);
    connect(m_sweeps, &SweepController::failed, this, &MainWindow::showError);
    connect(m_sweeps, &SweepController::merged, this, [this] {
        const int added = appendNewStoredRuns();
        refreshRounds(); // training cells come in as rounds
        if (added > 0)
            m_status->setText(tr("%1 sweep cells merged into %2").arg(added).arg(m_session.path()));
        const int pending = std::exchange(m_pendingSweepCell, -1);
        if (pending >= 0)
            openSweepCell(pending);
    });
}

bool MainWindow::openSweep(const QString& path)
{
    if (Status s = m_sweeps->openPlan(path); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_sweeps->setProjectPath(m_session.isOpen() ? m_session.path().toStdString() : std::string());
    m_tabs->setCurrentWidget(m_sweepView);
    return true;
}

void MainWindow::openSweepCell(int cell)
{
    const store::SweepPlan& plan = m_sweepView->model()->plan();
    if (cell < 0 || std::size_t(cell) >= plan.cells.size())
        return;
    if (!m_sweepView->model()->finished(cell)) {
        m_sweepView->setMessage(tr("Cell %1 has not finished: nothing to show yet.").arg(cell));
        return;
    }
    if (!m_session.isOpen()) {
        showError(tr("Open or create a project to merge the sweep's cells into (File > New Project); then cells open on the dashboard."));
        return;
    }
    // The run this cell became in the open project, if merged.
    auto run = m_session.project()->setting(store::sweepCellKey(plan.id, cell));
    if (!run || run->empty()) {
        if (m_pendingSweepCell >= 0)
            return; // one merge at a time; the first cell asked opens when it is done
        m_pendingSweepCell = cell;
        m_sweeps->merge();
        return;
    }
    if (run->rfind(store::kRoundKeyPrefix, 0) == 0) {
        // A training cell: its last round, replayed on the dashboard with the checked baselines.
        const int64_t roundId = std::atoll(run->c_str() + std::strlen(store::kRoundKeyPrefix));
        refreshRounds();
        auto rounds = m_session.project()->rounds();
        if (rounds)
            for (const store::RoundRow& r : *rounds)
                if (r.id == roundId) {
                    showRoundsOnDashboard({ "learned:" + r.checkpoint });
                    m_status->setText(tr("Sweep cell %1 is round %2 of the project (weights %3)")
                                          .arg(cell)
                                          .arg(roundId)
                                          .arg(QString::fromStdString(r.weights)));
                    return;
                }
        showError(tr("Sweep cell %1: the project names round %2, which it does not list").arg(cell).arg(roundId));
        return;
    }
    const qlonglong runId = std::atoll(run->c_str());
    appendNewStoredRuns();
    for (int i = 0; i < m_runList->count(); ++i) {
        QListWidgetItem* item = m_runList->item(i);
        if (item->data(Qt::UserRole + 1).toLongLong() != runId)
            continue;
        m_runList->scrollToItem(item);
        if (item->checkState() != Qt::Checked)
            item->setCheckState(Qt::Checked); // itemChanged loads it
        m_tabs->setCurrentIndex(0);
        m_status->setText(tr("Sweep cell %1 (%2 seed %3) is run %4 of the project")
                              .arg(cell)
                              .arg(QString::fromStdString(plan.cells[std::size_t(cell)].spec.policy))
                              .arg(plan.cells[std::size_t(cell)].spec.seed())
                              .arg(runId));
        return;
    }
    showError(tr("Sweep cell %1: the project names run %2, which it does not list").arg(cell).arg(runId));
}

} // namespace schedlab::app
