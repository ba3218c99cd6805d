// The Sweeps tab (sweep_view.h).

#include "sweep_view.h"

#include "plot_fit.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace schedlab::views {

namespace {

/// Policy colours of the plot (a fixed cycle: the same plan always looks the same).
QColor policyColour(int i)
{
    static const char* const kColours[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22", "#17becf" };
    return QColor(kColours[i % 10]);
}

} // namespace

SweepView::SweepView(QWidget* parent)
    : QWidget(parent)
    , m_model(new SweepCellModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_title = new QLabel(tr("No sweep open: Run > Plan Sweep writes one, File > Open Sweep reads one."), this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    m_bar = new QProgressBar(this);
    m_bar->setFormat(QStringLiteral("%v/%m"));
    m_bar->setToolTip(tr("cells finished (in a shard file or merged) of the plan's cells"));
    m_bar->setMinimumWidth(110);
    m_bar->setMaximumWidth(220);
    m_bar->setRange(0, 1);
    m_bar->setValue(0);
    top->addWidget(m_bar);
    auto* open = new QPushButton(tr("Open Plan…"), this);
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setToolTip(tr("Read the shard files again (F5)"));
    m_merge = new QPushButton(tr("Merge into Project"), this);
    m_merge->setToolTip(tr("Copy the finished cells into the open project (each once), so they open on the dashboard"));
    auto* exportButton = new QPushButton(tr("Export CSV…"), this);
    m_auto = new QCheckBox(tr("Auto-refresh"), this);
    m_auto->setToolTip(tr("Read the shard files every few seconds while cells are unfinished"));
    m_auto->setChecked(true);
    for (QWidget* w : std::initializer_list<QWidget*> { open, refresh, m_merge, exportButton, m_auto })
        top->addWidget(w);
    top->addStretch(1);
    layout->addLayout(top);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setVisible(false);
    layout->addWidget(m_message);

    auto* axes = new QHBoxLayout;
    m_x = new QComboBox(this);
    m_y = new QComboBox(this);
    m_z = new QComboBox(this);
    for (QComboBox* c : { m_x, m_y, m_z }) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(10);
    }
    axes->addWidget(new QLabel(tr("X"), this));
    axes->addWidget(m_x);
    axes->addWidget(new QLabel(tr("Y"), this));
    axes->addWidget(m_y);
    axes->addWidget(new QLabel(tr("Front also over"), this));
    axes->addWidget(m_z);
    axes->addStretch(1);
    layout->addLayout(axes);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SweepCellModel::SortRole);
    m_table = new QTableView(split);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SweepCellModel::Cell, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_plot = new QCustomPlot(split);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The legend in a row under the plot, not over the points.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(4);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->setMinimumWidth(240);
    split->addWidget(m_table);
    split->addWidget(m_plot);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 560, 440 });
    layout->addWidget(split, 1);

    connect(open, &QPushButton::clicked, this, &SweepView::openPlanRequested);
    connect(refresh, &QPushButton::clicked, this, &SweepView::refreshRequested);
    auto* f5 = new QShortcut(QKeySequence::Refresh, this);
    f5->setContext(Qt::WidgetWithChildrenShortcut);
    connect(f5, &QShortcut::activated, this, &SweepView::refreshRequested);
    connect(m_merge, &QPushButton::clicked, this, &SweepView::mergeRequested);
    connect(m_auto, &QCheckBox::toggled, this, &SweepView::autoRefreshChanged);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        if (!hasPlan())
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Sweep Cells"), m_planPath + ".cells.csv", tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        const Status s = exportCsv(path);
        setMessage(s ? tr("Wrote %1").arg(path) : QString::fromStdString(s.error().toString()));
    });
    auto metricsChanged = [this] {
        m_model->setMetrics(m_x->currentData().toString(), m_y->currentData().toString(), m_z->currentData().toString());
        replot();
    };
    for (QComboBox* c : { m_x, m_y, m_z })
        connect(c, &QComboBox::activated, this, metricsChanged);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        emit openCellRequested(m_proxy->mapToSource(i).row());
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { plotClicked(e, false); });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* e) { plotClicked(e, true); });
}

