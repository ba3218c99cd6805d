#include "dashboard_widget.h"
#include "legend_fit.h"

#include "axis_tickers.h"
#include "heatmap_widget.h"
#include "plot_fit.h"

#include "workflow/run_series.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QMenu>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace schedlab::views {

namespace {
// Okabe-Ito palette (colour-blind safe), then a few more.
const QColor kPalette[] = { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115), QColor(204, 121, 167),
    QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0), QColor(240, 228, 66), QColor(120, 120, 120) };

// One legend entry for all seeds of a policy: "fgd ×3", a line in the policy colour.
// Clicking it shows or hides every seed's graph.
class PolicyLegendItem : public QCPAbstractLegendItem {
public:
    PolicyLegendItem(QCPLegend* legend, QString policy, QString text, QColor colour)
        : QCPAbstractLegendItem(legend)
        , m_policy(std::move(policy))
        , m_text(std::move(text))
        , m_colour(std::move(colour))
    {
    }
    const QString& policy() const { return m_policy; }

protected:
    void draw(QCPPainter* painter) override
    {
        painter->setFont(mFont);
        painter->setPen(QPen(mTextColor));
        const QSize icon = mParentLegend->iconSize();
        const QRect r = mRect;
        painter->setPen(QPen(m_colour, 2));
        painter->drawLine(QLineF(r.left(), r.center().y(), r.left() + icon.width(), r.center().y()));
        painter->setPen(QPen(mTextColor));
        painter->drawText(QRect(r.left() + icon.width() + mParentLegend->iconTextPadding(), r.top(), r.width(), r.height()),
            Qt::AlignLeft | Qt::AlignVCenter, m_text);
    }
    QSize minimumOuterSizeHint() const override
    {
        const QFontMetrics fm(mFont);
        const QSize icon = mParentLegend->iconSize();
        return QSize(icon.width() + mParentLegend->iconTextPadding() + fm.horizontalAdvance(m_text) + mMargins.left() + mMargins.right(),
            std::max(icon.height(), fm.height()) + mMargins.top() + mMargins.bottom());
    }

private:
    QString m_policy, m_text;
    QColor m_colour;
};

} // namespace

DashboardWidget::DashboardWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout();
    m_fragBox = new QComboBox(this);
    m_fragBox->addItems({ tr("GPU fragmentation (FGD)"), tr("CPU fragmentation") });
    m_utilBox = new QComboBox(this);
    m_utilBox->addItems({ tr("CPU utilization"), tr("Memory utilization"), tr("GPU utilization") });
    m_utilBox->setCurrentIndex(2);
    controls->addWidget(new QLabel(tr("Fragmentation:"), this));
    controls->addWidget(m_fragBox);
    controls->addWidget(new QLabel(tr("Utilization:"), this));
    controls->addWidget(m_utilBox);
    m_readout = new QLabel(this);
    m_readout->setObjectName("dashboardReadout");
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // On its own line under the controls and wrapped between runs, so every run's values show at
    // 1280 px; it never widens the window (the tooltip names each value).
    m_readout->setWordWrap(true);
    m_readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    controls->addStretch(1);
    layout->addLayout(controls);
    layout->addWidget(m_readout);
    // The three plots on top, the cluster heatmap below; the splitter lets the user trade space.
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* rowWidget = new QWidget(split);
    auto* row = new QHBoxLayout(rowWidget);
    row->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 3; ++i)
        addPlot(rowWidget, row, i);
    m_heatmap = new HeatmapWidget(split);
    split->addWidget(rowWidget);
    split->addWidget(m_heatmap);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    // With no run the plots would show dummy axes; say what to do instead.
    m_split = split;
    m_empty = new QLabel(tr("No runs to show yet.\n\nOpen a trace (File > Import Trace, Ctrl+O, or drop files here), check policies in "
                            "the Policies dock and press Run (Ctrl+R).\nStored runs: open a project (Ctrl+Shift+O) and check them in "
                            "the Runs dock."),
        this);
    m_empty->setObjectName("dashboardEmpty");
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty, 1);
    connect(m_heatmap, &HeatmapWidget::clicked, this, [this](double x) {
        setCursorX(x);
        emit cursorClicked(x);
    });
    m_heatmap->plot()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_heatmap->plot(), &QWidget::customContextMenuRequested, this,
        [this](const QPoint& at) { showPlotMenu(3, m_heatmap->plot()->mapToGlobal(at)); });
    connect(m_heatmap, &HeatmapWidget::xRangeChanged, this, [this](double lower, double upper) {
        if (m_linking)
            return;
        m_plots[0]->xAxis->setRange(lower, upper); // linkRange spreads it to the other plots
        m_plots[0]->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_utilBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this](int i) { setUtilization(Utilization(i)); });
    connect(m_fragBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this](int i) { setFragmentation(Fragmentation(i)); });
    rebuild();
}

