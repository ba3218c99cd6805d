// MainWindow: the menus (File, Edit, Run, View) and the recent-projects list.

#include "main_window.h"

#include "dashboard_widget.h"
#include "reward_editor.h"
#include "trace_dock.h"
#include "scaler_reward_editor.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QTabWidget>
#include <QUndoGroup>
#include <QUndoStack>

#include <optional>
#include <utility>

namespace schedlab::app {

void MainWindow::buildMenus()
{
    buildFileMenu();
    // Undo / redo of reward weight edits (the Reward dock's stack), from anywhere in the window.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // The Autoscaling tab's edits go to its own editor's stack while it is shown.
    QUndoStack* scalerStack = scalerPanel()->rewardEditor()->undoStack();
    m_undoGroup = new QUndoGroup(this);
    m_undoGroup->addStack(m_reward->undoStack());
    m_undoGroup->addStack(scalerStack);
    m_undoGroup->setActiveStack(m_reward->undoStack());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, scalerStack] {
        m_undoGroup->setActiveStack(m_tabs->currentWidget() == m_autoscalePage ? scalerStack : m_reward->undoStack());
    });
    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName("undoAction");
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    edit->addAction(undo);
    edit->addAction(redo);
    buildRunMenu();
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Closed docks come back from here (not only from a hidden context menu).
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Reset &Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), dashboard(), &views::DashboardWidget::resetZoom)
        ->setObjectName("resetZoomAction");
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Project..."), QKeySequence::New, this, [this] {
        if (!confirmDiscard())
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("New Project"), QString(), tr("schedlab projects (*.schedlab)"));
        if (!path.isEmpty())
            newProject(path);
    });
    file->addAction(tr("Open &Project..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        if (!confirmDiscard())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), QString(), tr("schedlab projects (*.schedlab);;All files (*)"));
        if (!path.isEmpty())
            openProject(path);
    });
    m_recentMenu = file->addMenu(tr("Recent P&rojects"));
    m_recentMenu->setObjectName("recentProjectsMenu");
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addAction(tr("&Save Project"), QKeySequence::Save, this, [this] { saveProject(); });
    file->addAction(tr("Save Project &As..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Project As"), QString(), tr("schedlab projects (*.schedlab)"));
        if (!path.isEmpty())
            saveProjectAs(path);
    });
    file->addAction(tr("Open S&weep..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep Plan"), QString(), tr("Sweep plans (*.sweep);;All files (*)"));
        if (!path.isEmpty())
            openSweep(path);
    });
    file->addAction(tr("Open Request &Load..."), this, [this] {
        m_tabs->setCurrentWidget(m_autoscalePage);
        emit autoscaleView()->openLoadRequested();
    });
    file->addSeparator();
    file->addAction(tr("&Import Trace..."), QKeySequence::Open, this, [this] { openTrace(m_traceDock->chooseFiles()); });
    // Every file under a folder a format claims (a kubectl dump with its logs).
    file->addAction(tr("Import &Folder..."), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), this, [this] { openTrace(m_traceDock->chooseFolder()); });
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG..."), this, [this] { m_dashboardPage->exportAs("png"); });
    file->addAction(tr("Export Dashboard as P&DF..."), this, [this] { m_dashboardPage->exportAs("pdf"); });
    file->addAction(tr("Export Visible Range as &CSV..."), this, [this] { m_dashboardPage->exportAs("csv"); });
    file->addAction(tr("Export &Summary Table as CSV..."), m_comparisonPage, &ComparisonPage::exportSummary);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
}

namespace {
// A sweep plan's shard count and file, asked in turn; nullopt when the user cancelled either.
std::optional<std::pair<int, QString>> askShardsAndFile(QWidget* parent, const QString& title)
{
    bool ok = false;
    const int shards = QInputDialog::getInt(parent, title, QObject::tr("Shards (one job each on the cluster):"), 4, 1, 100000, 1, &ok);
    if (!ok)
        return std::nullopt;
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Sweep plan"), QString(), QObject::tr("Sweep plans (*.sweep)"));
    if (path.isEmpty())
        return std::nullopt;
    return std::make_pair(shards, path);
}
} // namespace

void MainWindow::buildRunMenu()
{
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(tr("&Run Checked Policies"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] { runPolicies(); });
    runMenu->addAction(tr("Plan &Sweep..."), this, [this] {
        if (const auto target = askShardsAndFile(this, tr("Plan Sweep")))
            planSweep(target->second, target->first);
    });
    runMenu->addAction(tr("Plan &Training Sweep..."), this, [this] {
        bool ok = false;
        const QString weights = QInputDialog::getText(this, tr("Plan Training Sweep"),
            tr("Reward weights, one lineage per vector (ranges from:to:step, ';' between vectors);\n"
               "rounds, episodes and seeds come from the Training tab:"),
            QLineEdit::Normal, QString::fromStdString(m_reward->config().toString()), &ok);
        if (!ok || weights.isEmpty())
            return;
        if (const auto target = askShardsAndFile(this, tr("Plan Training Sweep")))
            planTrainingSweep(target->second, target->first, weights);
    });
    runMenu->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelWork);
    runMenu->addAction(tr("Clear &Runs"), this, [this] {
        if (!confirmDiscard())
            return;
        m_runs->clear(false);
        refreshDashboard();
        updateTitle();
    });
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = ProjectSession::recentProjects();
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    for (int i = 0; i < recent.size(); ++i) {
        const QString p = recent[i];
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(p), this, [this, p] {
            if (confirmDiscard())
                openProject(p);
        });
        a->setEnabled(QFileInfo::exists(p));
    }
}

} // namespace schedlab::app
