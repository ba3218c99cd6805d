#include "heatmap_widget.h"

#include "workflow/run_series.h"

#include <qcustomplot.h>

#include <QComboBox>
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
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
        [this](const QCPRange& r) { emit xRangeChanged(r.lower, r.upper); });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (e->button() == Qt::LeftButton)
            emit clicked(m_plot->xAxis->pixelToCoord(e->position().x()));
    });
    connect(m_runBox, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { rebuild(); });
}

void HeatmapWidget::setRuns(const std::vector<RunResult>& runs)
{
    const int keepId = currentRun() >= 0 ? m_runs[std::size_t(currentRun())].id : -1;
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
    if (at >= 0)
        m_runBox->setCurrentIndex(at);
}

void HeatmapWidget::rebuild()
{
    const int run = currentRun();
    if (run < 0) {
        m_map->data()->clear();
        m_map->setVisible(false);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const RunResult& r = m_runs[std::size_t(run)];
    const sim::NodeHeat& h = *heatOf(r);
    const std::vector<double> x = workflow::heatColumnsX(r.fill.get(), r.timed.get());
    const int cols = h.columns();
    m_map->data()->setSize(cols, h.nodes);
    // Cell centres: the columns are evenly spaced in sample count (NodeHeatRecorder).
    m_map->data()->setRange(QCPRange(x.front(), cols > 1 ? x.back() : x.front() + 1), QCPRange(0, std::max(1, h.nodes - 1)));
    for (int c = 0; c < cols; ++c)
        for (int n = 0; n < h.nodes; ++n)
            m_map->data()->setCell(c, n, h.at(c, n));
    m_map->setVisible(true);
    m_plot->xAxis->setLabel(QString::fromStdString(workflow::RunAxis(r).label()));
    m_plot->yAxis->setRange(-0.5, h.nodes - 0.5);
    // Node numbers are integers: no "-0.4 .. 0.4" ticks on a one-node (SWF pool) cluster.
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(ticker);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

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
    const QSignalBlocker block(m_plot->xAxis);
    m_plot->xAxis->setRange(lower, upper);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapWidget::setCursorX(double x)
{
    m_cursor->point1->setCoords(x, 0);
    m_cursor->point2->setCoords(x, 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace schedlab::views