void DashboardWidget::addPlot(QWidget* rowWidget, QHBoxLayout* row, int i)
{
    auto* p = new QCustomPlot(rowWidget);
    p->setMinimumSize(140, 240); // three side by side still fit a 1024 px screen with the docks
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal);
    p->axisRect()->setRangeZoom(Qt::Horizontal);
    // Legend below the axis rect: inside it would hide the peaks an SRE is looking for.
    p->legend->setVisible(true);
    p->legend->setFont(QFont(font().family(), 8));
    p->axisRect()->insetLayout()->take(p->legend);
    p->plotLayout()->addElement(1, 0, p->legend);
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    p->legend->setBorderPen(Qt::NoPen);
    keepLegendFitted(p); // as many columns as fit: no entry cut off on a narrow plot
    p->plotLayout()->setRowStretchFactor(1, 0.001);
    auto* cursor = new QCPItemStraightLine(p);
    cursor->setPen(QPen(QColor(80, 80, 80), 1, Qt::DashLine));
    cursor->point1->setCoords(0, 0);
    cursor->point2->setCoords(0, 1);
    m_plots.push_back(p);
    m_cursors.push_back(cursor);
    m_yManual.push_back(false);
    row->addWidget(p, 1);
    connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, i] { linkRange(i); });
    connect(p, &QCustomPlot::mouseMove, this, [this, i](QMouseEvent* e) { onMouseMove(i, e); });
    // Ctrl+drag: box zoom (x and y); Shift+wheel: zoom y; plain drag pans x, wheel zooms x.
    connect(p, &QCustomPlot::mouseWheel, p, [this, i, p](QWheelEvent* e) {
        const bool y = e->modifiers() & Qt::ShiftModifier;
        p->axisRect()->setRangeZoom(y ? Qt::Vertical : Qt::Horizontal);
        if (y)
            m_yManual[std::size_t(i)] = true;
    });
    connect(p, &QCustomPlot::mousePress, this, [this, i, p](QMouseEvent* e) {
        const bool box = e->modifiers() & Qt::ControlModifier;
        p->setSelectionRectMode(box ? QCP::srmZoom : QCP::srmNone); // set per press
        if (box)
            m_yManual[std::size_t(i)] = true;
        onMouseMove(i, e);
        if (e->button() == Qt::LeftButton)
            emit cursorClicked(m_cursorX);
    });
    connect(p, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetZoom(); });
    p->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(p, &QWidget::customContextMenuRequested, this,
        [this, i, p](const QPoint& at) { showPlotMenu(i, p->mapToGlobal(at)); });
    // Legend click toggles the run's visibility in every plot.
    connect(p, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
        auto* group = dynamic_cast<PolicyLegendItem*>(item);
        if (!pli && !group)
            return;
        // A run's entry toggles that run; a policy's entry (several seeds) all its runs.
        const QString name = pli ? pli->plottable()->name() : QString();
        for (QCustomPlot* plot : m_plots)
            for (int g = 0; g < plot->graphCount(); ++g)
                if (pli ? plot->graph(g)->name() == name : plot->graph(g)->property("policy").toString() == group->policy())
                    plot->graph(g)->setVisible(!plot->graph(g)->visible());
        for (QCustomPlot* plot : m_plots)
            plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

QColor DashboardWidget::colourOf(const std::string& policy)
{
    auto it = std::find(m_policyOrder.begin(), m_policyOrder.end(), policy);
    if (it == m_policyOrder.end()) {
        m_policyOrder.push_back(policy);
        it = m_policyOrder.end() - 1;
    }
    return kPalette[std::size_t(it - m_policyOrder.begin()) % std::size(kPalette)];
}

void DashboardWidget::setRuns(const std::vector<RunResult>& given)
{
    const std::vector<RunResult> runs = given; // `given` may be runs() itself
    // The plots share one x axis: runs of one axis kind (arrived % wins: a fill run among timed ones
    // is what the user last asked to see).
    const bool anyArrived = std::any_of(
        runs.begin(), runs.end(), [](const RunResult& r) { return workflow::RunAxis(r).kind() == sim::XAxisKind::ArrivedPct; });
    const sim::XAxisKind kind = anyArrived ? sim::XAxisKind::ArrivedPct : sim::XAxisKind::Seconds;
    m_runs.clear();
    for (const RunResult& r : runs)
        if (workflow::RunAxis(r).kind() == kind)
            m_runs.push_back(r);
    m_heatmap->setRuns(m_runs);
    rebuild();
    resetZoom();
}

void DashboardWidget::setUtilization(Utilization u)
{
    m_util = u;
    if (m_utilBox->currentIndex() != int(u))
        m_utilBox->setCurrentIndex(int(u));
    rebuild();
    emit utilizationChanged(u);
}

void DashboardWidget::setFragmentation(Fragmentation f)
{
    m_frag = f;
    if (m_fragBox->currentIndex() != int(f))
        m_fragBox->setCurrentIndex(int(f));
    rebuild();
}

void DashboardWidget::rebuild()
{
    if (m_empty) {
        m_empty->setVisible(m_runs.empty());
        m_split->setVisible(!m_runs.empty());
    }
    // Axis titles from the series themselves (whatever mode made the runs).
    const workflow::RunOutcome none;
    const workflow::RunOutcome& first = m_runs.empty() ? none : m_runs.front();
    const auto util = workflow::UtilizationKind(int(m_util));
    const auto frag = workflow::FragmentationKind(int(m_frag));
    const workflow::RunAxis axis(first);
    const bool time = axis.kind() == sim::XAxisKind::Seconds;
    QString xLabel = QString::fromStdString(axis.label());
    QString titles[3];
    for (int i = 0; i < 3; ++i)
        titles[i] = QString::fromStdString(workflow::panelSeries(first, workflow::Panel(i), util, frag).name);
    const bool choices = m_runs.empty() || workflow::panelsHaveChoices(first.spec.mode());
    m_fragBox->setEnabled(choices);
    m_utilBox->setEnabled(choices);
    for (int i = 0; i < 3; ++i) {
        QCustomPlot* p = m_plots[std::size_t(i)];
        const QCPRange keep = p->xAxis->range();
        auto ticker = installXTicker(p->xAxis, time, axis.startS(), m_zeroS.value_or(axis.startS()), m_epoch);
        if (ticker)
            xLabel = ticker->axisTitle();
        if (i == 0)
            m_timeTicker = ticker;
        p->clearGraphs();
        for (int k = p->legend->itemCount() - 1; k >= 0; --k) // policy entries are ours to remove
            if (dynamic_cast<PolicyLegendItem*>(p->legend->item(k)))
                p->legend->removeAt(k);
        p->xAxis->setLabel(xLabel);
        p->yAxis->setLabel(titles[i]);
        std::map<std::string, int> seedsOf, seenOf; // runs per policy; seeds shaded, one legend entry
        for (const RunResult& r : m_runs)
            ++seedsOf[r.policy];
        for (const RunResult& r : m_runs) {
            const int k = seenOf[r.policy]++;
            const workflow::NamedSeries ns = workflow::panelSeries(r, workflow::Panel(i), util, frag);
            const QVector<double> x(ns.x.begin(), ns.x.end()), y(ns.y.begin(), ns.y.end());
            QCPGraph* g = p->addGraph();
            g->setName(QString::fromStdString(r.label));
            // Thin cosmetic pens: thick or antialiased polylines with sharp turns are what makes
            // the raster engine slow on long series (measured: 9 s vs 30 ms per replot at 1M points).
            const QColor base = colourOf(r.policy);
            QPen pen(k == 0 ? base : base.lighter(100 + 45 * std::min(k, 4)), x.size() > 20000 ? 1 : 1.5);
            pen.setCosmetic(true);
            g->setPen(pen);
            g->setProperty("policy", QString::fromStdString(r.policy));
            if (seedsOf[r.policy] > 1) {
                g->removeFromLegend();
                if (k == 0)
                    p->legend->addItem(new PolicyLegendItem(p->legend, QString::fromStdString(r.policy),
                        tr("%1 ×%2").arg(QString::fromStdString(r.policy)).arg(seedsOf[r.policy]), base)); // "fgd ×3": 3 seeds
            }
            g->setAntialiased(x.size() <= 20000);
            g->setAdaptiveSampling(true);
            g->setData(x, y, true);
        }
        p->xAxis->setRange(keep);
        refitValues(i);
        fitLegendColumns(p);
    }
    m_heatmap->setTimeOrigin(m_zeroS, m_epoch);
    setCursorX(m_cursorX);
}

void DashboardWidget::setTimeOrigin(std::optional<double> zeroS, std::optional<double> epochUnixS)
{
    m_zeroS = zeroS;
    m_epoch = epochUnixS;
    rebuild();
}

void DashboardWidget::refitValues(int i)
{
    QCustomPlot* p = m_plots[std::size_t(i)];
    const VisibleData seen = m_yManual[std::size_t(i)] ? VisibleData::Values : fitValueAxis(p);
    const bool timed = !m_runs.empty() && workflow::RunAxis(m_runs.front()).kind() == sim::XAxisKind::Seconds;
    QString note;
    if (m_runs.empty())
        note.clear();
    else if (i == int(workflow::Panel::Latency) && timed)
        note = seen == VisibleData::None ? tr("no job started in this window")
            : seen == VisibleData::AllZero ? tr("no job waited in this window") : QString();
    else
        note = seen == VisibleData::None ? tr("no data in this window")
            : seen == VisibleData::AllZero ? tr("0 throughout this window") : QString();
    views::setPlotNote(p, note);
    p->replot(QCustomPlot::rpQueuedReplot);
}

QString DashboardWidget::plotNote(int plot) const
{
    return plot >= 0 && plot < int(m_plots.size()) ? views::plotNote(m_plots[std::size_t(plot)]) : QString();
}

void DashboardWidget::linkRange(int source)
{
    if (m_linking)
        return;
    m_linking = true;
    const QCPRange r = m_plots[std::size_t(source)]->xAxis->range();
    for (int i = 0; i < int(m_plots.size()); ++i) {
        if (i != source)
            m_plots[std::size_t(i)]->xAxis->setRange(r);
        refitValues(i);
    }
    m_heatmap->setXRange(r.lower, r.upper);
    m_linking = false;
}

void DashboardWidget::resetZoom()
{
    if (m_plots.empty())
        return;
    std::fill(m_yManual.begin(), m_yManual.end(), false);
    m_plots[0]->xAxis->rescale();
    bool found = false;
    QCPRange all;
    for (QCustomPlot* p : m_plots)
        for (int g = 0; g < p->graphCount(); ++g) {
            bool ok = false;
            const QCPRange r = p->graph(g)->getKeyRange(ok);
            if (ok) {
                all = found ? QCPRange(std::min(all.lower, r.lower), std::max(all.upper, r.upper)) : r;
                found = true;
            }
        }
    if (found)
        m_plots[0]->xAxis->setRange(all); // linkRange spreads it
    for (int i = 0; i < int(m_plots.size()); ++i)
        refitValues(i); // also when the x range did not change (no rangeChanged)
}

void DashboardWidget::onMouseMove(int plotIndex, QMouseEvent* event)
{
    setCursorX(m_plots[std::size_t(plotIndex)]->xAxis->pixelToCoord(event->position().x()));
}

void DashboardWidget::setCursorX(double x)
{
    m_cursorX = x;
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        m_cursors[i]->point1->setCoords(x, 0);
        m_cursors[i]->point2->setCoords(x, 1);
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
    m_heatmap->setCursorX(x);
    // Runs separated by a wide space the label may break at; a run's values stay together.
    m_readout->setText(readout().replace(QStringLiteral(" / "), QStringLiteral("\u00a0/\u00a0")));
    m_readout->setToolTip(readout(true));
    emit cursorMoved(x);
}

namespace {
// "p99 wait (s), 1 h window" -> "s"; "GPU utilization (%)" -> "%".
QString unitOf(const QString& axisTitle)
{
    const qsizetype open = axisTitle.indexOf('('), close = axisTitle.indexOf(')', open);
    return open >= 0 && close > open ? axisTitle.mid(open + 1, close - open - 1) : QString();
}
} // namespace

QString DashboardWidget::readout(bool detailed) const
{
    if (m_runs.empty())
        return tr("no runs");
    const bool arrived = workflow::RunAxis(m_runs.front()).kind() == sim::XAxisKind::ArrivedPct;
    QStringList parts;
    parts << (arrived          ? tr("arrived %1 %").arg(m_cursorX, 0, 'f', 1)
            : m_timeTicker ? tr("t = %1").arg(m_timeTicker->describe(m_cursorX))
                           : tr("t = %1 h").arg(m_cursorX, 0, 'f', 2));
    for (int g = 0; g < m_plots[0]->graphCount(); ++g) {
        QStringList values;
        for (QCustomPlot* p : m_plots) {
            const QCPGraph* graph = p->graph(g);
            auto it = graph->data()->findBegin(m_cursorX, false); // last point at or before x
            if (it == graph->data()->constEnd() || graph->data()->isEmpty()) {
                values << QStringLiteral("—");
                continue;
            }
            if (it != graph->data()->constBegin() && it->key > m_cursorX)
                --it;
            const QString unit = unitOf(p->yAxis->label());
            // A no-break space ties the unit to its value when the readout label wraps.
            const QString v = QString::number(it->value, 'g', 4) + (unit.isEmpty() ? QString() : QStringLiteral("\u00a0") + unit);
            // The tooltip names each value: "p99 wait (s), 1 h window: 3263 s".
            values << (detailed ? QStringLiteral("%1: %2").arg(p->yAxis->label(), v) : v);
        }
        parts << QStringLiteral("%1: %2").arg(m_plots[0]->graph(g)->name(), values.join(detailed ? QStringLiteral("; ") : QStringLiteral(" / ")));
    }
    return parts.join(detailed ? QStringLiteral("\n") : QStringLiteral("   "));
}

bool DashboardWidget::exportPng(const QString& path) { return grab().save(path, "PNG"); }

bool DashboardWidget::exportPdf(const QString& path)
{
    // One page with the three plots side by side and the heatmap below, each at its on-screen size.
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QSizeF(width(), height()), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(72);
    QCPPainter painter(&writer);
    if (!painter.isActive())
        return false;
    std::vector<QCustomPlot*> all = m_plots;
    if (m_heatmap->isVisible())
        all.push_back(m_heatmap->plot());
    for (QCustomPlot* p : all) {
        const QPoint at = p->mapTo(this, QPoint(0, 0));
        painter.save();
        painter.translate(at);
        p->toPainter(&painter, p->width(), p->height());
        painter.restore();
    }
    return painter.end();
}

QCustomPlot* DashboardWidget::plotOrHeatmap(int plot) const
{
    if (plot == 3)
        return m_heatmap->plot();
    return plot >= 0 && plot < int(m_plots.size()) ? m_plots[std::size_t(plot)] : nullptr;
}

bool DashboardWidget::exportPlotPng(int plot, const QString& path)
{
    QCustomPlot* p = plotOrHeatmap(plot);
    return p && p->savePng(path, p->width(), p->height());
}

bool DashboardWidget::exportPlotPdf(int plot, const QString& path)
{
    QCustomPlot* p = plotOrHeatmap(plot);
    return p && p->savePdf(path, p->width(), p->height());
}

void DashboardWidget::showPlotMenu(int plot, const QPoint& globalPos)
{
    QMenu menu(this);
    auto ask = [this](const QString& filter) { return QFileDialog::getSaveFileName(this, tr("Export plot"), QString(), filter); };
    menu.addAction(tr("Export This Plot as PNG..."), this, [this, plot, ask] {
        const QString path = ask(tr("PNG (*.png)"));
        if (!path.isEmpty())
            exportPlotPng(plot, path);
    });
    menu.addAction(tr("Export This Plot as PDF..."), this, [this, plot, ask] {
        const QString path = ask(tr("PDF (*.pdf)"));
        if (!path.isEmpty())
            exportPlotPdf(plot, path);
    });
    menu.addAction(tr("Reset Zoom"), this, &DashboardWidget::resetZoom);
    menu.exec(globalPos);
}

bool DashboardWidget::exportVisibleCsv(const QString& path) const
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QTextStream out(&f);
    const QCPRange visible = m_plots[0]->xAxis->range();
    out << "plot,series,x,y\n";
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const QString plotName = m_plots[i]->yAxis->label();
        for (int g = 0; g < m_plots[i]->graphCount(); ++g) {
            const QCPGraph* graph = m_plots[i]->graph(g);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                if (it->key >= visible.lower && it->key <= visible.upper)
                    out << '"' << plotName << "\",\"" << graph->name() << "\"," << QString::number(it->key, 'g', 10)
                        << ',' << QString::number(it->value, 'g', 10) << '\n';
        }
    }
    return out.status() == QTextStream::Ok;
}

} // namespace schedlab::views
