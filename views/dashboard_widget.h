#pragma once
// Three plots side by side, linked in x: timed runs show p99 wait, fragmentation and utilization
// over time; fill runs show GPU allocation, fragmentation amount and rate over arrived workload.
// One graph per run, one colour per policy in every plot, a shared tracker cursor with a readout.

#include "run_result.h"

#include <QSharedPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QHBoxLayout;
class QCustomPlot;
class QCPItemStraightLine;
class QComboBox;
class QLabel;
class QMouseEvent;
class QSplitter;

namespace schedlab::views {

class HeatmapWidget;
class TimeTicker;

class DashboardWidget : public QWidget {
    Q_OBJECT
public:
    enum class Utilization { Cpu, Memory, Gpu };
    enum class Fragmentation { Gpu, Cpu };

    explicit DashboardWidget(QWidget* parent = nullptr);
    /// Replaces the shown runs (one x-axis kind; a mix shows the fill runs only). `runs` may be runs().
    void setRuns(const std::vector<RunResult>& runs);
    const std::vector<RunResult>& runs() const { return m_runs; }
    QCustomPlot* plot(int i) const { return m_plots[std::size_t(i)]; }
    int plotCount() const { return int(m_plots.size()); }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    void setUtilization(Utilization u);
    Utilization utilization() const { return m_util; }
    void setFragmentation(Fragmentation f);
    /// Moves the tracker cursor on every plot and updates the readout.
    void setCursorX(double x);
    double cursorX() const { return m_cursorX; }
    /// The tracker readout: "t = 4.00 h   fgd #42: 3263 s / 34.2 % / 32.6 %"; `detailed` (its
    /// tooltip) names each value and puts a run per line.
    QString readout(bool detailed = false) const;
    /// Colour of a policy (stable for the session, the same in every plot).
    QColor colourOf(const std::string& policy);
    bool exportPng(const QString& path);
    bool exportPdf(const QString& path);
    /// One plot (0..2, or 3 = the heatmap) alone, at its on-screen size.
    bool exportPlotPng(int plot, const QString& path);
    bool exportPlotPdf(int plot, const QString& path);
    /// Values of every graph within the visible x range of the first plot.
    bool exportVisibleCsv(const QString& path) const;
    /// Shows every run's whole x range (View > Reset Zoom, double-click); runs stay as they are.
    void resetZoom();
    /// Time labels count from `zeroS` (trace seconds, the trace's first submit; none = each run's
    /// first tick), as UTC dates when `epochUnixS` (unix seconds of trace time 0) is known.
    void setTimeOrigin(std::optional<double> zeroS, std::optional<double> epochUnixS);
    /// The note a plot shows instead of a meaningless axis ("no job waited in this window"), or empty.
    QString plotNote(int plot) const;

signals:
    void cursorMoved(double x);
    /// The utilization shown changed (the comparison tab follows).
    void utilizationChanged(schedlab::views::DashboardWidget::Utilization u);
    /// A left click on a plot or the heatmap put the cursor at x (incident replay follows it).
    void cursorClicked(double x);

private:
    void addPlot(QWidget* rowWidget, QHBoxLayout* row, int i);
    void rebuild();
    void linkRange(int source);
    /// The y range of plot `i` follows its visible data (unless the user zoomed y); notes when empty.
    void refitValues(int i);
    void onMouseMove(int plotIndex, QMouseEvent* event);
    void showPlotMenu(int plot, const QPoint& globalPos);
    QCustomPlot* plotOrHeatmap(int plot) const;

    std::vector<QCustomPlot*> m_plots;
    std::vector<QCPItemStraightLine*> m_cursors;
    HeatmapWidget* m_heatmap = nullptr;
    QComboBox* m_utilBox = nullptr;
    QComboBox* m_fragBox = nullptr;
    QLabel* m_readout = nullptr;
    QLabel* m_empty = nullptr; ///< shown instead of the plots while there is no run
    QWidget* m_split = nullptr;
    std::vector<RunResult> m_runs;
    std::vector<std::string> m_policyOrder;
    Utilization m_util = Utilization::Gpu;
    Fragmentation m_frag = Fragmentation::Gpu;
    double m_cursorX = 0;
    bool m_linking = false;
    std::vector<bool> m_yManual; ///< per plot: the user zoomed y (Shift+wheel, box zoom); no refit
    std::optional<double> m_zeroS, m_epoch;
    QSharedPointer<TimeTicker> m_timeTicker; ///< of the first plot; null for fill runs
};

} // namespace schedlab::views