void SweepView::setPlan(const QString& path, const store::SweepPlan& plan)
{
    m_planPath = path;
    m_model->setPlan(plan);
    m_message->setVisible(false);
    fillMetricCombos();
    updateTitle();
    replot();
}

void SweepView::setProgress(const workflow::SweepProgress& progress)
{
    m_model->setProgress(progress);
    fillMetricCombos();
    updateTitle();
    replot();
}

void SweepView::setMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

bool SweepView::autoRefresh() const { return m_auto->isChecked(); }

void SweepView::setMetrics(const QString& x, const QString& y, const QString& z)
{
    m_model->setMetrics(x, y, z);
    fillMetricCombos();
    replot();
}

QString SweepView::titleText() const { return m_title->text(); }
QString SweepView::messageText() const { return m_message->isHidden() ? QString() : m_message->text(); }

int SweepView::currentCell() const
{
    const QModelIndex i = m_table->currentIndex();
    return i.isValid() ? m_proxy->mapToSource(i).row() : -1;
}

void SweepView::selectCell(int cell)
{
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(cell, 0));
    if (!i.isValid())
        return;
    m_table->setCurrentIndex(i);
    m_table->scrollTo(i);
}

void SweepView::fillMetricCombos()
{
    const QStringList keys = m_model->metricKeys();
    for (int axis = 0; axis < 3; ++axis) {
        QComboBox* c = axis == 0 ? m_x : axis == 1 ? m_y : m_z;
        const QString chosen = m_model->metric(axis);
        const QSignalBlocker block(c);
        c->clear();
        if (axis == 2)
            c->addItem(tr("(none)"), QString());
        QStringList items = keys;
        if (!chosen.isEmpty() && !items.contains(chosen))
            items.prepend(chosen); // the default before any cell finished
        for (const QString& k : items)
        {
            const bool more = SweepCellModel::senseOf(k) == metrics::Sense::Maximise;
            c->addItem(k + (more ? QStringLiteral(" ↑") : QStringLiteral(" ↓")), k);
            c->setItemData(c->count() - 1, more ? tr("higher is better") : tr("lower is better"), Qt::ToolTipRole);
        }
        c->setCurrentIndex(std::max(0, c->findData(chosen)));
    }
}

void SweepView::updateTitle()
{
    const auto& plan = m_model->plan();
    const auto& p = m_model->progress();
    const int done = p.count(workflow::CellStatus::Finished) + p.count(workflow::CellStatus::Merged);
    QString text = tr("<b>%1</b> — sweep %2: %3 cells in %4 shards. %5 finished (%6 merged), %7 running, %8 failed, %9 waiting.")
                       .arg(QFileInfo(m_planPath).fileName().toHtmlEscaped(), QString::fromStdString(plan.id).left(16))
                       .arg(plan.cells.size())
                       .arg(plan.shards)
                       .arg(done)
                       .arg(p.count(workflow::CellStatus::Merged))
                       .arg(p.count(workflow::CellStatus::Running))
                       .arg(p.count(workflow::CellStatus::Failed))
                       .arg(p.count(workflow::CellStatus::Waiting));
    text += tr(" Shard files read: %1.").arg(p.shardFiles.size());
    for (const std::string& problem : p.problems)
        text += "<br><span style='color:#b3261e'>" + QString::fromStdString(problem).toHtmlEscaped() + "</span>";
    m_title->setText(text);
    m_bar->setRange(0, std::max<int>(1, int(plan.cells.size())));
    m_bar->setValue(done);
}

