#include "incident_panel.h"

#include "decision_table_model.h"
#include "inspector_widget.h"

#include "incident/incidents.h"
#include "policy/placement_policy.h"
#include "workflow/run_args.h"
#include "workflow/run_series.h"

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QTextStream>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace schedlab::views {

IncidentPanel::IncidentPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);

    buildTopRow(layout);

    auto* split = new QSplitter(Qt::Horizontal, this);
    QWidget* left = buildDecisionList(split);

    QWidget* right = buildInspector(split);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connectControls();
}

void IncidentPanel::buildTopRow(QVBoxLayout* layout)
{
    auto* top = new QHBoxLayout;
    m_run = new QComboBox(this);
    m_run->setObjectName("incidentRun");
    m_run->setMinimumContentsLength(16);
    m_run->setToolTip(tr("The run to replay. It is replayed once more with a state journal, so any decision's cluster can be "
                         "rebuilt at once; stored runs are checked against their stored decision log."));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setVisible(false);
    m_status = new QLabel(this);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long texts must not squeeze the controls
    m_rescore = new QLineEdit(QSettings().value("incidents/rescore", QStringLiteral("bestfit,fgd")).toString(), this);
    m_rescore->setObjectName("rescorePolicies");
    m_rescore->setToolTip(tr("Policies (comma-separated) that re-score the selected decision's request on the same cluster"));
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_run);
    top->addWidget(m_progress);
    top->addWidget(m_cancelButton);
    top->addWidget(m_status, 1);
    top->addWidget(new QLabel(tr("Re-score with:"), this));
    top->addWidget(m_rescore);
    layout->addLayout(top);
}

QWidget* IncidentPanel::buildDecisionList(QSplitter* split)
{
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_incidents = new QTreeWidget(left);
    m_incidents->setObjectName("incidentList");
    m_incidents->setHeaderLabels({ tr("incident"), tr("at"), tr("decision"), tr("what") });
    m_incidents->setRootIsDecorated(false);
    m_incidents->setToolTip(tr("Found automatically: p99 wait above the SLA or jumping, bursts of failures, SLA violations, "
                               "fragmentation spikes. Click one to jump to it."));
    auto* filters = new QHBoxLayout;
    m_jobFilter = new QLineEdit(left);
    m_jobFilter->setPlaceholderText(tr("job name or index"));
    m_nodeFilter = new QSpinBox(left);
    m_nodeFilter->setRange(-1, 1 << 30);
    m_nodeFilter->setValue(-1);
    m_nodeFilter->setSpecialValueText(tr("any node"));
    m_outcomeFilter = new QComboBox(left);
    m_outcomeFilter->addItem(tr("any outcome"), -1);
    m_outcomeFilter->addItem(tr("placed"), int(sim::Outcome::Placed));
    m_outcomeFilter->addItem(tr("failed"), int(sim::Outcome::Failed));
    m_outcomeFilter->addItem(tr("waited"), int(sim::Outcome::Waited));
    m_outcomeFilter->addItem(tr("evicted"), int(sim::Outcome::Evicted));
    m_outcomeFilter->addItem(tr("migrated"), int(sim::Outcome::Migrated));
    m_fromFilter = new QLineEdit(left);
    m_toFilter = new QLineEdit(left);
    m_fromFilter->setPlaceholderText(tr("from"));
    m_toFilter->setPlaceholderText(tr("to"));
    m_fromFilter->setToolTip(tr("Time range: hours since the run's start (timed) or pod numbers (fill); empty = open"));
    m_toFilter->setToolTip(m_fromFilter->toolTip());
    // Two rows of filters: one row would make the panel too wide for a 1024 px screen.
    auto* filters2 = new QHBoxLayout;
    filters->addWidget(m_jobFilter, 2);
    filters->addWidget(m_nodeFilter, 1);
    filters->addWidget(m_outcomeFilter, 1);
    filters2->addWidget(new QLabel(tr("time:"), left));
    filters2->addWidget(m_fromFilter, 1);
    filters2->addWidget(m_toFilter, 1);
    m_export = new QPushButton(tr("Export…"), left);
    m_export->setToolTip(tr("Write the decisions shown (filtered, in table order) to a CSV file"));
    filters2->addWidget(m_export);
    m_table = new QTableView(left);
    m_table->setObjectName("decisionTable");
    m_model = new DecisionTableModel(this);
    m_proxy = new DecisionFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DecisionTableModel::Index, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    auto* leftSplit = new QSplitter(Qt::Vertical, left);
    leftSplit->addWidget(m_incidents);
    auto* tableBox = new QWidget(leftSplit);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(filters);
    tableLayout->addLayout(filters2);
    tableLayout->addWidget(m_table, 1);
    leftSplit->addWidget(tableBox);
    leftSplit->setStretchFactor(0, 1);
    leftSplit->setStretchFactor(1, 3);
    leftLayout->addWidget(leftSplit);
    return left;
}

