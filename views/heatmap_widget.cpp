#include "heatmap_widget.h"

#include "axis_tickers.h"
#include "plot_fit.h"

#include "workflow/run_series.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QSettings>

#include <algorithm>
#include <numeric>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace schedlab::views {

namespace {
const sim::NodeHeat* heatOf(const RunResult& r) { return workflow::heatOf(r.fill.get(), r.timed.get()); }

} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout();
    m_runBox = new QComboBox(this);
    m_runBox->setObjectName("heatmapRun");
    m_runBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* title = new QLabel(tr("Node heatmap (dominant share) of"), this);
    title->setToolTip(tr("Cluster heatmap: every node over time, coloured by its dominant share (the largest of allocated cpu, memory "
                         "and GPU fractions)"));
    controls->addWidget(title);
    controls->addWidget(m_runBox);
    m_sortBox = new QCheckBox(tr("Sort nodes by load"), this);
    m_sortBox->setObjectName("heatmapSort");
    m_sortBox->setToolTip(tr("Order the rows by each node's mean utilization in the visible window, busiest on top"));
    m_sortBox->setChecked(QSettings().value("heatmap/sortByLoad", true).toBool());
    controls->addWidget(m_sortBox);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(150);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->yAxis->setLabel(tr("node"));
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    auto* scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(tr("util %"));
    m_map->setColorScale(scale);
    m_map->setGradient(QCPColorGradient::gpThermal);
    m_map->setDataRange(QCPRange(0, 100));
    auto* group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_cursor = new QCPItemStraightLine(m_plot);
    m_cursor->setPen(QPen(QColor(40, 200, 255), 1, Qt::DashLine));
    m_cursor->point1->setCoords(0, 0);
    m_cursor->point2->setCoords(0, 1);
    layout->addWidget(m_plot, 1);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        fitWindow();
        emit xRangeChanged(r.lower, r.upper);
    });
    connect(m_sortBox, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("heatmap/sortByLoad", on);
        fitWindow();
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (e->button() == Qt::LeftButton)
            emit clicked(m_plot->xAxis->pixelToCoord(e->position().x()));
    });
    connect(m_runBox, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { rebuild(); });
    connect(m_runBox, qOverload<int>(&QComboBox::activated), this, [this] { m_chosenId = currentRun() >= 0 ? m_runs[std::size_t(currentRun())].id : -1; });
}

void HeatmapWidget::setRuns(const std::vector<RunResult>& runs)
{
    // The run the user picked stays shown; otherwise the first run with heat (the runs come in the
    // order they were asked for, so the same batch always shows the same run).
    const int keepId = m_chosenId;
    m_runs = runs;
    const QSignalBlocker block(m_runBox);
    m_runBox->clear();
    int select = -1;
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const sim::NodeHeat* h = heatOf(m_runs[i]);
        if (!h || h->columns() == 0)
            continue;
        m_runBox->addItem(QString::fromStdString(m_runs[i].label), int(i));
        if (m_runs[i].id == keepId || select < 0)
            select = m_runBox->count() - 1;
    }
    m_runBox->setCurrentIndex(select);
    rebuild();
}

int HeatmapWidget::currentRun() const { return m_runBox->currentIndex() < 0 ? -1 : m_runBox->currentData().toInt(); }

void HeatmapWidget::setCurrentRun(int index)
{
    const int at = m_runBox->findData(index);
    if (at >= 0) {
        m_runBox->setCurrentIndex(at);
        m_chosenId = m_runs[std::size_t(index)].id;
    }
}

