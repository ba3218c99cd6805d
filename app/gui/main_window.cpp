#include "main_window.h"

#include "workflow/run_args.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "heatmap_widget.h"
#include "job_table_model.h"
#include "reward_editor.h"
#include "training_panel.h"

#include "policy/placement_policy.h"
#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
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
#include <QVBoxLayout>

namespace schedlab::app {

namespace {
const std::vector<std::string> kDefaultTimed = { "firstfit", "bestfit", "k8s-default", "fgd" };
const std::vector<std::string> kDefaultFill = { "random", "bestfit", "fgd" };

QIcon swatch(const QColor& c)
{
    QPixmap pm(12, 12);
    pm.fill(c);
    return QIcon(pm);
}
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
    tabs->addTab(m_dashboard, tr("Dashboard"));
    tabs->addTab(m_comparison, tr("Comparison"));
    m_training = new views::TrainingPanel(tabs);
    tabs->addTab(m_training, tr("Training"));
    m_incidentPanel = new IncidentPanel(tabs);
    tabs->addTab(m_incidentPanel, tr("Incidents"));
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
    connect(m_incidentPanel, &IncidentPanel::cursorRequested, m_dashboard, &views::DashboardWidget::setCursorX);
    connect(m_incidentPanel, &IncidentPanel::forkFinished, this, [this](views::RunResult r) {
        r.fork = true;
        onRunFinished(r);
    });
    connect(m_incidentPanel, &IncidentPanel::forkFailed, this, &MainWindow::showError);
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
        m_status->setText(cancelled ? tr("Cancelled") : error.isEmpty() ? tr("Done") : tr("Run failed"));
        emit batchDone();
    });

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
    connect(m_training, &views::TrainingPanel::showOnDashboard, this, [this](const std::vector<std::string>& rounds) {
        // The selected rounds next to the baselines checked in the Policies dock.
        std::vector<std::string> policies = rounds;
        for (int i = 0; i < m_policyList->count(); ++i)
            if (m_policyList->item(i)->checkState() == Qt::Checked)
                policies.push_back(m_policyList->item(i)->text().toStdString());
        showTab(0);
        runPolicies(policies);
    });
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
    m_summary = new QPlainTextEdit(traceWidget);
    m_summary->setReadOnly(true);
    m_summary->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_summary->setMaximumHeight(180);
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
    m_seeds = new QLineEdit("42", pw);
    m_seeds->setObjectName("seedsEdit");
    m_seeds->setToolTip(tr("Seeds: N, A-B or a comma list"));
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Queue"), m_queue);
    form->addRow(tr("Backfill"), m_backfill);
    form->addRow(tr("Seeds"), m_seeds);
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
        if (item->checkState() == Qt::Checked && item->data(Qt::UserRole).toInt() < 0)
            loadStoredRun(item); // a stored run checked for the first time
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
    if (!m_session.project()) {
        m_training->setRounds({});
        return;
    }
    auto rounds = m_session.project()->rounds();
    if (!rounds) {
        showError(QString::fromStdString(rounds.error().toString()));
        return;
    }
    std::vector<std::pair<int64_t, double>> scores;
    for (const store::RoundRow& r : rounds.value()) {
        auto eval = m_session.project()->roundEval(r.id);
        if (!eval)
            continue;
        double sum = 0;
        int n = 0;
        for (const store::EvalValue& v : eval.value())
            if (v.policy == "learned" && (v.metric == "finalGpuAllocPct" || v.metric == "waitP99S")) {
                sum += v.value;
                ++n;
            }
        if (n)
            scores.push_back({ r.id, sum / n });
    }
    m_training->setRounds(rounds.value(), scores);
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
    file->addSeparator();
    file->addAction(tr("&Import Trace..."), QKeySequence::Open, this, &MainWindow::chooseTrace);
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG..."), this, [this] { exportDashboard("png"); });
    file->addAction(tr("Export Dashboard as P&DF..."), this, [this] { exportDashboard("pdf"); });
    file->addAction(tr("Export Visible Range as &CSV..."), this, [this] { exportDashboard("csv"); });
    file->addAction(tr("Export &Summary Table as CSV..."), this, [this] { exportDashboard("summary"); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    m_recentMenu->setObjectName("recentProjectsMenu");
    runMenu->addAction(tr("&Run Checked Policies"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] { runPolicies(); });
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
    view->addAction(tr("Reset &Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
        [this] { m_dashboard->setRuns(m_dashboard->runs()); });
}

void MainWindow::chooseTrace()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace"),
        QSettings().value("paths/lastTraceDir").toString(), tr("Traces (*.csv *.gz *.swf *.sltrace);;All files (*)"));
    if (files.isEmpty())
        return;
    QSettings().setValue("paths/lastTraceDir", QFileInfo(files.front()).absolutePath());
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    openTrace(paths);
}