QWidget* IncidentPanel::buildInspector(QSplitter* split)
{
    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_inspector = new InspectorWidget(right);
    auto* forkRow = new QHBoxLayout;
    m_forkPolicy = new QComboBox(right);
    m_forkPolicy->setObjectName("forkPolicy");
    for (const policy::PolicyInfo& p : policy::placementPolicies())
        m_forkPolicy->addItem(QString::fromStdString(p.name));
    m_forkPolicy->setEditable(true); // model specs ("learned:round-3.slq") too
    m_forkPolicy->setCurrentText(QSettings().value("incidents/forkPolicy", QStringLiteral("bestfit")).toString());
    m_forkWindow = new QLineEdit(right);
    m_forkWindow->setPlaceholderText(tr("to the end"));
    m_forkWindow->setToolTip(tr("Compare over this window after the decision: a duration for timed runs (6h, 90m), a pod count for "
                                "fill runs; empty = to the end"));
    m_forkButton = new QPushButton(tr("Fork here"), right);
    m_forkButton->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    m_forkButton->setToolTip(tr("Rebuild the state at the selected decision and continue the run under the chosen policy "
                                "(Ctrl+Shift+F); the fork joins the dashboard next to the original"));
    forkRow->addWidget(new QLabel(tr("Fork with:"), right));
    forkRow->addWidget(m_forkPolicy, 1);
    forkRow->addWidget(new QLabel(tr("window:"), right));
    forkRow->addWidget(m_forkWindow);
    forkRow->addWidget(m_forkButton);
    m_deltas = new QTableWidget(right);
    m_deltas->setObjectName("forkDeltas");
    m_deltas->setColumnCount(4);
    m_deltas->setHorizontalHeaderLabels({ tr("metric"), tr("original"), tr("fork"), tr("delta") });
    m_deltas->verticalHeader()->setVisible(false);
    m_deltas->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_deltas->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch); // the numbers always show
    for (int c = 1; c < 4; ++c)
        m_deltas->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_deltas->setMaximumHeight(180);
    m_deltas->setVisible(false);
    rightLayout->addWidget(m_inspector, 1);
    rightLayout->addLayout(forkRow);
    rightLayout->addWidget(m_deltas);
    return right;
}

void IncidentPanel::connectControls()
{
    m_next = new QAction(tr("Next decision"), this);
    m_next->setShortcut(QKeySequence(tr("Alt+Down")));
    m_next->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_prev = new QAction(tr("Previous decision"), this);
    m_prev->setShortcut(QKeySequence(tr("Alt+Up")));
    m_prev->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_next);
    addAction(m_prev);
    connect(m_next, &QAction::triggered, this, [this] { step(1); });
    connect(m_prev, &QAction::triggered, this, [this] { step(-1); });

    connect(m_run, &QComboBox::activated, this, [this](int i) { startIndex(i); });
    connect(m_cancelButton, &QPushButton::clicked, this, &IncidentPanel::cancelRequested);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (!cur.isValid())
            return;
        const int64_t k = m_proxy->data(m_proxy->index(cur.row(), DecisionTableModel::Index), Qt::UserRole).toLongLong();
        if (k == m_current)
            return;
        m_current = k;
        inspectCurrent();
        if (m_index)
            emit cursorRequested(dashboardXOf(m_index->decisions.decisions()[std::size_t(k)].timeS));
    });
    connect(m_incidents, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        selectDecision(item->data(0, Qt::UserRole).toLongLong());
    });
    connect(m_rescore, &QLineEdit::editingFinished, this, [this] {
        QSettings().setValue("incidents/rescore", m_rescore->text());
        inspectCurrent();
    });
    for (QLineEdit* e : { m_jobFilter, m_fromFilter, m_toFilter })
        connect(e, &QLineEdit::editingFinished, this, &IncidentPanel::applyFilters);
    connect(m_nodeFilter, &QSpinBox::valueChanged, this, &IncidentPanel::applyFilters);
    connect(m_outcomeFilter, &QComboBox::currentIndexChanged, this, &IncidentPanel::applyFilters);
    connect(m_forkButton, &QPushButton::clicked, this, [this] {
        QSettings().setValue("incidents/forkPolicy", m_forkPolicy->currentText().trimmed());
        fork(m_forkPolicy->currentText().trimmed().toStdString());
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export decisions"), QStringLiteral("decisions.csv"), tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        if (const QString e = exportCsv(path); !e.isEmpty())
            emit forkFailed(e); // shown in the window's banner
    });
}

