// MainWindow: importing a trace, running the checked policies on it, the session's runs on the
// dashboard, and exporting the dashboard.

#include "main_window.h"
#include "swatch.h"

#include "dashboard_widget.h"
#include "comparison_widget.h"
#include "job_table_model.h"
#include "trace_summary_view.h"
#include "training_panel.h"

#include "trace/load_profile.h"
#include "trace/swf_importer.h"
#include "trace/trace_summary.h"
#include "workflow/run_args.h"

#include <QVBoxLayout>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

namespace schedlab::app {

void MainWindow::chooseTrace()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace"),
        QSettings().value("paths/lastTraceDir").toString(),
        tr("Traces and scheduler logs (*.csv *.gz *.swf *.sltrace *.json *.jsonl *.log *.txt *.acct*);;All files (*)"));
    if (files.isEmpty())
        return;
    QSettings().setValue("paths/lastTraceDir", QFileInfo(files.front()).absolutePath());
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    openTrace(paths);
}

void MainWindow::chooseTraceFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Import Folder (a kubectl dump, scheduler logs)"),
        QSettings().value("paths/lastTraceDir").toString());
    if (dir.isEmpty())
        return;
    QSettings().setValue("paths/lastTraceDir", dir);
    openTrace({ dir.toStdString() });
}

bool MainWindow::openTrace(const std::vector<std::string>& paths, const trace::ImportOptions& options)
{
    if (paths.empty() || !confirmDiscard())
        return false;
    // Parsed on a worker (ImportController): the window keeps painting and the cancel button works.
    m_banner->setVisible(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_status->setText(tr("Importing %1…").arg(QString::fromStdString(trace::baseName(paths.front()))));
    m_importer->start(paths, options);
    return true;
}

bool MainWindow::fillModeChosen() const
{
    return m_mode->currentIndex() == 2 || (m_mode->currentIndex() == 0 && m_trace && m_autoFill);
}

void MainWindow::updateModeControls()
{
    // Only the controls of the mode that will run are enabled (auto: the open trace decides).
    const bool fill = fillModeChosen();
    m_queue->setEnabled(!fill);
    m_backfill->setEnabled(!fill);
    m_head->setEnabled(!fill);
    m_preemption->setEnabled(!fill); // migration serves both modes
    m_ratio->setEnabled(fill);
    m_trim->setEnabled(fill);
    if (m_modeNote)
        updateModeStatus();
}

void MainWindow::applyTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths)
{
    m_progress->setVisible(m_runner->isRunning());
    m_cancel->setVisible(m_runner->isRunning());
    const bool swf = loaded->trace.sourceFormat == "swf";
    m_swfRow->setVisible(swf);
    m_summary->setSummary(trace::summarize(*loaded), swf ? QString::fromStdString(trace::swfClusterModel(loaded->trace)) : QString());
    if (swf) {
        auto k = loaded->trace.metadata.find("swf.procsPerNode");
        m_procsPerNode->setValue(k != loaded->trace.metadata.end() ? std::atoi(k->second.c_str())
                                                                   : trace::suggestedProcsPerNode(paths.front(), loaded->trace));
    }
    // Shares the loaded trace: no copy of a large trace on the GUI thread.
    m_trace = std::shared_ptr<const trace::Trace>(loaded, &loaded->trace);
    m_jobs->setTrace(m_trace);
    m_traceName = QString::fromStdString(trace::baseName(paths.front()));
    m_tracePaths = paths;
    applyTraceProfile();
    // Session runs of the previous trace go (confirmed when the import started); stored runs stay listed.
    m_results.erase(std::remove_if(m_results.begin(), m_results.end(), [](const views::RunResult& r) { return r.storedId < 0; }),
        m_results.end());
    for (int i = m_runList->count() - 1; i >= 0; --i)
        if (m_runList->item(i)->data(Qt::UserRole + 1).toLongLong() < 0)
            delete m_runList->takeItem(i);
    // A trace without GPUs (or with GPU tasks under 1 %): the fill experiment and GPU metrics
    // mean nothing (or little); switch visibly.
    if (!trace::gpuIsPrimary(*m_trace)) {
        QStringList changed;
        if (m_mode->currentIndex() == 2) {
            m_mode->setCurrentIndex(0);
            changed << tr("mode auto (timed)");
        }
        if (m_dashboard->utilization() == views::DashboardWidget::Utilization::Gpu) {
            m_dashboard->setUtilization(views::DashboardWidget::Utilization::Cpu);
            m_dashboard->setFragmentation(views::DashboardWidget::Fragmentation::Cpu);
            changed << tr("CPU utilization and fragmentation");
        }
        if (m_training->request().mode == sim::RunMode::Fill) {
            m_training->setMode(sim::RunMode::Timed);
            changed << tr("timed training");
        }
        if (!changed.isEmpty())
            m_noGpuNote = (m_trace->totalGpus() == 0 ? tr(" — no GPUs in this trace: %1") : tr(" — GPU tasks are under 1 % of this trace: %1"))
                              .arg(changed.join(", "));
    }
    refreshDashboard();
    updateTitle();
    updateModeControls();
    m_status->setText(tr("Loaded %1 jobs on %2 nodes in %3 s")
                          .arg(m_trace->jobs.size())
                          .arg(m_trace->nodes.size())
                          .arg(loaded->seconds, 0, 'f', 2)
        + m_noGpuNote);
    m_noGpuNote.clear();
    emit traceOpened(true, {});
}

