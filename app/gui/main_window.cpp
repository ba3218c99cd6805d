#include "main_window.h"

#include "mode_status.h"
#include "trace_dock.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "reward_editor.h"
#include "run_options_widget.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
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
    m_banner = new QLabel(central);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet("QLabel { background: #fde2e1; color: #611; padding: 6px; border: 1px solid #e99; }");
    m_tabs = new QTabWidget(central);
    m_reward = new views::RewardEditor; // the Reward dock's; the Training tab trains with it
    buildPages();
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    buildDocks();
    connectPages();
    connectWork();
    buildMenus();
    buildStatusBar();
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
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::showTabDocks);
}

void MainWindow::connectPages()
{
    connect(m_dashboardPage, &DashboardPage::errorOccurred, this, &MainWindow::showError);
    connect(m_comparisonPage, &ComparisonPage::errorOccurred, this, &MainWindow::showError);
    connect(m_trainingPage, &TrainingPage::errorOccurred, this, &MainWindow::showError);
    connect(m_incidentsPage, &IncidentsPage::errorOccurred, this, &MainWindow::showError);
    connect(m_sweepsPage, &SweepsPage::errorOccurred, this, &MainWindow::showError);
    connect(m_autoscalePage, &AutoscalePage::errorOccurred, this, &MainWindow::showError);
    connect(m_runs, &RunsDock::errorOccurred, this, &MainWindow::showError);
    connect(m_dashboardPage, &DashboardPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_dashboardPage, &DashboardPage::runsShown, m_comparisonPage, &ComparisonPage::setRuns);
    connect(dashboard(), &views::DashboardWidget::utilizationChanged, m_comparisonPage,
        [this](views::DashboardWidget::Utilization u) { m_comparisonPage->setUtilization(workflow::UtilizationKind(int(u))); });
    // Incident replay and the dashboard share one cursor: a click on a plot or the heatmap selects
    // the nearest decision; selecting a decision moves the cursor there.
    connect(m_dashboardPage, &DashboardPage::cursorClicked, m_incidentsPage, &IncidentsPage::followDashboardClick);
    connect(m_incidentsPage, &IncidentsPage::cursorRequested, m_dashboardPage, &DashboardPage::setCursorX);
    connect(m_incidentsPage, &IncidentsPage::forkFinished, this, [this](views::RunResult r) {
        r.fork = true;
        m_runs->addFinished(r);
    });
    connect(m_trainingPage, &TrainingPage::showOnDashboard, this, &MainWindow::showRoundsOnDashboard);
    connect(m_trainingPage, &TrainingPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_trainingPage, &TrainingPage::errorCleared, m_banner, &QLabel::hide);
    connect(m_trainingPage, &TrainingPage::finished, this, &MainWindow::trainingDone);
    connect(m_sweepsPage, &SweepsPage::merged, this, [this] {
        const int added = m_runs->appendNewStoredRuns();
        refreshRounds(); // training cells come in as rounds
        if (added > 0)
            showStatus(tr("%1 sweep cells merged into %2").arg(added).arg(m_session.path()));
    });
    connect(m_sweepsPage, &SweepsPage::runCellRequested, this, &MainWindow::showRunCell);
    connect(m_sweepsPage, &SweepsPage::roundCellRequested, this, &MainWindow::showRoundCell);
    connect(m_autoscalePage, &AutoscalePage::trainingFinished, this, &MainWindow::scalerTrainingFinished);
    connect(m_runs, &RunsDock::checkedRunsChanged, this, &MainWindow::refreshDashboard);
    connect(m_runs, &RunsDock::runsChanged, this, &MainWindow::updateTitle);
    connect(m_runs, &RunsDock::storedRunsLoaded, this, &MainWindow::storedRunsLoaded);
}

void MainWindow::showTabDocks(int index)
{
    // Side docks per tab: the Incidents and Sweeps tabs want the width the Trace dock takes; what
    // the user shows or hides on a tab is remembered for that tab.
    QSettings settings;
    if (m_lastTab >= 0)
        for (QDockWidget* d : findChildren<QDockWidget*>())
            settings.setValue(QStringLiteral("tabDocks/%1/%2").arg(m_lastTab).arg(d->objectName()), d->toggleViewAction()->isChecked());
    m_lastTab = index;
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        const bool byDefault = !((index == 3 || index == 4) && d->objectName() == "traceDock")
            && index != 5; // Autoscaling: the docks are about placement
        const QVariant shown = settings.value(QStringLiteral("tabDocks/%1/%2").arg(index).arg(d->objectName()));
        // The view action says "open" for a dock behind a tabified sibling too.
        if ((shown.isValid() ? shown.toBool() : byDefault) != d->toggleViewAction()->isChecked())
            d->toggleViewAction()->trigger();
    }
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

void MainWindow::buildStatusBar()
{
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("statusProgress");
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelWork);
    m_status = new QLabel(tr("Open a trace (Ctrl+O) or drop files here"), this);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_modeStatus = new ModeStatus(m_options, statusBar(), this);
    connect(m_modeStatus, &ModeStatus::fillModeChanged, m_dashboardPage, &DashboardPage::setFillMode);
}

void MainWindow::connectWork()
{
    m_runner = new RunController(this);
    connect(m_runner, &RunController::progress, this, [this](double f, const QString& what) {
        m_progress->setValue(int(f * 1000));
        m_status->setText(what);
    });
    connect(m_runner, &RunController::runFinished, m_runs, &RunsDock::addFinished);
    connect(m_runner, &RunController::batchFinished, this, &MainWindow::batchFinished);
    m_importer = new ImportController(this);
    connect(m_importer, &ImportController::progress, this, [this](double f) { m_progress->setValue(int(f * 1000)); });
    connect(m_importer, &ImportController::imported, this, &MainWindow::applyTrace);
    connect(m_importer, &ImportController::failed, this, [this](bool cancelled, const QString& error) {
        m_progress->setVisible(m_runner->isRunning());
        m_cancel->setVisible(m_runner->isRunning());
        if (!cancelled)
            showError(error);
        m_status->setText(cancelled ? tr("Import cancelled") : tr("Import failed"));
        emit traceOpened(false, error);
    });
}

void MainWindow::cancelWork()
{
    m_importer->cancel();
    m_runner->cancel();
}

void MainWindow::showError(const QString& text)
{
    m_banner->setText(text);
    m_banner->setVisible(true);
}

void MainWindow::showStatus(const QString& text) { m_status->setText(text); }

void MainWindow::showTab(int index) { m_tabs->setCurrentIndex(index); }

QString MainWindow::bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

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
    m_runner->cancel();
    m_trainingPage->cancel();
    QMainWindow::closeEvent(e);
}

} // namespace schedlab::app
