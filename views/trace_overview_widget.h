#pragma once
// The trace-overview strip above the plots: what the trace asks of its cluster over its whole span
// (trace::LoadProfile, requested GPUs or cores as % of capacity) with the replay window on it.
// Drag the window to move it, drag an edge to resize it, click elsewhere to centre it there;
// "Busiest" puts back the default (the busiest stretch), "Whole trace" replays everything.

#include "trace/load_profile.h"

#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPItemRect;
class QLabel;
class QMouseEvent;
class QPushButton;

namespace schedlab::views {

class TimeTicker;

class TraceOverviewWidget : public QWidget {
    Q_OBJECT
public:
    explicit TraceOverviewWidget(QWidget* parent = nullptr);
    /// Shows `profile`; the window starts at `window` (none: the whole trace). `epochUnixS` dates
    /// the axis.
    void setProfile(const trace::LoadProfile& profile, std::optional<trace::TimeSpan> window,
        std::optional<double> epochUnixS);
    /// The window to replay in trace seconds; none = the whole trace.
    std::optional<trace::TimeSpan> window() const;
    void setWindow(std::optional<trace::TimeSpan> window);
    /// The busiest stretch setProfile was given (none: the whole trace).
    std::optional<trace::TimeSpan> defaultWindow() const { return m_default; }
    /// Fill experiments ignore arrival times: the window is dimmed and the strip says so.
    void setFillMode(bool fill);
    /// "replay window: 51 d 13 h – 57 d 17 h (6 d 4 h) of 61 d" (tests, status).
    QString windowText() const;
    QCustomPlot* plot() const { return m_plot; }

signals:
    /// The user moved, resized or reset the window (not emitted by setWindow / setProfile).
    void windowChanged();

private:
    enum class Drag { None, Move, Left, Right };
    void press(QMouseEvent* e);
    void move(QMouseEvent* e);
    void release();
    void showWindow();
    double hoursOf(double traceS) const { return (traceS - m_profile.startS) / 3600; }
    double traceSOf(double hours) const { return m_profile.startS + hours * 3600; }

    QCustomPlot* m_plot = nullptr;
    QCPItemRect* m_rect = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_busiest = nullptr;
    QPushButton* m_whole = nullptr;
    trace::LoadProfile m_profile;
    QSharedPointer<TimeTicker> m_ticker;
    std::optional<trace::TimeSpan> m_default;
    double m_fromH = 0, m_toH = 0; ///< the window on the axis (hours since the first submit)
    bool m_fill = false;
    Drag m_drag = Drag::None;
    double m_grabH = 0, m_grabFromH = 0, m_grabToH = 0;
    double m_pressFromH = 0, m_pressToH = 0; ///< the window when the press began
};

} // namespace schedlab::views