void MainWindow::runPolicies(const std::vector<std::string>& given)
{
    if (!m_trace) {
        showError(tr("Open a trace first."));
        return;
    }
    std::vector<std::string> policies = given;
    if (policies.empty())
        for (int i = 0; i < m_policyList->count(); ++i)
            if (m_policyList->item(i)->checkState() == Qt::Checked)
                policies.push_back(m_policyList->item(i)->text().toStdString());
    if (policies.empty()) {
        showError(tr("Check at least one policy."));
        return;
    }
    auto seeds = workflow::parseSeeds(m_seeds->text().toStdString());
    if (!seeds) {
        showError(QString::fromStdString(seeds.error().message));
        return;
    }
    RunBatch batch;
    batch.trace = m_trace;
    batch.policies = policies;
    batch.seeds = seeds.value();
    batch.spec = baseSpec();
    // Colours follow the batch's policy order, not the order in which runs happen to finish.
    for (const std::string& p : policies) {
        sim::RunSpec keyed = batch.spec;
        keyed.policy = p;
        m_dashboard->colourOf(views::colourKey(keyed));
    }
    m_banner->setVisible(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_batchFrom = m_results.size();
    m_runner->start(batch);
}

QWidget* MainWindow::buildRoomRow(QWidget* parent)
{
    // Stacked, not side by side: the Policies dock must stay narrow enough for a 1024 px screen.
    auto* row = new QWidget(parent);
    auto* h = new QVBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_preemption = new QComboBox(row);
    m_preemption->setObjectName("preemptionBox");
    m_preemption->addItem(tr("no preemption"), "none");
    m_preemption->addItem(tr("preempt"), "priority");
    m_preemption->setToolTip(tr("Kubernetes default preemption: a job that fits nowhere evicts the fewest lower-priority "
                                "jobs on the best node; they queue again and lose what they ran"));
    m_migration = new QComboBox(row);
    m_migration->setObjectName("migrationBox");
    m_migration->addItem(tr("no migration"), "none");
    m_migration->addItem(tr("defragment"), "defragment");
    m_migration->setToolTip(tr("Defragment on failure: a job that fits nowhere has the smallest running task of the same or "
                               "lower priority moved elsewhere when that frees a node for it (timed: the task restarts, 60 s; "
                               "fill: a placed pod moves)"));
    h->addWidget(m_preemption);
    h->addWidget(m_migration);
    return row;
}

sim::RunSpec MainWindow::baseSpec() const
{
    sim::RunSpec spec;
    if (fillModeChosen()) {
        sim::FillOptions o;
        o.ratio = m_ratio->value();
        o.trimAboveRatio = m_trim->isChecked();
        sim::parseMigration(m_migration->currentData().toString().toStdString(), o.migration);
        spec = sim::RunSpec::fill({}, o);
    } else {
        sim::TimedOptions o;
        policy::parseQueueOrder(m_queue->currentText().toStdString(), o.queue);
        o.backfill = m_backfill->currentText() == "easy" ? sim::Backfill::Easy : sim::Backfill::None;
        sim::parseHeadRule(m_head->currentText().toStdString(), o.head);
        sim::parsePreemption(m_preemption->currentData().toString().toStdString(), o.preemption);
        sim::parseMigration(m_migration->currentData().toString().toStdString(), o.migration);
        if (const auto window = replayWindow()) {
            o.windowFromS = window->fromS;
            o.windowToS = window->toS;
        }
        spec = sim::RunSpec::timed({}, o);
    }
    spec.schedulerConfig = m_schedulerConfig; // used by k8s-default / k8s-sampling only
    return spec;
}

void MainWindow::onRunFinished(const views::RunResult& r)
{
    // Runs finish in any order; they are listed (and the dashboard picks its default run) in the
    // order they were asked for: ids are given at launch, in the batch's order.
    std::size_t at = m_results.size();
    while (at > std::min(m_batchFrom, m_results.size()) && m_results[at - 1].id > r.id)
        --at;
    const int before = at < m_results.size() ? m_results[at].id : -1;
    m_results.insert(m_results.begin() + std::ptrdiff_t(at), r);
    addRunItem(r, true, before);
    refreshDashboard();
    updateTitle();
}

void MainWindow::addRunItem(const views::RunResult& r, bool checked, int before)
{
    auto* item = new QListWidgetItem(swatch(m_dashboard->colourOf(r.policy)), QString::fromStdString(r.label));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    item->setData(Qt::UserRole, r.id);
    item->setData(Qt::UserRole + 1, qlonglong(r.storedId));
    QString tip;
    if (r.timed)
        tip = tr("wait p99 %1 s, mean GPU util %2 %").arg(r.timed->waitS.p99).arg(100 * r.timed->meanGpuUtil, 0, 'f', 1);
    else if (r.fill)
        tip = tr("final GPU allocation %1 %").arg(r.fill->finalGpuAllocPct, 0, 'f', 2);
    item->setToolTip(tip);
    const QSignalBlocker block(m_runList);
    int row = m_runList->count();
    for (int i = m_runList->count() - 1; i >= 0 && before >= 0; --i) // the batch's rows are the last ones
        if (m_runList->item(i)->data(Qt::UserRole).toInt() == before) {
            row = i;
            break;
        }
    m_runList->insertItem(row, item);
}

void MainWindow::refreshDashboard()
{
    std::vector<views::RunResult> shown;
    for (const views::RunResult& r : m_results)
        for (int i = 0; i < m_runList->count(); ++i)
            if (m_runList->item(i)->data(Qt::UserRole).toInt() == r.id && m_runList->item(i)->checkState() == Qt::Checked)
                shown.push_back(r);
    m_dashboard->setRuns(shown);
    m_comparison->setRuns(m_dashboard->runs());
    std::vector<views::RunResult> replayable;
    for (const views::RunResult& r : m_results)
        if (!r.fork)
            replayable.push_back(r);
    m_incidents->setProjectPath(m_session.isOpen() ? m_session.path().toStdString() : std::string());
    m_sweeps->setProjectPath(m_session.isOpen() ? m_session.path().toStdString() : std::string());
    m_incidentPanel->setRuns(replayable, m_trace);
}

void MainWindow::exportDashboard(const QString& kind)
{
    const QString filter = kind == "png" ? tr("PNG (*.png)") : kind == "pdf" ? tr("PDF (*.pdf)") : tr("CSV (*.csv)");
    if (kind == "summary") {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export summary"), QString(), filter);
        if (!path.isEmpty() && !m_comparison->exportSummaryCsv(path))
            showError(tr("Could not write %1").arg(path));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QString(), filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == "png" ? m_dashboard->exportPng(path)
        : kind == "pdf"           ? m_dashboard->exportPdf(path)
                                  : m_dashboard->exportVisibleCsv(path);
    if (!ok)
        showError(tr("Could not write %1").arg(path));
    else
        m_status->setText(tr("Exported %1").arg(path));
}

} // namespace schedlab::app
