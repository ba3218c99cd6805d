// Run > Plan Sweep: the open trace, the checked policies and seeds and the Policies dock's options
// as a sweep plan (store/sweep_plan.h) to run on a cluster (docs/sweeps.md).

#include "main_window.h"

#include "store/sweep_plan.h"
#include "trace/import_context.h"
#include "workflow/run_args.h"

#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>

namespace schedlab::app {

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
    auto plan = store::makeSweepPlan(spec);
    if (!plan) {
        showError(QString::fromStdString(plan.error().toString()));
        return false;
    }
    if (Status s = store::writeSweepPlan(*plan, path.toStdString()); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    const QString name = QFileInfo(path).fileName();
    m_status->setText(tr("Wrote %1: %2 cells in %3 shards. On the cluster: schedlab-cli sweep emit slurm %1 (or k8s)")
                          .arg(name)
                          .arg(plan->cells.size())
                          .arg(plan->shards));
    return true;
}

} // namespace schedlab::app
