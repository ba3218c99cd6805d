#include "trace_overview_widget.h"

#include "axis_tickers.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace schedlab::views {

namespace {

constexpr double kMinWindowH = 1.0; ///< the narrowest window the strip lets the user drag
constexpr int kEdgeGrabPx = 6;      ///< how near an edge a press resizes instead of moving

/// A duration to read, to the nearest minute: "45 s", "20 min", "5 h 30 min", "6 d 4 h".
QString durationText(double seconds)
{
    const long long s = std::llround(std::max(0.0, seconds));
    if (s < 60)
        return QObject::tr("%1 s").arg(s);
    const long long min = (s + 30) / 60;
    if (min < 60)
        return QObject::tr("%1 min").arg(min);
    const long long h = (min + 30) / 60;
    if (min < 10 * 60) // under ten hours: to the minute
        return min % 60 == 0 ? QObject::tr("%1 h").arg(min / 60) : QObject::tr("%1 h %2 min").arg(min / 60).arg(min % 60);
    if (min < 48 * 60)
        return QObject::tr("%1 h").arg(h);
    return h % 24 == 0 ? QObject::tr("%1 d").arg(h / 24) : QObject::tr("%1 d %2 h").arg(h / 24).arg(h % 24);
}

} // namespace

TraceOverviewWidget::TraceOverviewWidget(QWidget* parent) : QWidget(parent)
{
    setObjectName("traceOverview");
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName("traceOverviewPlot");
    m_plot->setMinimumHeight(80);
    m_plot->setMaximumHeight(96);
    m_plot->setInteractions({}); // the window is dragged, not the axes
    m_plot->yAxis->setLabel("requested %");
    m_plot->yAxis->setRange(0, 100);
    m_plot->yAxis->ticker()->setTickCount(2);
    m_plot->axisRect()->setMargins(QMargins(0, 0, 0, 0));
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msBottom);
    m_plot->xAxis->setTickLabelFont(font());
    m_ticker = installXTicker(m_plot->xAxis, true, 0, 0, std::nullopt);

    m_plot->addGraph();
    m_plot->graph(0)->setPen(QPen(QColor(40, 90, 160), 1));
    m_plot->graph(0)->setBrush(QColor(40, 90, 160, 70));
    m_plot->addGraph();
    m_plot->graph(1)->setPen(QPen(QColor(160, 40, 40), 1, Qt::DashLine));
    m_plot->graph(1)->setName("capacity");

    m_rect = new QCPItemRect(m_plot);
    m_rect->setObjectName("replayWindow");
    m_rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_rect->setClipToAxisRect(true);

    connect(m_plot, &QCustomPlot::mousePress, this, &TraceOverviewWidget::press);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TraceOverviewWidget::move);
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this] { release(); });

    m_text = new QLabel(this);
    m_text->setObjectName("replayWindowText");
    m_busiest = new QPushButton(tr("Busiest"), this);
    m_busiest->setObjectName("windowBusiest");
    m_busiest->setToolTip(tr("Replay the busiest stretch of the trace (the default window)"));
    m_whole = new QPushButton(tr("Whole trace"), this);
    m_whole->setObjectName("windowWhole");
    m_whole->setToolTip(tr("Replay the whole span of the trace"));
    connect(m_busiest, &QPushButton::clicked, this, [this] {
        setWindow(m_default);
        emit windowChanged();
    });
    connect(m_whole, &QPushButton::clicked, this, [this] {
        setWindow(std::nullopt);
        emit windowChanged();
    });

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_text, 1);
    row->addWidget(m_busiest);
    row->addWidget(m_whole);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_plot);
    layout->addLayout(row);
    showWindow();
}

void TraceOverviewWidget::setProfile(const trace::LoadProfile& profile, std::optional<trace::TimeSpan> window,
    std::optional<double> epochUnixS)
{
    m_profile = profile;
    m_default = window;
    m_ticker->setOrigin(profile.startS, profile.startS, epochUnixS);
    m_plot->xAxis->setLabel(m_ticker->axisTitle());

    QVector<double> x, y;
    double peak = 0;
    if (!profile.empty() && profile.capacity > 0) {
        for (std::size_t i = 0; i < profile.requested.size(); ++i) {
            const double share = 100 * profile.requested[i] / profile.capacity;
            peak = std::max(peak, share);
            x << hoursOf(profile.startS + i * profile.binS) << hoursOf(profile.startS + (i + 1) * profile.binS);
            y << share << share;
        }
    }
    m_plot->graph(0)->setData(x, y, true);
    m_plot->graph(0)->setName(QString("requested %1s").arg(QString::fromStdString(profile.resource)));
    const double spanH = std::max(hoursOf(profile.endS), 1e-3);
    // Capacity drawn only when the peak comes near it (else it would flatten the load to a line).
    const double top = peak > 60 ? std::max(110.0, peak * 1.1) : std::max(peak * 1.15, 1.0);
    if (peak > 60)
        m_plot->graph(1)->setData(QVector<double>{0, spanH}, QVector<double>{100, 100}, true);
    else
        m_plot->graph(1)->data()->clear();
    m_plot->xAxis->setRange(0, spanH);
    m_plot->yAxis->setRange(0, top);
    m_plot->yAxis->setLabel(QString("%1 %").arg(QString::fromStdString(profile.resource)));
    setWindow(window);
}

