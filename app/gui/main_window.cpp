#include "main_window.h"
#include "swatch.h"

#include "workflow/run_args.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "trace_overview_widget.h"
#include "heatmap_widget.h"
#include "job_table_model.h"
#include "reward_editor.h"
#include "trace_summary_view.h"
#include "training_panel.h"

#include "policy/placement_policy.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include "scaler_reward_editor.h"

#include <QUndoGroup>
#include <QUndoStack>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QVBoxLayout>

namespace schedlab::app {

namespace {
const std::vector<std::string> kDefaultTimed = { "firstfit", "bestfit", "k8s-default", "fgd" };
const std::vector<std::string> kDefaultFill = { "random", "bestfit", "fgd" };

} // namespace

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
    auto* tabs = m_tabs = new QTabWidget(central);
    m_dashboard = new views::DashboardWidget(tabs);
    m_comparison = new views::ComparisonWidget([this](const std::string& p) { return m_dashboard->colourOf(p); }, tabs);
    // The Dashboard tab: the trace-overview strip (the window to replay) above the plots.
    auto* dashPage = new QWidget(tabs);
    auto* dashLayout = new QVBoxLayout(dashPage);
    dashLayout->setContentsMargins(0, 0, 0, 0);
    dashLayout->setSpacing(2);
    m_overview = new views::TraceOverviewWidget(dashPage);
    m_overview->setVisible(false);
    dashLayout->addWidget(m_overview);
    dashLayout->addWidget(m_dashboard, 1);
    connect(m_overview, &views::TraceOverviewWidget::windowChanged, this,
        [this] { m_status->setText(m_overview->windowText() + tr(" — Run to replay it")); });
    tabs->addTab(dashPage, tr("Dashboard"));
    tabs->addTab(m_comparison, tr("Comparison"));
    connect(m_dashboard, &views::DashboardWidget::utilizationChanged, m_comparison,
        [this](views::DashboardWidget::Utilization u) { m_comparison->setUtilization(workflow::UtilizationKind(int(u))); });
    m_training = new views::TrainingPanel(tabs);
    m_training->setProjectOpen(false);
    tabs->addTab(m_training, tr("Training"));
    m_incidentPanel = new views::IncidentPanel(tabs);
    m_incidents = new IncidentController(m_incidentPanel, this);
    tabs->addTab(m_incidentPanel, tr("Incidents"));
    buildSweepTab();
    buildAutoscaleTab();
    // Incident replay and the dashboard share one cursor: a click on a plot or the heatmap selects
    // the nearest decision; selecting a decision moves the cursor there.
    connect(m_dashboard, &views::DashboardWidget::cursorClicked, this, [this](double x) {
        // With no run indexed yet, the heatmap's run (else the first shown) is indexed first.
        const auto& shown = m_dashboard->runs();
        const int h = m_dashboard->heatmap()->currentRun();
        int id = -1;
        if (h >= 0 && std::size_t(h) < shown.size() && !shown[std::size_t(h)].fork)
            id = shown[std::size_t(h)].id;
        for (std::size_t i = 0; id < 0 && i < shown.size(); ++i)
            if (!shown[i].fork)
                id = shown[i].id;
        m_incidentPanel->followDashboardClick(x, id);
    });
    connect(m_incidentPanel, &views::IncidentPanel::cursorRequested, m_dashboard, &views::DashboardWidget::setCursorX);
    connect(m_incidentPanel, &views::IncidentPanel::forkFinished, this, [this](views::RunResult r) {
        r.fork = true;
        onRunFinished(r);
    });
    connect(m_incidentPanel, &views::IncidentPanel::forkFailed, this, &MainWindow::showError);
    // Side docks per tab: the Incidents tab wants the width the Trace dock takes; what the user
    // shows or hides on a tab is remembered for that tab.
    connect(tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_loadingSettings)
            return;
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
    });
    layout->addWidget(m_banner);
    layout->addWidget(tabs, 1);
    setCentralWidget(central);

    m_runner = new RunController(this);
    connect(m_runner, &RunController::progress, this, [this](double f, const QString& what) {
        m_progress->setValue(int(f * 1000));
        m_status->setText(what);
    });
    connect(m_runner, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_runner, &RunController::batchFinished, this, [this](bool cancelled, const QString& error) {
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
        if (!error.isEmpty())
            showError(error);
        QString done = tr("Done");
        // A fill workload above the ratio was trimmed (as the FGD authors do): say so.
        for (const views::RunResult& r : m_results)
            if (r.fill && r.fill->podsRemoved > 0) {
                done = tr("Done. The pod list asks for %1 % of GPU capacity: %2 pods removed at random down to "
                          "the ratio, as the FGD authors do")
                           .arg(r.fill->originalRequestPct, 0, 'f', 1)
                           .arg(r.fill->podsRemoved);
                break;
            }
        m_status->setText(cancelled ? tr("Cancelled") : error.isEmpty() ? done : tr("Run failed"));
        emit batchDone();
    });

    m_storedLoads = new JobTracker(this);
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

    m_trainer = new TrainingController(this);
    connect(m_training, &views::TrainingPanel::startRequested, this, [this](const views::TrainRequest& r) { startTraining(r); });
    connect(m_training, &views::TrainingPanel::cancelRequested, m_trainer, &TrainingController::cancel);
    connect(m_training, &views::TrainingPanel::showOnDashboard, this, &MainWindow::showRoundsOnDashboard);
    connect(m_trainer, &TrainingController::episode, m_training, &views::TrainingPanel::addEpisode);
    // Selecting stored rounds (while nothing trains) shows their curves, in round order.
    connect(m_training->lineage(), &QTreeWidget::itemSelectionChanged, this, [this] {
        if (m_trainer->isRunning() || !m_session.project())
            return;
        std::vector<int64_t> ids;
        for (QTreeWidgetItem* item : m_training->lineage()->selectedItems())
            ids.push_back(item->data(0, Qt::UserRole).toLongLong());
        std::sort(ids.begin(), ids.end());
        m_training->clearCurves();
        for (int64_t id : ids)
            if (auto curve = m_session.project()->roundCurve(id))
                for (const store::CurvePoint& p : curve.value()) {
                    rl::EpisodeStats s;
                    s.episode = p.episode;
                    s.meanLoss = p.loss;
                    s.minLoss = p.lossMin;
                    s.maxLoss = p.lossMax;
                    s.episodeReturn = p.episodeReturn;
                    s.epsilon = p.epsilon;
                    s.decisions = p.decisions;
                    s.seconds = p.seconds;
                    s.validation = p.validation;
                    m_training->addEpisode(int(id), s);
                }
    });
    connect(m_trainer, &TrainingController::progress, m_training, &views::TrainingPanel::setProgress);
    connect(m_trainer, &TrainingController::roundFinished, this, [this] { refreshRounds(); });
    connect(m_trainer, &TrainingController::finished, this, [this](bool cancelled, const QString& error) {
        m_training->setRunning(false);
        refreshRounds();
        if (!error.isEmpty())
            showError(error);
        m_status->setText(cancelled ? tr("Training cancelled") : error.isEmpty() ? tr("Training done") : tr("Training failed"));
        emit trainingDone();
    });

    buildDocks();
    buildMenus();
    updateModeControls();
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("statusProgress");
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_importer->cancel();
        m_runner->cancel();
    });
    m_status = new QLabel(tr("Open a trace (Ctrl+O) or drop files here"), this);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    buildModeStatus();
    resize(1280, 800);
    QSettings settings;
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: room for the trace summary and the job table.
        resizeDocks({ findChild<QDockWidget*>("traceDock") }, { 300 }, Qt::Horizontal);
        resizeDocks({ findChild<QDockWidget*>("policyDock") }, { 190 }, Qt::Horizontal);
    }
    restoreGeometry(settings.value("window/geometry").toByteArray());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    // Trace: summary and a sortable, filterable job table.
    auto* traceDock = new QDockWidget(tr("Trace"), this);
    traceDock->setObjectName("traceDock");
    auto* traceWidget = new QWidget(traceDock);
    auto* tl = new QVBoxLayout(traceWidget);
    m_summary = new views::TraceSummaryView(traceWidget);
    m_summary->setMaximumHeight(200);
    auto* filter = new QLineEdit(traceWidget);
    filter->setPlaceholderText(tr("Filter jobs by name or id"));
    m_jobs = new views::JobTableModel(this);
    m_jobsProxy = new QSortFilterProxyModel(this);
    m_jobsProxy->setSourceModel(m_jobs);
    m_jobsProxy->setSortRole(Qt::UserRole);
    m_jobsProxy->setFilterKeyColumn(-1);
    connect(filter, &QLineEdit::textChanged, m_jobsProxy, &QSortFilterProxyModel::setFilterFixedString);
    auto* table = new QTableView(traceWidget);
    table->setModel(m_jobsProxy);
    table->setSortingEnabled(true);
    table->sortByColumn(views::JobTableModel::Submit, Qt::AscendingOrder);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(20);
    tl->addWidget(m_summary);
    // SWF logs describe a processor pool; the split into nodes makes heatmaps and fragmentation
    // mean something. Shown for SWF traces, pre-filled from the log's .machines file or header.
    m_swfRow = new QWidget(traceWidget);
    auto* swf = new QHBoxLayout(m_swfRow);
    swf->setContentsMargins(0, 0, 0, 0);
    m_procsPerNode = new QSpinBox(m_swfRow);
    m_procsPerNode->setObjectName("procsPerNode");
    m_procsPerNode->setRange(0, 1'000'000);
    m_procsPerNode->setSpecialValueText(tr("one pool"));
    m_procsPerNode->setToolTip(tr("SWF: processors per node (0 = one processor pool); jobs become gangs of ceil(p / K) tasks"));
    auto* split = new QPushButton(tr("Reload"), m_swfRow);
    split->setObjectName("procsPerNodeReload");
    swf->addWidget(new QLabel(tr("Procs/node"), m_swfRow));
    swf->addWidget(m_procsPerNode, 1);
    swf->addWidget(split);
    m_swfRow->setVisible(false);
    connect(split, &QPushButton::clicked, this, [this] {
        trace::ImportOptions o;
        o.procsPerNode = m_procsPerNode->value();
        openTrace(m_tracePaths, o);
    });
    tl->addWidget(m_swfRow);
    tl->addWidget(filter);
    tl->addWidget(table, 1);
    traceDock->setWidget(traceWidget);
    addDockWidget(Qt::LeftDockWidgetArea, traceDock);

    // Policies: checkable placement policies and the replay options.
    auto* policyDock = new QDockWidget(tr("Policies"), this);
    policyDock->setObjectName("policyDock");
    auto* pw = new QWidget(policyDock);
    auto* pl = new QVBoxLayout(pw);
    m_policyList = new QListWidget(pw);
    m_policyList->setObjectName("policyList");
    for (const policy::PolicyInfo& info : policy::placementPolicies()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name), m_policyList);
        item->setToolTip(QString::fromStdString(info.description));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(std::count(kDefaultTimed.begin(), kDefaultTimed.end(), info.name) ? Qt::Checked : Qt::Unchecked);
    }
    auto* form = new QFormLayout();
    m_mode = new QComboBox(pw);
    m_mode->setObjectName("modeBox");
    m_mode->addItems({ tr("auto"), tr("timed replay"), tr("fill experiment") });
    m_queue = new QComboBox(pw);
    m_queue->setObjectName("queueBox");
    for (const std::string& q : policy::queueOrderNames())
        m_queue->addItem(QString::fromStdString(q));
    m_backfill = new QComboBox(pw);
    m_backfill->setObjectName("backfillBox");
    m_backfill->addItems({ "easy", "none" });
    m_head = new QComboBox(pw);
    m_head->setObjectName("headBox");
    m_head->addItems({ "resort", "commit" });
    m_head->setToolTip(tr("resort: each pass starts from the queue's first by the order (a real scheduler); commit: a "
                          "blocked head stays the head until it starts (the RLScheduler simulator)"));
    m_ratio = new QDoubleSpinBox(pw);
    m_ratio->setObjectName("ratioBox");
    m_ratio->setRange(0.1, 10);
    m_ratio->setSingleStep(0.1);
    m_ratio->setValue(1.3);
    m_ratio->setToolTip(tr("Fill experiment: pods are inflated up to this multiple of the cluster's GPU capacity (1.3 in the FGD paper)"));
    m_trim = new QCheckBox(tr("to ratio"), pw);
    m_trim->setObjectName("trimBox");
    m_trim->setChecked(true);
    m_trim->setToolTip(tr("A pod list asking for more than ratio x capacity loses random pods (seeded) down to it, as "
                          "the FGD authors' simulator does; off replays every pod"));
    m_seeds = new QLineEdit("42", pw);
    m_seeds->setObjectName("seedsEdit");
    m_seeds->setToolTip(tr("Seeds: N, A-B or a comma list"));
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Queue"), m_queue);
    form->addRow(tr("Backfill"), m_backfill);
    form->addRow(tr("Queue head"), m_head);
    form->addRow(tr("Make room"), buildRoomRow(pw));
    form->addRow(tr("Fill ratio"), m_ratio);
    form->addRow(tr("Trim"), m_trim);
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, &MainWindow::updateModeControls);
    form->addRow(tr("Seeds"), m_seeds);
    form->addRow(tr("Scheduler config"), buildSchedulerConfigRow(pw));
    auto* run = new QPushButton(tr("Run (Ctrl+R)"), pw);
    connect(run, &QPushButton::clicked, this, [this] { runPolicies(); });
    pl->addWidget(m_policyList, 1);
    pl->addLayout(form);
    pl->addWidget(run);
    policyDock->setWidget(pw);
    addDockWidget(Qt::RightDockWidgetArea, policyDock);

    // Runs of this session; unchecking hides a run from the dashboard.
    auto* runsDock = new QDockWidget(tr("Runs"), this);
    runsDock->setObjectName("runsDock");
    m_runList = new QListWidget(runsDock);
    connect(m_runList, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (item->checkState() == Qt::Checked && item->data(Qt::UserRole).toInt() == -1)
            loadStoredRun(item); // a stored run checked for the first time (-2: loading)
        refreshDashboard();
    });
    runsDock->setWidget(m_runList);
    addDockWidget(Qt::RightDockWidgetArea, runsDock);

    // Reward weights of the learned policy; saved in the project.
    auto* rewardDock = new QDockWidget(tr("Reward"), this);
    rewardDock->setObjectName("rewardDock");
    m_reward = new views::RewardEditor(rewardDock);
    rewardDock->setWidget(m_reward);
    addDockWidget(Qt::RightDockWidgetArea, rewardDock);
    tabifyDockWidget(policyDock, rewardDock);
    policyDock->raise();
    connect(m_reward, &views::RewardEditor::changed, this, [this](const rl::RewardConfig& c) {
        if (m_loadingSettings || !m_session.project() || m_session.readOnly() || !m_reward->isValid())
            return;
        if (Status s = m_session.project()->setSetting("reward_weights", c.toString()); !s)
            showError(QString::fromStdString(s.error().toString()));
    });
}

