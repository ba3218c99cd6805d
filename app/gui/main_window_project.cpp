// MainWindow: the project file (new, open, save, save as, recent), stored runs in the Runs dock,
// fine-tune rounds and the settings a project keeps.

#include "main_window.h"

#include "rl/fine_tune.h"
#include "workflow/fine_tune_session.h"
#include "swatch.h"

#include "dashboard_widget.h"
#include "reward_editor.h"
#include "training_panel.h"

#include "trace/trace_window.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>

#include <algorithm>
#include <set>

namespace schedlab::app {

void MainWindow::loadProjectSettings()
{
    if (!m_session.project())
        return;
    auto text = m_session.project()->setting("reward_weights");
    m_loadingSettings = true;
    if (text && !text->empty()) {
        auto c = rl::RewardConfig::parse(text.value());
        if (c)
            m_reward->setConfig(c.value(), false);
        else
            showError(tr("%1: stored reward weights are invalid (%2); using the defaults")
                          .arg(m_session.path(), QString::fromStdString(c.error().message)));
    } else {
        m_reward->setConfig(rl::RewardConfig {}, false);
    }
    m_loadingSettings = false;
}

void MainWindow::refreshRounds()
{
    m_training->setProjectOpen(m_session.isOpen());
    m_scalerPanel->setProjectOpen(m_session.isOpen());
    if (!m_session.project()) {
        m_training->setRounds({});
        m_scalerPanel->setRounds({}, {});
        return;
    }
    auto rounds = m_session.project()->rounds();
    if (!rounds) {
        showError(QString::fromStdString(rounds.error().toString()));
        return;
    }
    std::map<int64_t, std::vector<store::EvalValue>> evaluation;
    for (const store::RoundRow& r : rounds.value())
        if (auto eval = m_session.project()->roundEval(r.id); eval && !eval->empty())
            evaluation[r.id] = std::move(eval).value();
    // The placement agent's rounds in the Training tab, the replica policy's beside the Autoscaling tab.
    std::vector<store::RoundRow> placement;
    std::map<int64_t, std::vector<std::string>> overBudget; // rounds whose evaluation ended over a budget
    for (const store::RoundRow& r : rounds.value())
        if (r.kind != store::RoundKind::Autoscale) {
            placement.push_back(r);
            if (auto curve = m_session.project()->roundCurve(r.id))
                if (auto kept = store::keptWeights(curve.value(), r.startValidation, r.kind == store::RoundKind::Timed))
                    placement.back().window += (kept->episode == 0 ? std::string("; kept its starting weights (")
                                                                   : "; kept episode " + std::to_string(kept->episode) + " (")
                        + rl::validationText(store::runModeOf(r.kind), kept->validation) + ")";
            if (auto k = m_session.project()->roundConstraints(r.id); k && !k->empty() && evaluation.count(r.id))
                overBudget[r.id] = workflow::overBudget(k.value(), evaluation.at(r.id));
        }
    m_training->setRounds(placement, evaluation, overBudget);
    m_scalerPanel->setRounds(rounds.value(), evaluation);
}

void MainWindow::showRoundsOnDashboard(const std::vector<std::string>& rounds)
{
    std::vector<std::string> policies = rounds;
    for (int i = 0; i < m_policyList->count(); ++i)
        if (m_policyList->item(i)->checkState() == Qt::Checked)
            policies.push_back(m_policyList->item(i)->text().toStdString());
    showTab(0);
    // The round's own mode and trace: a fill-trained round replayed in timed mode (or on another
    // trace) says nothing about how it was judged.
    const store::RoundRow* round = nullptr;
    auto rows = m_session.project() ? m_session.project()->rounds() : Result<std::vector<store::RoundRow>>(std::vector<store::RoundRow> {});
    if (rows)
        for (const store::RoundRow& r : rows.value())
            if (!rounds.empty() && "learned:" + r.checkpoint == rounds.front())
                round = &r;
    if (!round) {
        runPolicies(policies);
        return;
    }
    const int modeIndex = round->kind == store::RoundKind::Fill ? 2 : 1;
    m_mode->setCurrentIndex(modeIndex);
    const std::vector<std::string> files = m_session.traceFilesOf(round->traceId);
    const bool present = !files.empty()
        && std::all_of(files.begin(), files.end(), [](const std::string& f) { return QFileInfo::exists(QString::fromStdString(f)); });
    if (!present || files == m_tracePaths) {
        if (!present && !files.empty() && files != m_tracePaths)
            showError(tr("The trace round %1 was trained on is not where it was (%2); showing it on the open trace.")
                          .arg(round->id)
                          .arg(QString::fromStdString(files.front())));
        runPolicies(policies);
        return;
    }
    const QMetaObject::Connection then = connect(this, &MainWindow::traceOpened, this, [this, policies, modeIndex](bool ok) {
        if (ok) {
            m_mode->setCurrentIndex(modeIndex); // opening a trace restores its own mode
            runPolicies(policies);
        }
    }, Qt::SingleShotConnection);
    if (!openTrace(files, m_session.traceOptionsOf(round->traceId)))
        disconnect(then);
}

bool MainWindow::startTraining(const views::TrainRequest& request)
{
    if (!m_trace) {
        showError(tr("Open a trace first."));
        return false;
    }
    if (!m_session.isOpen()) {
        showError(tr("Training rounds are stored in a project: create or open one first (File > New Project)."));
        return false;
    }
    if (!m_reward->isValid()) {
        showError(tr("Reward: at least one weight must be above 0."));
        return false;
    }
    if (m_trainer->isRunning())
        return false;
    // Refused before starting, with the reason, rather than a round that trains on nothing.
    constexpr std::size_t kMinJobs = 20;
    if (request.mode == sim::RunMode::Fill && m_trace->totalGpus() == 0) {
        showError(tr("This trace has no GPUs: the fill experiment cannot train on it; pick timed training."));
        return false;
    }
    if (request.mode == sim::RunMode::Timed) {
        auto window = trace::timeWindow(*m_trace, request.fromH * 3600, request.windowH * 3600);
        if (!window || window->jobs.size() < kMinJobs) {
            showError(tr("The training window (%1 h from %2 h) holds %3 jobs, too few to train (at least %4): widen the window or move it.")
                          .arg(request.windowH)
                          .arg(request.fromH)
                          .arg(window ? window->jobs.size() : 0)
                          .arg(kMinJobs));
            return false;
        }
    }
    TrainingJob job;
    job.request = request;
    job.reward = m_reward->config();
    job.trace = m_trace;
    job.traceFiles = m_tracePaths;
    job.projectPath = m_session.path().toStdString();
    m_banner->setVisible(false);
    m_training->clearCurves();
    m_training->setRunning(true);
    m_trainer->start(job);
    return true;
}

bool MainWindow::hasUnsavedRuns() const
{
    return std::any_of(m_results.begin(), m_results.end(), [](const views::RunResult& r) { return r.storedId < 0 && !r.fork; });
}

void MainWindow::updateTitle()
{
    const QString project = m_session.isOpen() ? QFileInfo(m_session.path()).fileName() : tr("no project");
    QString title = project + QStringLiteral("[*]");
    if (!m_traceName.isEmpty())
        title += QStringLiteral(" — ") + m_traceName;
    setWindowTitle(title + QStringLiteral(" — schedlab"));
    setWindowModified(hasUnsavedRuns());
}

bool MainWindow::confirmDiscard()
{
    if (!hasUnsavedRuns() || !m_interactive)
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved runs"),
        tr("Some runs are not saved in a project. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || saveProject();
}

namespace {
// "work" -> "work.schedlab": the CLI and the file dialogs know projects by their extension.
QString withProjectExtension(const QString& path) { return QFileInfo(path).suffix().isEmpty() ? path + ".schedlab" : path; }
} // namespace

bool MainWindow::newProject(const QString& given)
{
    const QString path = withProjectExtension(given);
    // The file dialog asked before replacing an existing file.
    for (const QString& f : { path, path + "-wal", path + "-shm" })
        if (QFileInfo::exists(f) && !QFile::remove(f)) {
            showError(tr("%1: cannot replace the existing file").arg(f));
            return false;
        }
    if (Status s = m_session.open(path, false); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_storedLoads->reset(); // runs still loading from the previous project are dropped
    m_results.clear();
    m_runList->clear();
    refreshDashboard();
    updateTitle();
    refreshRounds();
    if (!m_session.readOnly())
        (void)m_session.project()->setSetting("reward_weights", m_reward->config().toString());
    m_status->setText(tr("New project %1").arg(m_session.path()));
    return true;
}

bool MainWindow::openProject(const QString& path)
{
    ProjectSession next;
    if (Status s = next.open(path, true); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    auto rows = next.storedRuns();
    if (!rows) {
        showError(QString::fromStdString(rows.error().toString()));
        return false;
    }
    m_session = std::move(next);
    m_storedLoads->reset(); // runs still loading from the previous project are dropped
    m_results.clear();
    m_runList->clear();
    m_banner->setVisible(false);
    // The trace of the newest finished run (or round), when its files are still where they were.
    std::vector<int64_t> traceIds;
    for (auto it = rows->rbegin(); it != rows->rend(); ++it)
        if (it->status == "finished")
            traceIds.push_back(it->traceId);
    if (auto rounds = m_session.project()->rounds())
        for (auto it = rounds->rbegin(); it != rounds->rend(); ++it)
            if (it->status == "finished")
                traceIds.push_back(it->traceId);
    for (int64_t traceId : traceIds) {
        if (traceId < 0)
            continue;
        const std::vector<std::string> files = m_session.traceFilesOf(traceId);
        const bool present = !files.empty()
            && std::all_of(files.begin(), files.end(), [](const std::string& f) { return QFileInfo::exists(QString::fromStdString(f)); });
        if (present && files != m_tracePaths)
            openTrace(files, m_session.traceOptionsOf(traceId));
        break;
    }
    int finished = 0;
    for (const store::RunRow& row : rows.value()) {
        finished += row.status == "finished" ? 1 : 0;
        addStoredRunItem(row);
    }
    // Show the newest finished runs (up to four) right away.
    int shown = 0;
    for (int i = m_runList->count() - 1; i >= 0 && shown < 4; --i) {
        QListWidgetItem* item = m_runList->item(i);
        if (item->flags() & Qt::ItemIsUserCheckable) {
            item->setCheckState(Qt::Checked); // itemChanged loads it
            ++shown;
        }
    }
    refreshDashboard();
    updateTitle();
    refreshRounds();
    loadProjectSettings();
    m_status->setText(tr("Opened %1: %2 stored runs (%3 finished)").arg(m_session.path()).arg(rows->size()).arg(finished));
    return true;
}

QListWidgetItem* MainWindow::addStoredRunItem(const store::RunRow& row)
{
    QString text = QStringLiteral("%1 #%2 (run %3, %4)")
                       .arg(QString::fromStdString(row.policy))
                       .arg(row.seed)
                       .arg(row.id)
                       .arg(QString::fromStdString(row.mode));
    auto* item = new QListWidgetItem(text);
    item->setData(Qt::UserRole, -1); // not loaded yet
    item->setData(Qt::UserRole + 1, qlonglong(row.id));
    if (row.status == "finished") {
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(tr("stored %1, %2 s").arg(QString::fromStdString(row.finishedAt)).arg(row.wallSeconds, 0, 'f', 2));
    } else {
        item->setText(text + QStringLiteral(" — ") + QString::fromStdString(row.status));
        item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        item->setToolTip(QString::fromStdString(row.error.empty() ? row.status : row.error));
    }
    const QSignalBlocker block(m_runList);
    m_runList->addItem(item);
    return item;
}

int MainWindow::appendNewStoredRuns()
{
    auto rows = m_session.storedRuns();
    if (!rows) {
        showError(QString::fromStdString(rows.error().toString()));
        return 0;
    }
    std::set<qlonglong> listed;
    for (int i = 0; i < m_runList->count(); ++i)
        listed.insert(m_runList->item(i)->data(Qt::UserRole + 1).toLongLong());
    int added = 0;
    for (const store::RunRow& row : rows.value())
        if (!listed.count(row.id)) {
            addStoredRunItem(row);
            ++added;
        }
    return added;
}

void MainWindow::loadStoredRun(QListWidgetItem* item)
{
    // Read on a worker with its own read-only connection: large runs (series, heat) do not freeze
    // the window. The item is "loading" (-2) until the result arrives.
    const int64_t storedId = item->data(Qt::UserRole + 1).toLongLong();
    const int sessionId = m_nextLoadedId++;
    const std::string path = m_session.path().toStdString();
    {
        const QSignalBlocker block(m_runList);
        item->setData(Qt::UserRole, -2);
    }
    m_storedLoads->launch(
        [path, storedId, sessionId](ProgressFn, CancelToken) -> Result<views::RunResult> {
            auto project = store::Project::open(path, store::Project::OpenMode::ReadOnly);
            if (!project)
                return project.error();
            return ProjectSession::loadFrom(*project.value(), storedId, sessionId);
        },
        [this, storedId](Result<views::RunResult> run) {
            QListWidgetItem* item = nullptr;
            for (int i = 0; i < m_runList->count() && !item; ++i)
                if (m_runList->item(i)->data(Qt::UserRole + 1).toLongLong() == storedId)
                    item = m_runList->item(i);
            if (item) {
                const QSignalBlocker block(m_runList);
                if (!run) {
                    showError(QString::fromStdString(run.error().toString()));
                    item->setCheckState(Qt::Unchecked);
                    item->setData(Qt::UserRole, -1);
                } else {
                    item->setData(Qt::UserRole, run->id);
                    item->setIcon(swatch(m_dashboard->colourOf(run->policy)));
                    m_results.push_back(std::move(run).value());
                }
            }
            refreshDashboard();
            if (!m_storedLoads->isRunning())
                emit storedRunsLoaded();
        });
}

bool MainWindow::saveProject()
{
    if (!m_session.isOpen()) {
        if (!m_interactive) {
            showError(tr("No project is open: use Save Project As."));
            return false;
        }
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Project"), QString(), tr("schedlab projects (*.schedlab)"));
        return !path.isEmpty() && saveProjectAs(path);
    }
    if (hasUnsavedRuns() && !m_trace) {
        showError(tr("The trace of the unsaved runs is no longer open."));
        return false;
    }
    const Status s = hasUnsavedRuns() ? m_session.save(m_results, *m_trace, m_tracePaths) : Status();
    // Runs stored before a failure keep their ids; the list learns them either way.
    for (int i = 0; i < m_runList->count(); ++i)
        for (const views::RunResult& r : m_results)
            if (m_runList->item(i)->data(Qt::UserRole).toInt() == r.id)
                m_runList->item(i)->setData(Qt::UserRole + 1, qlonglong(r.storedId));
    updateTitle();
    if (!s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_status->setText(tr("Saved to %1").arg(m_session.path()));
    return true;
}

bool MainWindow::saveProjectAs(const QString& path)
{
    const QString target = QFileInfo(withProjectExtension(path)).absoluteFilePath();
    if (m_session.isOpen() && target == m_session.path())
        return saveProject();
    // Stored runs come along by copying the current project; then the unsaved runs are added.
    for (const QString& f : { target, target + "-wal", target + "-shm" })
        if (QFileInfo::exists(f) && !QFile::remove(f)) {
            showError(tr("%1: cannot replace the existing file").arg(f));
            return false;
        }
    if (m_session.isOpen())
        if (Status s = m_session.copyTo(target); !s) {
            showError(QString::fromStdString(s.error().toString()));
            return false;
        }
    ProjectSession next;
    if (Status s = next.open(target, false); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_session = std::move(next);
    refreshRounds();
    if (!m_session.readOnly())
        (void)m_session.project()->setSetting("reward_weights", m_reward->config().toString());
    return saveProject();
}



} // namespace schedlab::app
