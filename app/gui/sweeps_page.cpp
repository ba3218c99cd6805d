#include "sweeps_page.h"

#include "store/project.h"

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
        emit roundCellRequested(cell, std::atoll(run->c_str() + std::strlen(store::kRoundKeyPrefix)));
    else
        emit runCellRequested(cell, std::atoll(run->c_str()), QString::fromStdString(plan.cells[std::size_t(cell)].spec.policy),
            plan.cells[std::size_t(cell)].spec.seed());
}

} // namespace schedlab::app