IncidentPanel::~IncidentPanel() = default;

void IncidentPanel::setRuns(const std::vector<RunResult>& runs, std::shared_ptr<const trace::Trace> trace)
{
    const int keep = m_run->currentData().toInt(); // the run shown (or being indexed) stays selected
    m_runs = runs;
    if (trace != m_trace) {
        m_trace = std::move(trace);
        emit abandoned(); // an index or fork of the previous trace is dropped when it ends
        setBusy(false);
        m_index.reset();
        m_model->setIndex(nullptr);
        m_incidents->clear();
        m_inspector->clear(tr("Pick a run and a decision."));
        m_current = -1;
    }
    const QSignalBlocker block(m_run);
    m_run->clear();
    m_run->addItem(tr("(pick a run)"), -1);
    for (const RunResult& r : m_runs)
        m_run->addItem(QString::fromStdString(r.label) + (r.isFill() ? tr(" (fill)") : QString()), r.id);
    const int at = m_run->findData(keep);
    m_run->setCurrentIndex(at >= 0 ? at : 0);
}

bool IncidentPanel::selectRun(int sessionId)
{
    const int i = m_run->findData(sessionId);
    if (i <= 0)
        return false;
    m_run->setCurrentIndex(i);
    startIndex(i);
    return true;
}

void IncidentPanel::startIndex(int comboIndex)
{
    const int id = m_run->itemData(comboIndex).toInt();
    auto it = std::find_if(m_runs.begin(), m_runs.end(), [id](const RunResult& r) { return r.id == id; });
    emit abandoned();
    setBusy(false);
    m_index.reset();
    m_model->setIndex(nullptr);
    m_incidents->clear();
    m_deltas->setVisible(false);
    m_current = -1;
    // A stored run without the trace open is indexed from the project (its stored copy of the
    // trace, else its recorded files; an error says when those moved).
    if (it == m_runs.end() || (!m_trace && it->storedId < 0)) {
        m_inspector->clear(tr("Pick a run and a decision."));
        return;
    }
    const RunResult run = *it;
    m_inspector->clear(tr("Indexing the decisions of %1…").arg(QString::fromStdString(run.label)));
    m_status->setText(tr("indexing…"));
    setBusy(true);
    emit indexRequested(run, m_trace);
}

void IncidentPanel::setProgress(double fraction) { m_progress->setValue(int(fraction * 1000)); }

void IncidentPanel::setBusy(bool busy)
{
    if (busy)
        m_progress->setValue(0);
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
}

void IncidentPanel::showIndex(std::shared_ptr<const incident::RunIndex> index, const RunResult& run, bool checkedAgainstLog)
{
    setBusy(false);
    m_index = std::move(index);
    m_indexedRun = run;
    if (m_index->fromStoredJournal)
        m_status->setText(tr("%1 decisions, from the %2 journal in %3 s (%4 state hashes checked)")
                              .arg(m_index->decisions.size())
                              .arg(run.storedId >= 0 ? tr("stored") : tr("run's"))
                              .arg(m_index->buildSeconds, 0, 'f', 2)
                              .arg(m_index->hashesVerified));
    else
        m_status->setText(tr("%1 decisions, replayed in %2 s%3")
                              .arg(m_index->decisions.size())
                              .arg(m_index->buildSeconds, 0, 'f', 2)
                              .arg(checkedAgainstLog ? tr(", identical to the stored log (%1 state hashes checked)").arg(m_index->hashesVerified)
                                                     : QString()));
    m_status->setToolTip(m_status->text());
    onIndexed();
    if (m_pendingX) {
        const double x = *m_pendingX;
        m_pendingX.reset();
        selectAtDashboardX(x);
    }
    emit indexed(true, {});
}

