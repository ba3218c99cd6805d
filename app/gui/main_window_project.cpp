// MainWindow: the project file (new, open, save, save as), the window title and the question
// before unsaved runs are dropped.

#include "main_window.h"
#include "status_area.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include <algorithm>

namespace schedlab::app {


void MainWindow::refreshRounds()
{
    m_trainingPage->refreshRounds();
    m_autoscalePage->refreshRounds();
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

void MainWindow::projectChanged(bool storeReward)
{
    refreshDashboard();
    updateTitle();
    refreshRounds();
    if (storeReward)
        m_trainingPage->storeRewardSetting();
    else
        m_trainingPage->loadRewardSetting();
}

bool MainWindow::newProject(const QString& given)
{
    if (Status s = m_session.create(ProjectSession::withExtension(given)); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_runs->clear(true); // runs still loading from the previous project are dropped
    projectChanged(true);
    showStatus(tr("New project %1").arg(m_session.path()));
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
    m_runs->clear(true); // runs still loading from the previous project are dropped
    m_statusArea->clearError();
    // The trace of the newest finished run (or round), when its files are still where they were.
    if (auto last = m_session.newestTrace(rows.value()); last && last->first != m_tracePaths)
        openTrace(last->first, last->second);
    const auto finished = std::count_if(rows->begin(), rows->end(), [](const store::RunRow& r) { return r.status == "finished"; });
    m_runs->listStored(rows.value(), 4); // the newest finished runs are shown right away
    projectChanged(false);
    QString opened = tr("Opened %1: %2 stored runs (%3 finished)").arg(m_session.path()).arg(rows->size()).arg(finished);
    if (m_session.migratesOnWrite())
        opened += tr("; written by an older schedlab (schema %1), left unchanged until something is saved into it, which "
                     "upgrades it (older builds cannot open it then)")
                      .arg(m_session.project()->schemaVersion());
    showStatus(opened);
    return true;
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
    const Status s = m_runs->save(m_trace.get(), m_tracePaths);
    updateTitle();
    if (!s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    showStatus(tr("Saved to %1").arg(m_session.path()));
    return true;
}

bool MainWindow::saveProjectAs(const QString& path)
{
    const QString target = QFileInfo(ProjectSession::withExtension(path)).absoluteFilePath();
    if (m_session.isOpen() && target == m_session.path())
        return saveProject();
    // Stored runs come along by copying the current project; then the unsaved runs are added.
    if (Status s = m_session.saveAs(target); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    refreshRounds();
    m_trainingPage->storeRewardSetting();
    return saveProject();
}

} // namespace schedlab::app