bool MainWindow::openTrace(const std::vector<std::string>& paths)
{
    if (paths.empty() || !confirmDiscard())
        return false;
    // Parsed on a worker (ImportController): the window keeps painting and the cancel button works.
    m_banner->setVisible(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_status->setText(tr("Importing %1…").arg(QString::fromStdString(trace::baseName(paths.front()))));
    m_importer->start(paths);
    return true;
}

void MainWindow::applyTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths)
{
    m_progress->setVisible(m_runner->isRunning());
    m_cancel->setVisible(m_runner->isRunning());
    m_summary->setPlainText(QString::fromStdString(trace::toText(trace::summarize(*loaded))));
    // Shares the loaded trace: no copy of a large trace on the GUI thread.
    m_trace = std::shared_ptr<const trace::Trace>(loaded, &loaded->trace);
    m_jobs->setTrace(m_trace);
    m_traceName = QString::fromStdString(trace::baseName(paths.front()));
    m_tracePaths = paths;
    // Session runs of the previous trace go (confirmed when the import started); stored runs stay listed.
    m_results.erase(std::remove_if(m_results.begin(), m_results.end(), [](const views::RunResult& r) { return r.storedId < 0; }),
        m_results.end());
    for (int i = m_runList->count() - 1; i >= 0; --i)
        if (m_runList->item(i)->data(Qt::UserRole + 1).toLongLong() < 0)
            delete m_runList->takeItem(i);
    refreshDashboard();
    updateTitle();
    m_status->setText(tr("Loaded %1 jobs on %2 nodes in %3 s")
                          .arg(m_trace->jobs.size())
                          .arg(m_trace->nodes.size())
                          .arg(loaded->seconds, 0, 'f', 2));
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
    const bool fill = m_mode->currentIndex() == 2 || (m_mode->currentIndex() == 0 && workflow::suggestedMode(*m_trace) == sim::RunMode::Fill);
    if (fill) {
        batch.spec = sim::RunSpec::fill({}, sim::FillOptions {});
    } else {
        sim::TimedOptions o;
        policy::parseQueueOrder(m_queue->currentText().toStdString(), o.queue);
        o.backfill = m_backfill->currentText() == "easy" ? sim::Backfill::Easy : sim::Backfill::None;
        batch.spec = sim::RunSpec::timed({}, o);
    }
    // Colours follow the batch's policy order, not the order in which runs happen to finish.
    for (const std::string& p : policies)
        m_dashboard->colourOf(p);
    m_banner->setVisible(false);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_runner->start(batch);
}

void MainWindow::onRunFinished(const views::RunResult& r)
{
    m_results.push_back(r);
    addRunItem(r, true);
    refreshDashboard();
    updateTitle();
}

void MainWindow::addRunItem(const views::RunResult& r, bool checked)
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
    m_runList->addItem(item);
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
    m_incidentPanel->setProject(m_session.project());
    m_incidentPanel->setRuns(replayable, m_trace);
}

void MainWindow::showError(const QString& text)
{
    m_banner->setText(text);
    m_banner->setVisible(true);
}

void MainWindow::showTab(int index) { m_tabs->setCurrentIndex(index); }

QString MainWindow::bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

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

bool MainWindow::newProject(const QString& path)
{
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
            openTrace(files);
        break;
    }
    int finished = 0;
    for (const store::RunRow& row : rows.value()) {
        QString text = QStringLiteral("%1 #%2 (run %3, %4)")
                           .arg(QString::fromStdString(row.policy))
                           .arg(row.seed)
                           .arg(row.id)
                           .arg(QString::fromStdString(row.mode));
        auto* item = new QListWidgetItem(text);
        item->setData(Qt::UserRole, -1); // not loaded yet
        item->setData(Qt::UserRole + 1, qlonglong(row.id));
        if (row.status == "finished") {
            ++finished;
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

void MainWindow::loadStoredRun(QListWidgetItem* item)
{
    const int64_t storedId = item->data(Qt::UserRole + 1).toLongLong();
    auto run = m_session.load(storedId, m_nextLoadedId++);
    const QSignalBlocker block(m_runList);
    if (!run) {
        showError(QString::fromStdString(run.error().toString()));
        item->setCheckState(Qt::Unchecked);
        return;
    }
    item->setData(Qt::UserRole, run->id);
    item->setIcon(swatch(m_dashboard->colourOf(run->policy)));
    m_results.push_back(std::move(run).value());
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
    const QString target = QFileInfo(path).absoluteFilePath();
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
