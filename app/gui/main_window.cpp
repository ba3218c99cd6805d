#include "main_window.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "job_table_model.h"

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
#include <QVBoxLayout>

namespace schedlab::app {

namespace {
const std::vector<std::string> kDefaultTimed = { "firstfit", "bestfit", "k8s-default", "fgd" };
const std::vector<std::string> kDefaultFill = { "random", "bestfit", "fgd" };

std::vector<uint64_t> parseSeeds(const QString& text)
{
    std::vector<uint64_t> out;
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        const QStringList range = part.trimmed().split('-');
        bool ok1 = false, ok2 = true;
        const qulonglong a = range.value(0).toULongLong(&ok1);
        const qulonglong b = range.size() > 1 ? range.value(1).toULongLong(&ok2) : a;
        if (!ok1 || !ok2 || b < a || b - a > 1000)
            return {};
        for (qulonglong v = a; v <= b; ++v)
            out.push_back(v);
    }
    return out;
}

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
    setWindowTitle(tr("schedlab"));
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

    buildDocks();
    buildMenus();
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, m_runner, &RunController::cancel);
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
    for (const policy::PolicyInfo& info : policy::placementPolicies()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name), m_policyList);
        item->setToolTip(QString::fromStdString(info.description));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(std::count(kDefaultTimed.begin(), kDefaultTimed.end(), info.name) ? Qt::Checked : Qt::Unchecked);
    }
    auto* form = new QFormLayout();
    m_mode = new QComboBox(pw);
    m_mode->addItems({ tr("auto"), tr("timed replay"), tr("fill experiment") });
    m_queue = new QComboBox(pw);
    for (const std::string& q : policy::queueOrderNames())
        m_queue->addItem(QString::fromStdString(q));
    m_backfill = new QComboBox(pw);
    m_backfill->addItems({ "easy", "none" });
    m_seeds = new QLineEdit("42", pw);
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
    connect(m_runList, &QListWidget::itemChanged, this, [this] { refreshDashboard(); });
    runsDock->setWidget(m_runList);
    addDockWidget(Qt::RightDockWidgetArea, runsDock);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Trace..."), QKeySequence::Open, this, &MainWindow::chooseTrace);
    file->addSeparator();
    file->addAction(tr("Export Dashboard as &PNG..."), this, [this] { exportDashboard("png"); });
    file->addAction(tr("Export Dashboard as P&DF..."), this, [this] { exportDashboard("pdf"); });
    file->addAction(tr("Export Visible Range as &CSV..."), this, [this] { exportDashboard("csv"); });
    file->addAction(tr("Export &Summary Table as CSV..."), this, [this] { exportDashboard("summary"); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(tr("&Run Checked Policies"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] { runPolicies(); });
    runMenu->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), m_runner, &RunController::cancel);
    runMenu->addAction(tr("Clear &Runs"), this, [this] {
        m_results.clear();
        m_runList->clear();
        refreshDashboard();
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
    auto loaded = trace::loadTrace(paths);
    if (!loaded) {
        showError(QString::fromStdString(loaded.error().toString()));
        m_status->setText(tr("Import failed"));
        return false;
    }
    m_banner->setVisible(false);
    m_summary->setPlainText(QString::fromStdString(trace::toText(trace::summarize(loaded.value()))));
    m_trace = std::make_shared<const trace::Trace>(std::move(loaded->trace));
    m_jobs->setTrace(m_trace);
    m_traceName = QString::fromStdString(trace::baseName(paths.front()));
    setWindowTitle(tr("schedlab — %1").arg(m_traceName));
    m_results.clear();
    m_runList->clear();
    refreshDashboard();
    m_status->setText(tr("Loaded %1 jobs on %2 nodes").arg(m_trace->jobs.size()).arg(m_trace->nodes.size()));
    return true;
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
    const std::vector<uint64_t> seeds = parseSeeds(m_seeds->text());
    if (policies.empty() || seeds.empty()) {
        showError(policies.empty() ? tr("Check at least one policy.") : tr("Seeds: use N, A-B or a comma list."));
        return;
    }
    RunBatch batch;
    batch.trace = m_trace;
    batch.policies = policies;
    batch.seeds = seeds;
    int withTimes = 0;
    for (const trace::Job& j : m_trace->jobs)
        withTimes += j.submitTimeS >= 0 && j.runTimeS >= 0;
    batch.fill = m_mode->currentIndex() == 2 || (m_mode->currentIndex() == 0 && withTimes * 2 < int(m_trace->jobs.size()));
    policy::parseQueueOrder(m_queue->currentText().toStdString(), batch.queue);
    batch.backfill = m_backfill->currentText() == "easy" ? sim::Backfill::Easy : sim::Backfill::None;
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
    auto* item = new QListWidgetItem(swatch(m_dashboard->colourOf(r.policy)), QString::fromStdString(r.label));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
    item->setData(Qt::UserRole, r.id);
    QString tip;
    if (r.timed)
        tip = tr("wait p99 %1 s, mean GPU util %2 %").arg(r.timed->waitS.p99).arg(100 * r.timed->meanGpuUtil, 0, 'f', 1);
    else if (r.fill)
        tip = tr("final GPU allocation %1 %").arg(r.fill->finalGpuAllocPct, 0, 'f', 2);
    item->setToolTip(tip);
    const QSignalBlocker block(m_runList);
    m_runList->addItem(item);
    refreshDashboard();
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
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    m_runner->cancel();
    QMainWindow::closeEvent(e);
}

} // namespace schedlab::app
