#include "main_window.h"

#include "mode_status.h"
#include "status_area.h"
#include "tab_docks.h"
#include "trace_dock.h"
#include "trace_locator.h"

#include "reward_editor.h"
#include "run_options_widget.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace schedlab::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setAcceptDrops(true);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_statusArea = new StatusArea(this, statusBar());
    m_tabs = new QTabWidget(central);
    m_reward = new views::RewardEditor; // the Reward dock's; the Training tab trains with it
    buildPages();
    m_missingNotice = new views::MissingTraceNotice(central);
    layout->addWidget(m_statusArea->banner());
    layout->addWidget(m_missingNotice);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    buildDocks();
    connectPages();
    connectWork();
    buildMenus();
    m_modeStatus = new ModeStatus(m_options, statusBar(), this);
    connect(m_modeStatus, &ModeStatus::fillModeChanged, m_dashboardPage, &DashboardPage::setFillMode);
    resize(1280, 800);
    QSettings settings;
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: room for the trace summary and the job table.
        resizeDocks({ m_traceDock }, { 300 }, Qt::Horizontal);
        resizeDocks({ findChild<QDockWidget*>("policyDock") }, { 190 }, Qt::Horizontal);
    }
    restoreGeometry(settings.value("window/geometry").toByteArray());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildPages()
{
    m_dashboardPage = new DashboardPage(m_tabs);
    m_comparisonPage = new ComparisonPage([this](const std::string& p) { return m_dashboardPage->colourOf(p); }, m_tabs);
    m_trainingPage = new TrainingPage(&m_session, m_reward, m_tabs);
    m_incidentsPage = new IncidentsPage(&m_session, m_tabs);
    m_sweepsPage = new SweepsPage(&m_session, m_tabs);
    m_autoscalePage = new AutoscalePage(&m_session, m_tabs);
    m_tabs->addTab(m_dashboardPage, tr("Dashboard"));
    m_tabs->addTab(m_comparisonPage, tr("Comparison"));
    m_tabs->addTab(m_trainingPage, tr("Training"));
    m_tabs->addTab(m_incidentsPage, tr("Incidents"));
    m_tabs->addTab(m_sweepsPage, tr("Sweeps"));
    m_tabs->addTab(m_autoscalePage, tr("Autoscaling"));
    new TabDocks(this, m_tabs);
}

void MainWindow::connectPages()
{
    auto reportTo = [this](auto*... from) {
        (connect(from, &std::remove_pointer_t<decltype(from)>::errorOccurred, this, &MainWindow::showError), ...);
    };
    reportTo(m_dashboardPage, m_comparisonPage, m_trainingPage, m_incidentsPage, m_sweepsPage, m_autoscalePage, m_runs);
    auto statusTo = [this](auto*... from) {
        (connect(from, &std::remove_pointer_t<decltype(from)>::statusMessage, this, &MainWindow::showStatus), ...);
    };
    statusTo(m_dashboardPage, m_trainingPage, m_sweepsPage);
    connect(m_dashboardPage, &DashboardPage::runsShown, m_comparisonPage, &ComparisonPage::setRuns);
    connect(m_dashboardPage, &DashboardPage::utilizationChanged, m_comparisonPage, &ComparisonPage::setUtilization);
    // Incident replay and the dashboard share one cursor: a click on a plot or the heatmap selects
    // the nearest decision; selecting a decision moves the cursor there.
    connect(m_dashboardPage, &DashboardPage::cursorClicked, m_incidentsPage, &IncidentsPage::followDashboardClick);
    connect(m_incidentsPage, &IncidentsPage::cursorRequested, m_dashboardPage, &DashboardPage::setCursorX);
    connect(m_incidentsPage, &IncidentsPage::forkFinished, m_runs, &RunsDock::addFinished);
    connect(m_trainingPage, &TrainingPage::showOnDashboard, this, &MainWindow::showRoundsOnDashboard);
    connect(m_trainingPage, &TrainingPage::errorCleared, m_statusArea, &StatusArea::clearError);
    connect(m_trainingPage, &TrainingPage::finished, this, &MainWindow::trainingDone);
    connect(m_sweepsPage, &SweepsPage::merged, this, [this] {
        const int added = m_runs->appendNewStoredRuns();
        refreshRounds(); // training cells come in as rounds
        if (added > 0)
            showStatus(tr("%1 sweep cells merged into %2").arg(added).arg(m_session.path()));
    });
    connect(m_sweepsPage, &SweepsPage::runCellRequested, this, &MainWindow::showRunCell);
    connect(m_sweepsPage, &SweepsPage::roundCellRequested, this, [this](const std::string& round) {
        refreshRounds(); // the cell's rounds are listed
        showRoundsOnDashboard({ round });
    });
    connect(m_autoscalePage, &AutoscalePage::trainingFinished, this, &MainWindow::scalerTrainingFinished);
}