void SweepView::replot()
{
    m_plot->clearGraphs();
    m_points.assign(m_model->plan().cells.size(), { NAN, NAN });
    const QString xKey = m_model->metric(0), yKey = m_model->metric(1);
    std::map<std::string, int> policyIndex;
    for (const store::SweepCell& c : m_model->plan().cells)
        policyIndex.emplace(c.spec.policy, int(policyIndex.size()));
    std::map<std::string, QCPGraph*> graphs;
    QCPGraph* front = nullptr;
    for (const store::SweepCell& c : m_model->plan().cells) {
        const double x = m_model->value(c.index, xKey), y = m_model->value(c.index, yKey);
        if (std::isnan(x) || std::isnan(y))
            continue;
        m_points[std::size_t(c.index)] = { x, y };
        QCPGraph*& g = graphs[c.spec.policy];
        if (!g) {
            g = m_plot->addGraph();
            g->setName(QString::fromStdString(c.spec.policy));
            g->setLineStyle(QCPGraph::lsNone);
            const QColor colour = policyColour(policyIndex[c.spec.policy]);
            g->setPen(QPen(colour));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 7));
        }
        g->addData(x, y);
        if (m_model->onFront(c.index)) {
            if (!front) {
                front = m_plot->addGraph();
                front->setName(tr("Pareto front"));
                front->setLineStyle(QCPGraph::lsNone);
                front->setPen(QPen(Qt::black, 2));
                front->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 14));
            }
            front->addData(x, y);
        }
    }
    m_plot->xAxis->setLabel(m_model->headerData(SweepCellModel::MetricX, Qt::Horizontal).toString());
    m_plot->yAxis->setLabel(m_model->headerData(SweepCellModel::MetricY, Qt::Horizontal).toString());
    if (graphs.empty()) {
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(0, 1);
        setPlotNote(m_plot, hasPlan() ? tr("No finished cell has %1 and %2 yet").arg(xKey, yKey) : QString());
    } else {
        setPlotNote(m_plot, QString());
        m_plot->rescaleAxes();
        for (QCPAxis* a : { m_plot->xAxis, m_plot->yAxis }) {
            const QCPRange r = a->range();
            const double pad = r.size() > 0 ? r.size() * 0.08 : std::max(1.0, std::abs(r.center()) * 0.1);
            a->setRange(r.lower - pad, r.upper + pad);
        }
    }
    m_plot->replot();
}

void SweepView::plotClicked(QMouseEvent* e, bool open)
{
    int best = -1;
    double bestD = 12 * 12; // pixels²
    for (std::size_t c = 0; c < m_points.size(); ++c) {
        const auto [x, y] = m_points[c];
        if (std::isnan(x))
            continue;
        const double dx = m_plot->xAxis->coordToPixel(x) - e->pos().x(), dy = m_plot->yAxis->coordToPixel(y) - e->pos().y();
        if (dx * dx + dy * dy < bestD) {
            bestD = dx * dx + dy * dy;
            best = int(c);
        }
    }
    if (best < 0)
        return;
    selectCell(best);
    if (open)
        emit openCellRequested(best);
}

Status SweepView::exportCsv(const QString& path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write: " + f.errorString().toStdString(), path.toStdString());
    QByteArray out = "cell,shard,trace,policy,seed,status,file,run";
    const QStringList keys = m_model->metricKeys();
    for (const QString& k : keys)
        out += "," + k.toUtf8();
    out += "\n";
    auto quoted = [](QString s) { return '"' + s.replace('"', "\"\"").toUtf8() + '"'; };
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const auto& p = m_model->progress().cells[std::size_t(r)];
        out += QByteArray::number(r);
        for (int col : { int(SweepCellModel::Shard), int(SweepCellModel::Trace), int(SweepCellModel::Policy), int(SweepCellModel::Seed),
                 int(SweepCellModel::Status) })
            out += "," + quoted(m_model->data(m_model->index(r, col)).toString());
        out += "," + quoted(QString::fromStdString(p.file)) + "," + (p.runId >= 0 ? QByteArray::number(qlonglong(p.runId)) : QByteArray());
        for (const QString& k : keys) {
            const double v = m_model->value(r, k);
            out += "," + (std::isnan(v) ? QByteArray() : QByteArray::number(v, 'g', 17));
        }
        out += "\n";
    }
    if (f.write(out) != out.size() || !f.commit())
        return makeError(ErrorCode::Io, "cannot write: " + f.errorString().toStdString(), path.toStdString());
    return {};
}

} // namespace schedlab::views
