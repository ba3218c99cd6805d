#pragma once
// Cluster heatmap: nodes (rows) x time (columns) of one run, coloured by node utilization (the
// dominant share of cpu, memory and GPU; sim::NodeHeat). A combo box picks the run. The x axis
// uses the dashboard's units (hours since the first submit, or arrived workload %) so the
// dashboard can link it with its plots; a click moves the shared cursor. The colour range follows
// the visible window, and rows can be ordered by the nodes' load in it.

#include "run_result.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPItemStraightLine;
class QCheckBox;
class QComboBox;

namespace schedlab::views {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    /// Shows the first run with heat data (the selection is kept when that run is still there).
    void setRuns(const std::vector<RunResult>& runs);
    /// Index into the runs given to setRuns; -1 = none.
    int currentRun() const;
    void setCurrentRun(int index);
    void setXRange(double lower, double upper);
    /// As DashboardWidget::setTimeOrigin (the time axis' labels).
    void setTimeOrigin(std::optional<double> zeroS, std::optional<double> epochUnixS);
    /// Rows ordered by each node's mean utilization in the visible x range, busiest on top.
    void setSortByLoad(bool on);
    bool sortByLoad() const;
    /// Node shown in row `row` (0 = bottom); -1 outside.
    int nodeOfRow(int row) const;
    /// The colour scale's range (follows the visible window: 0 .. the busiest visible cell).
    double colourMax() const;
    void setCursorX(double x);
    QCustomPlot* plot() const { return m_plot; }
    QCPColorMap* colorMap() const { return m_map; }
    /// Utilization in % of node `node` at x (the column containing x); -1 outside the data.
    double valueAt(double x, int node) const;

signals:
    void xRangeChanged(double lower, double upper);
    /// The user clicked the map at x (dashboard units).
    void clicked(double x);

private:
    void rebuild();
    /// Colour range and row order for the visible x range.
    void fitWindow();
    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPItemStraightLine* m_cursor = nullptr;
    QComboBox* m_runBox = nullptr;
    int m_chosenId = -1; ///< id of the run the user (or setCurrentRun) picked; -1 = the first
    QCheckBox* m_sortBox = nullptr;
    std::vector<RunResult> m_runs;
    std::vector<double> m_columnX; ///< plot x of each column of the current run
    std::vector<int> m_rowNode;    ///< node in each row
    std::optional<double> m_zeroS, m_epoch;
};

} // namespace schedlab::views