void MainWindow::buildDocks()
{
    m_traceDock = new TraceDock(this);
    connect(m_traceDock, &TraceDock::reloadRequested, this, [this](const trace::ImportOptions& o) { openTrace(m_tracePaths, o); });
    addDockWidget(Qt::LeftDockWidgetArea, m_traceDock);
    // Policies: checkable placement policies and the replay options.
    auto* policyDock = new QDockWidget(tr("Policies"), this);
    policyDock->setObjectName("policyDock");
    m_options = new views::RunOptionsWidget(policyDock);
    connect(m_options, &views::RunOptionsWidget::runRequested, this, [this] { runPolicies(); });
    connect(m_options, &views::RunOptionsWidget::schedulerConfigFailed, this, &MainWindow::showError);
    connect(m_options, &views::RunOptionsWidget::schedulerConfigSet, this,
        [this](const QString& summary) { showStatus(tr("Scheduler configuration: %1").arg(summary)); });
    policyDock->setWidget(m_options);
    addDockWidget(Qt::RightDockWidgetArea, policyDock);
    // Runs of this session; unchecking hides a run from the dashboard.
    m_runs = new RunsDock(&m_session, [this](const std::string& p) { return m_dashboardPage->colourOf(p); }, this);
    addDockWidget(Qt::RightDockWidgetArea, m_runs);
    // Reward weights of the learned policy; saved in the project.
    auto* rewardDock = new QDockWidget(tr("Reward"), this);
    rewardDock->setObjectName("rewardDock");
    rewardDock->setWidget(m_reward);
    addDockWidget(Qt::RightDockWidgetArea, rewardDock);
    tabifyDockWidget(policyDock, rewardDock);
    policyDock->raise();
}

void MainWindow::connectWork()
{
    connect(m_statusArea, &StatusArea::cancelRequested, this, &MainWindow::cancelWork);
    connect(m_runs, &RunsDock::progress, this, [this](double f, const QString& what) {
        m_statusArea->setProgress(f);
        showStatus(what);
    });
    connect(m_runs, &RunsDock::batchFinished, this, &MainWindow::batchFinished);
    connect(m_runs, &RunsDock::checkedRunsChanged, this, &MainWindow::refreshDashboard);
    connect(m_runs, &RunsDock::runsChanged, this, &MainWindow::updateTitle);
    connect(m_runs, &RunsDock::storedRunsLoaded, this, &MainWindow::storedRunsLoaded);
    connect(m_runs, &RunsDock::storedRunsLoaded, this, &MainWindow::checkProjectShown);
    connect(this, &MainWindow::traceOpened, this, &MainWindow::checkProjectShown);
    m_importer = new ImportController(this);
    connect(m_importer, &ImportController::progress, m_statusArea, &StatusArea::setProgress);
    connect(m_importer, &ImportController::imported, this, &MainWindow::applyTrace);
    connect(m_importer, &ImportController::failed, this, [this](bool cancelled, const QString& error) {
        m_traceNote.clear();
        m_statusArea->setBusy(m_runs->isRunning());
        if (!cancelled)
            showError(error);
        showStatus(cancelled ? tr("Import cancelled") : tr("Import failed"));
        emit traceOpened(false, error);
    });
    m_locator = new TraceLocator(this);
    connect(m_missingNotice, &views::MissingTraceNotice::locateRequested, this, &MainWindow::locateTrace);
    connect(m_locator, &TraceLocator::progress, m_statusArea, &StatusArea::setProgress);
    connect(m_locator, &TraceLocator::relocated, this, &MainWindow::traceFound);
    connect(m_locator, &TraceLocator::failed, this, [this](bool cancelled, const QString& error) {
        m_statusArea->setBusy(m_runs->isRunning());
        if (!cancelled)
            showError(error);
        showStatus(cancelled ? tr("Locating the trace cancelled") : tr("The trace was not brought back"));
        emit traceRelocated(false, error);
    });
}

void MainWindow::cancelWork()
{
    m_importer->cancel();
    m_locator->cancel();
    m_runs->cancel();
}

void MainWindow::showError(const QString& text) { m_statusArea->showError(text); }

void MainWindow::showStatus(const QString& text) { m_statusArea->showMessage(text); }

void MainWindow::showTab(int index) { m_tabs->setCurrentIndex(index); }

QString MainWindow::bannerText() const { return m_statusArea->errorText(); }

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    std::vector<std::string> paths;
    for (const QUrl& url : e->mimeData()->urls())
        if (url.isLocalFile())
            paths.push_back(url.toLocalFile().toStdString());
    if (!paths.empty())
        openTrace(paths);
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (!confirmDiscard()) {
        e->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    m_runs->cancel();
    m_trainingPage->cancel();
    QMainWindow::closeEvent(e);
}

} // namespace schedlab::app