void IncidentPanel::showIndexError(bool cancelled, const QString& error)
{
    setBusy(false);
    m_pendingX.reset();
    const QString e = cancelled ? tr("Indexing cancelled.") : error;
    m_status->setText(cancelled ? tr("cancelled") : tr("failed"));
    m_inspector->clear(e);
    emit indexed(false, e);
}

void IncidentPanel::onIndexed()
{
    m_model->setIndex(m_index);
    m_table->resizeColumnsToContents(); // samples the first rows: size the index column for the last
    m_table->setColumnWidth(DecisionTableModel::Index,
        m_table->fontMetrics().horizontalAdvance(QString::number(m_index->decisions.size()) + "000"));
    m_incidents->clear();
    for (const incident::Incident& i : incident::findIncidents(*m_index)) {
        auto* item = new QTreeWidgetItem(m_incidents);
        item->setText(0, QString::fromLatin1(incident::incidentKindName(i.kind)));
        item->setText(1, m_model->timeText(i.startX));
        item->setText(2, QString::number(i.decision));
        item->setText(3, QString::fromStdString(i.text));
        item->setToolTip(3, item->text(3));
        item->setData(0, Qt::UserRole, qlonglong(i.decision));
    }
    m_incidents->resizeColumnToContents(0);
    m_incidents->resizeColumnToContents(1);
    applyFilters();
    if (m_index->decisions.size() > 0)
        selectDecision(m_incidents->topLevelItemCount() ? m_incidents->topLevelItem(0)->data(0, Qt::UserRole).toLongLong() : 0);
    else
        m_inspector->clear(tr("The run made no decisions."));
}

void IncidentPanel::applyFilters()
{
    m_proxy->setJobFilter(m_jobFilter->text());
    m_proxy->setNodeFilter(m_nodeFilter->value());
    m_proxy->setOutcomeFilter(m_outcomeFilter->currentData().toInt());
    auto parse = [this](const QString& text) {
        bool ok = false;
        const double v = text.trimmed().toDouble(&ok);
        if (!ok || !m_index)
            return std::nan("");
        const workflow::RunAxis axis(m_index->fill.get(), m_index->timed.get());
        return axis.counts() ? v : axis.secondsOfHours(v); // pod numbers, or hours since the run's start
    };
    m_proxy->setTimeRange(parse(m_fromFilter->text()), parse(m_toFilter->text()));
}

void IncidentPanel::selectDecision(int64_t k)
{
    if (!m_index || k < 0 || k >= int64_t(m_index->decisions.size()))
        return;
    // Find its row in the filtered, sorted table; a decision filtered out is inspected anyway.
    const QModelIndex src = m_model->index(int(k), 0);
    const QModelIndex row = m_proxy->mapFromSource(src);
    if (row.isValid()) {
        m_table->setCurrentIndex(row);
        m_table->scrollTo(row, QAbstractItemView::PositionAtCenter);
    }
    if (m_current != k) {
        m_current = k;
        inspectCurrent();
        emit cursorRequested(dashboardXOf(m_index->decisions.decisions()[std::size_t(k)].timeS));
    }
}

void IncidentPanel::step(int delta)
{
    if (!m_index || m_proxy->rowCount() == 0)
        return;
    const QModelIndex cur = m_proxy->mapFromSource(m_model->index(int(std::max<int64_t>(0, m_current)), 0));
    const int row = std::clamp((cur.isValid() ? cur.row() : 0) + delta, 0, m_proxy->rowCount() - 1);
    selectDecision(m_proxy->data(m_proxy->index(row, DecisionTableModel::Index), Qt::UserRole).toLongLong());
}

QString IncidentPanel::exportCsv(const QString& path) const
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return tr("%1: cannot write (%2)").arg(path, f.errorString());
    QTextStream out(&f);
    auto cell = [](QString v) {
        if (v.contains(',') || v.contains('"'))
            v = '"' + v.replace('"', "\"\"") + '"';
        return v;
    };
    QStringList header;
    for (int c = 0; c < m_proxy->columnCount(); ++c)
        header << cell(m_proxy->headerData(c, Qt::Horizontal).toString());
    out << header.join(',') << '\n';
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        QStringList row;
        for (int c = 0; c < m_proxy->columnCount(); ++c)
            row << cell(m_proxy->index(r, c).data().toString());
        out << row.join(',') << '\n';
    }
    out.flush();
    return f.error() == QFile::NoError ? QString() : tr("%1: write failed (%2)").arg(path, f.errorString());
}