void HeatmapWidget::rebuild()
{
    const int run = currentRun();
    if (run < 0) {
        m_map->data()->clear();
        m_map->setVisible(false);
        m_columnX.clear();
        m_rowNode.clear();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const RunResult& r = m_runs[std::size_t(run)];
    const sim::NodeHeat& h = *heatOf(r);
    m_columnX = workflow::heatColumnsX(r.fill.get(), r.timed.get());
    const int cols = h.columns();
    m_map->data()->setSize(cols, h.nodes);
    // Cell centres: the columns are evenly spaced in sample count (NodeHeatRecorder).
    m_map->data()->setRange(QCPRange(m_columnX.front(), cols > 1 ? m_columnX.back() : m_columnX.front() + 1),
        // One row is drawn over the whole value range (no half-cell margins): give it -0.5..0.5.
        h.nodes > 1 ? QCPRange(0, h.nodes - 1) : QCPRange(-0.5, 0.5));
    m_map->setVisible(true);
    const workflow::RunAxis axis(r);
    const bool time = axis.kind() == sim::XAxisKind::Seconds;
    auto ticker = installXTicker(m_plot->xAxis, time, axis.startS(), m_zeroS.value_or(axis.startS()), m_epoch);
    m_plot->xAxis->setLabel(ticker ? ticker->axisTitle() : QString::fromStdString(axis.label()));
    m_plot->yAxis->setRange(-0.5, h.nodes - 0.5);
    // Node numbers are integers: no "-0.4 .. 0.4" ticks on a one-node (SWF pool) cluster.
    auto nodeTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    nodeTicker->setTickStep(1);
    nodeTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(nodeTicker);
    m_rowNode.clear();
    fitWindow();
}

void HeatmapWidget::fitWindow()
{
    const int run = currentRun();
    if (run < 0 || m_columnX.empty())
        return;
    const sim::NodeHeat& h = *heatOf(m_runs[std::size_t(run)]);
    const int cols = h.columns();
    // Columns whose centre is in the visible range (at least the nearest one).
    const QCPRange visible = m_plot->xAxis->range();
    int c0 = int(std::lower_bound(m_columnX.begin(), m_columnX.end(), visible.lower) - m_columnX.begin());
    int c1 = int(std::upper_bound(m_columnX.begin(), m_columnX.end(), visible.upper) - m_columnX.begin()) - 1;
    c0 = std::clamp(c0, 0, cols - 1);
    c1 = std::clamp(c1, c0, cols - 1);
    std::vector<double> load(std::size_t(h.nodes), 0.0);
    double top = 0;
    for (int n = 0; n < h.nodes; ++n)
        for (int c = c0; c <= c1; ++c) {
            const double v = h.at(c, n);
            load[std::size_t(n)] += v;
            top = std::max(top, v);
        }
    std::vector<int> order(std::size_t(h.nodes));
    std::iota(order.begin(), order.end(), 0);
    if (m_sortBox->isChecked()) // busiest on top: the last row is drawn highest
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return load[std::size_t(a)] < load[std::size_t(b)]; });
    if (order != m_rowNode) {
        m_rowNode = order;
        for (int c = 0; c < cols; ++c)
            for (int row = 0; row < h.nodes; ++row)
                m_map->data()->setCell(c, row, h.at(c, m_rowNode[std::size_t(row)]));
    }
    m_plot->yAxis->setLabel(m_sortBox->isChecked() ? tr("nodes by load") : tr("node"));
    m_map->setDataRange(QCPRange(0, top > 0 ? top : 1));
    setPlotNote(m_plot, top > 0 ? QString() : tr("no node was busy in this window"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapWidget::setTimeOrigin(std::optional<double> zeroS, std::optional<double> epochUnixS)
{
    m_zeroS = zeroS;
    m_epoch = epochUnixS;
    const QCPRange keep = m_plot->xAxis->range();
    rebuild();
    const QSignalBlocker block(m_plot->xAxis);
    m_plot->xAxis->setRange(keep);
}

void HeatmapWidget::setSortByLoad(bool on) { m_sortBox->setChecked(on); }

bool HeatmapWidget::sortByLoad() const { return m_sortBox->isChecked(); }

int HeatmapWidget::nodeOfRow(int row) const
{
    return row >= 0 && row < int(m_rowNode.size()) ? m_rowNode[std::size_t(row)] : -1;
}

double HeatmapWidget::colourMax() const { return m_map->dataRange().upper; }

double HeatmapWidget::valueAt(double x, int node) const
{
    const int run = currentRun();
    if (run < 0)
        return -1;
    const sim::NodeHeat& h = *heatOf(m_runs[std::size_t(run)]);
    if (node < 0 || node >= h.nodes || h.columns() == 0)
        return -1;
    int key = 0, value = 0;
    m_map->data()->coordToCell(x, node, &key, &value);
    if (key < 0 || key >= h.columns())
        return -1;
    return h.at(key, node);
}

void HeatmapWidget::setXRange(double lower, double upper)
{
    {
        const QSignalBlocker block(m_plot->xAxis);
        m_plot->xAxis->setRange(lower, upper);
    }
    fitWindow();
}

void HeatmapWidget::setCursorX(double x)
{
    m_cursor->point1->setCoords(x, 0);
    m_cursor->point2->setCoords(x, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace schedlab::views