std::optional<trace::TimeSpan> TraceOverviewWidget::window() const
{
    const double spanH = hoursOf(m_profile.endS);
    if (m_profile.empty() || (m_fromH <= 0 && m_toH >= spanH))
        return std::nullopt;
    return trace::TimeSpan{traceSOf(m_fromH), traceSOf(m_toH)};
}

void TraceOverviewWidget::setWindow(std::optional<trace::TimeSpan> window)
{
    const double spanH = hoursOf(m_profile.endS);
    if (window) {
        m_fromH = std::clamp(hoursOf(window->fromS), 0.0, spanH);
        m_toH = std::clamp(hoursOf(window->toS), m_fromH, spanH);
    } else {
        m_fromH = 0;
        m_toH = spanH;
    }
    showWindow();
}

void TraceOverviewWidget::setFillMode(bool fill)
{
    m_fill = fill;
    showWindow();
}

QString TraceOverviewWidget::windowText() const
{
    if (m_profile.empty())
        return tr("no job in the trace has a submit and a run time");
    if (m_fill)
        return tr("fill experiment: every pod arrives in order; the window applies to timed replays");
    const double spanS = m_profile.spanS();
    if (!window())
        return tr("replay window: the whole trace (%1)").arg(durationText(spanS));
    const double fromS = m_fromH * 3600, toS = m_toH * 3600;
    return tr("replay window: %1 – %2 (%3) of %4")
        .arg(m_ticker->describe(m_fromH), m_ticker->describe(m_toH), durationText(toS - fromS),
            durationText(spanS));
}

void TraceOverviewWidget::showWindow()
{
    m_rect->topLeft->setCoords(m_fromH, 0);
    m_rect->bottomRight->setCoords(m_toH, 1);
    const QColor edge = m_fill ? QColor(140, 140, 140) : QColor(220, 120, 0);
    m_rect->setPen(QPen(edge, 2));
    m_rect->setBrush(QColor(edge.red(), edge.green(), edge.blue(), m_fill ? 25 : 50));
    m_rect->setVisible(!m_profile.empty());
    m_plot->graph(0)->setPen(QPen(m_fill ? QColor(150, 150, 150) : QColor(40, 90, 160), 1));
    m_text->setText(windowText());
    const bool usable = !m_profile.empty() && !m_fill;
    m_busiest->setEnabled(usable && m_default.has_value());
    m_whole->setEnabled(usable);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TraceOverviewWidget::press(QMouseEvent* e)
{
    if (m_profile.empty() || m_fill || e->button() != Qt::LeftButton)
        return;
    QCPAxis* x = m_plot->xAxis;
    const double px = e->position().x();
    const double h = x->pixelToCoord(px);
    const double leftPx = x->coordToPixel(m_fromH), rightPx = x->coordToPixel(m_toH);
    m_grabH = h;
    m_grabFromH = m_fromH;
    m_grabToH = m_toH;
    m_pressFromH = m_fromH;
    m_pressToH = m_toH;
    if (std::abs(px - leftPx) <= kEdgeGrabPx)
        m_drag = Drag::Left;
    else if (std::abs(px - rightPx) <= kEdgeGrabPx)
        m_drag = Drag::Right;
    else if (h > m_fromH && h < m_toH)
        m_drag = Drag::Move;
    else { // outside the window: centre it there, then keep moving with the mouse
        const double len = m_toH - m_fromH;
        const double spanH = hoursOf(m_profile.endS);
        m_fromH = std::clamp(h - len / 2, 0.0, std::max(0.0, spanH - len));
        m_toH = m_fromH + len;
        m_grabFromH = m_fromH;
        m_grabToH = m_toH;
        m_drag = Drag::Move;
        showWindow();
    }
}

void TraceOverviewWidget::move(QMouseEvent* e)
{
    if (m_drag == Drag::None)
        return;
    const double spanH = hoursOf(m_profile.endS);
    const double minLen = std::min(kMinWindowH, spanH);
    const double h = std::clamp(m_plot->xAxis->pixelToCoord(e->position().x()), 0.0, spanH);
    switch (m_drag) {
    case Drag::Left:
        m_fromH = std::min(h, m_toH - minLen);
        break;
    case Drag::Right:
        m_toH = std::max(h, m_fromH + minLen);
        break;
    case Drag::Move: {
        const double len = m_grabToH - m_grabFromH;
        m_fromH = std::clamp(m_grabFromH + (h - m_grabH), 0.0, std::max(0.0, spanH - len));
        m_toH = m_fromH + len;
        break;
    }
    case Drag::None:
        break;
    }
    m_fromH = std::max(0.0, m_fromH);
    m_toH = std::min(spanH, m_toH);
    showWindow();
}

void TraceOverviewWidget::release()
{
    if (m_drag == Drag::None)
        return;
    m_drag = Drag::None;
    // Whole hours from the first submit, like the CLI's default window (unless shorter than one).
    const double spanH = hoursOf(m_profile.endS);
    if (spanH > 4 * kMinWindowH) {
        m_fromH = std::clamp(std::round(m_fromH), 0.0, spanH);
        m_toH = std::clamp(std::round(m_toH), m_fromH + kMinWindowH, spanH);
        if (m_toH >= spanH - 0.5)
            m_toH = spanH;
    }
    showWindow();
    if (std::abs(m_fromH - m_pressFromH) > 1e-9 || std::abs(m_toH - m_pressToH) > 1e-9)
        emit windowChanged();
}

} // namespace schedlab::views