void MainWindow::buildMenus()
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
        m_tabs->setCurrentWidget(m_autoscaleTab);
        emit m_autoscaleView->openLoadRequested();
    });
    file->addSeparator();
    file->addAction(tr("&Import Trace..."), QKeySequence::Open, this, &MainWindow::chooseTrace);
    file->addAction(tr("Import &Folder..."), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), this, &MainWindow::chooseTraceFolder);
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG..."), this, [this] { exportDashboard("png"); });
    file->addAction(tr("Export Dashboard as P&DF..."), this, [this] { exportDashboard("pdf"); });
    file->addAction(tr("Export Visible Range as &CSV..."), this, [this] { exportDashboard("csv"); });
    file->addAction(tr("Export &Summary Table as CSV..."), this, [this] { exportDashboard("summary"); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    // Undo / redo of reward weight edits (the Reward dock's stack), from anywhere in the window.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // The Autoscaling tab's edits go to its own editor's stack while it is shown.
    m_undoGroup = new QUndoGroup(this);
    m_undoGroup->addStack(m_reward->undoStack());
    m_undoGroup->addStack(m_scalerPanel->rewardEditor()->undoStack());
    m_undoGroup->setActiveStack(m_reward->undoStack());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_undoGroup->setActiveStack(m_tabs->currentWidget() == m_autoscaleTab ? m_scalerPanel->rewardEditor()->undoStack() : m_reward->undoStack());
    });
    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName("undoAction");
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    edit->addAction(undo);
    edit->addAction(redo);
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_recentMenu->setObjectName("recentProjectsMenu");
    runMenu->addAction(tr("&Run Checked Policies"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] { runPolicies(); });
    runMenu->addAction(tr("Plan &Sweep..."), this, [this] {
        bool ok = false;
        const int shards = QInputDialog::getInt(this, tr("Plan Sweep"), tr("Shards (one job each on the cluster):"), 4, 1, 100000, 1, &ok);
        if (!ok)
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Sweep plan"), QString(), tr("Sweep plans (*.sweep)"));
        if (!path.isEmpty())
            planSweep(path, shards);
    });
    runMenu->addAction(tr("Plan &Training Sweep..."), this, [this] {
        bool ok = false;
        const QString weights = QInputDialog::getText(this, tr("Plan Training Sweep"),
            tr("Reward weights, one lineage per vector (ranges from:to:step, ';' between vectors);\n"
               "rounds, episodes and seeds come from the Training tab:"),
            QLineEdit::Normal, QString::fromStdString(m_reward->config().toString()), &ok);
        if (!ok || weights.isEmpty())
            return;
        const int shards = QInputDialog::getInt(this, tr("Plan Training Sweep"), tr("Shards (one job each on the cluster):"), 4, 1, 100000, 1, &ok);
        if (!ok)
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Sweep plan"), QString(), tr("Sweep plans (*.sweep)"));
        if (!path.isEmpty())
            planTrainingSweep(path, shards, weights);
    });
    runMenu->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, [this] {
        m_importer->cancel();
        m_runner->cancel();
    });
    runMenu->addAction(tr("Clear &Runs"), this, [this] {
        if (!confirmDiscard())
            return;
        m_results.clear();
        m_runList->clear();
        refreshDashboard();
        updateTitle();
    });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Closed docks come back from here (not only from a hidden context menu).
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Reset &Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), m_dashboard, &views::DashboardWidget::resetZoom)
        ->setObjectName("resetZoomAction");
}

void MainWindow::showError(const QString& text)
{
    m_banner->setText(text);
    m_banner->setVisible(true);
}

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
    m_trainer->cancel();
    QMainWindow::closeEvent(e);
}

} // namespace schedlab::app

namespace schedlab::app {

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
