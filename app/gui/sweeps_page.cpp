#include "sweeps_page.h"

#include "store/project.h"
#include "trace/import_context.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QVBoxLayout>

#include <cstdlib>
#include <cstring>
#include <utility>

namespace schedlab::app {

SweepsPage::SweepsPage(ProjectSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view = new views::SweepView(this);
    layout->addWidget(m_view);
    m_sweeps = new SweepController(m_view, this);
    connect(m_view, &views::SweepView::openPlanRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep Plan"), QString(), tr("Sweep plans (*.sweep);;All files (*)"));
        if (!path.isEmpty())
            openPlan(path);
    });
    connect(m_view, &views::SweepView::openCellRequested, this, &SweepsPage::openCell);
    connect(m_sweeps, &SweepController::failed, this, &SweepsPage::errorOccurred);
    connect(m_sweeps, &SweepController::merged, this, [this](int copied) {
        emit merged(copied);
        const int pending = std::exchange(m_pendingCell, -1);
        if (pending >= 0)
            openCell(pending);
    });
}

void SweepsPage::projectChanged() { m_sweeps->setProjectPath(m_session->isOpen() ? m_session->path().toStdString() : std::string()); }

bool SweepsPage::openPlan(const QString& path)
{
    if (Status s = m_sweeps->openPlan(path); !s) {
        emit errorOccurred(QString::fromStdString(s.error().toString()));
        return false;
    }
    projectChanged();
    return true;
}

void SweepsPage::setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths)
{
    m_trace = std::move(trace);
    m_tracePaths = paths;
}

bool SweepsPage::planRuns(const QString& path, int shards, const std::vector<std::string>& policies,
    const Result<std::vector<uint64_t>>& seeds, const sim::RunSpec& base)
{
    if (!m_trace || m_tracePaths.empty()) {
        emit errorOccurred(tr("Open a trace first: a sweep plan names its files."));
        return false;
    }
    if (!seeds) {
        emit errorOccurred(QString::fromStdString(seeds.error().message));
        return false;
    }
    store::SweepSpec spec;
    spec.traces = { m_tracePaths };
    spec.importOptions = trace::importOptionsFromMetadata(m_trace->metadata);
    spec.policies = policies;
    spec.seeds = seeds.value();
    spec.base = base;
    spec.shards = shards;
    return writePlan(spec, path);
}

bool SweepsPage::writePlan(const store::SweepSpec& spec, const QString& path)
{
    auto plan = store::makeSweepPlan(spec);
    if (!plan) {
        emit errorOccurred(QString::fromStdString(plan.error().toString()));
        return false;
    }
    if (Status s = store::writeSweepPlan(*plan, path.toStdString()); !s) {
        emit errorOccurred(QString::fromStdString(s.error().toString()));
        return false;
    }
    const QString name = QFileInfo(path).fileName();
    if (spec.train)
        emit statusMessage(tr("Wrote %1: %2 training cells (%3 weight vectors, %4 rounds each) in %5 shards")
                               .arg(name)
                               .arg(plan->cells.size())
                               .arg(spec.weights.size())
                               .arg(spec.train->rounds)
                               .arg(plan->shards));
    else
        emit statusMessage(tr("Wrote %1: %2 cells in %3 shards. On the cluster: schedlab-cli sweep emit slurm %1 (or k8s)")
                               .arg(name)
                               .arg(plan->cells.size())
                               .arg(plan->shards));
    return true;
}

void SweepsPage::openCell(int cell)
{
    const store::SweepPlan& plan = m_view->model()->plan();
    if (cell < 0 || std::size_t(cell) >= plan.cells.size())
        return;
    if (!m_view->model()->finished(cell)) {
        m_view->setMessage(tr("Cell %1 has not finished: nothing to show yet.").arg(cell));
        return;
    }
    if (!m_session->isOpen()) {
        emit errorOccurred(tr("Open or create a project to merge the sweep's cells into (File > New Project); then cells open on the dashboard."));
        return;
    }
    // The run this cell became in the open project, if merged.
    auto run = m_session->project()->setting(store::sweepCellKey(plan.id, cell));
    if (!run || run->empty()) {
        if (m_pendingCell >= 0)
            return; // one merge at a time; the first cell asked opens when it is done
        m_pendingCell = cell;
        m_sweeps->merge();
        return;
    }
    if (run->rfind(store::kRoundKeyPrefix, 0) == 0) // a training cell: its last round
        openRoundCell(cell, std::atoll(run->c_str() + std::strlen(store::kRoundKeyPrefix)));
    else
        emit runCellRequested(cell, std::atoll(run->c_str()), QString::fromStdString(plan.cells[std::size_t(cell)].spec.policy),
            plan.cells[std::size_t(cell)].spec.seed());
}

void SweepsPage::openRoundCell(int cell, int64_t roundId)
{
    const std::optional<store::RoundRow> round = m_session->round(roundId);
    if (!round) {
        emit errorOccurred(tr("Sweep cell %1: the project names round %2, which it does not list").arg(cell).arg(roundId));
        return;
    }
    emit roundCellRequested("learned:" + round->checkpoint);
    emit statusMessage(
        tr("Sweep cell %1 is round %2 of the project (weights %3)").arg(cell).arg(roundId).arg(QString::fromStdString(round->weights)));
}

} // namespace schedlab::app