double IncidentPanel::dashboardXOf(double t) const
{
    return m_index ? workflow::RunAxis(m_index->fill.get(), m_index->timed.get()).plotXOfDecision(t) : 0;
}

void IncidentPanel::selectAtDashboardX(double x)
{
    if (!m_index)
        return;
    const double t = workflow::RunAxis(m_index->fill.get(), m_index->timed.get()).decisionXOfPlot(x);
    selectDecision(incident::nearestDecision(*m_index, t));
}

void IncidentPanel::followDashboardClick(double x, int runId)
{
    if (m_index) {
        selectAtDashboardX(x);
        return;
    }
    const int i = m_run->findData(runId);
    if (i <= 0)
        return;
    m_pendingX = x;
    if (m_run->currentIndex() != i || !m_progress->isVisible()) { // not already indexing it
        m_run->setCurrentIndex(i);
        startIndex(i);
    }
}

void IncidentPanel::inspectCurrent()
{
    if (!m_index || m_current < 0)
        return;
    std::vector<std::string> rescore;
    for (const QString& p : m_rescore->text().split(',', Qt::SkipEmptyParts))
        rescore.push_back(p.trimmed().toStdString());
    auto in = incident::inspect(*m_index, m_current, rescore);
    if (!in) {
        m_inspector->clear(QString::fromStdString(in.error().toString()));
        return;
    }
    m_inspector->setInspection(in.value(), m_index->trace, m_index->spec.policy, m_model->timeText(in->decision.timeS));
}

void IncidentPanel::fork(const std::string& policyName)
{
    if (!m_index || m_current < 0) {
        emit forkFailed(tr("Pick a run and a decision to fork from."));
        return;
    }
    double window = 0;
    const QString w = m_forkWindow->text().trimmed();
    if (!w.isEmpty()) {
        auto parsed = workflow::parseRunTime(w.toStdString(), m_index->spec.mode());
        if (!parsed || !(parsed.value() > 0)) {
            emit forkFailed(tr("Fork window: a positive duration (6h, 90m) for timed runs, a pod count for fill runs."));
            return;
        }
        window = parsed.value();
    }
    m_forkButton->setEnabled(false);
    m_status->setText(tr("forking at decision %1 under %2…").arg(m_current).arg(QString::fromStdString(policyName)));
    setBusy(true);
    emit forkRequested(m_index, m_current, policyName, window);
}

void IncidentPanel::showFork(const incident::ForkResult& f)
{
    m_forkButton->setEnabled(true);
    setBusy(false);
    m_deltas->setRowCount(int(f.deltas.size()));
    for (std::size_t i = 0; i < f.deltas.size(); ++i) {
        const incident::ForkDelta& d = f.deltas[i];
        const QString cells[] = { QString::fromStdString(d.metric), QString::number(d.original, 'f', 2), QString::number(d.fork, 'f', 2),
            QString::asprintf("%+.2f", d.delta()) };
        for (int c = 0; c < 4; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_deltas->setItem(int(i), c, item);
        }
    }
    m_deltas->setVisible(true);
    m_status->setText(tr("fork of %1 at decision %2 under %3 done: on the dashboard")
                          .arg(QString::fromStdString(m_indexedRun.label))
                          .arg(f.index)
                          .arg(QString::fromStdString(f.policy)));
    m_status->setToolTip(m_status->text());
    RunResult r;
    r.id = m_nextForkId++;
    r.spec = m_indexedRun.spec;
    r.policy = "fork→" + f.policy;
    r.label = m_indexedRun.label + " fork@" + std::to_string(f.index) + "→" + f.policy;
    r.fill = f.fill;
    r.timed = f.timed;
    emit forkFinished(r);
}

void IncidentPanel::showForkError(bool cancelled, const QString& error)
{
    m_forkButton->setEnabled(true);
    setBusy(false);
    m_status->setText(cancelled ? tr("fork cancelled") : tr("fork failed"));
    emit forkFailed(error);
}

} // namespace schedlab::views
