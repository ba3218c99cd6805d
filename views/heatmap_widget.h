#pragma once
// Cluster heatmap: nodes (rows) x time (columns) of one run, coloured by node utilization (the
// dominant share of cpu, memory and GPU; sim::NodeHeat). A combo box picks the run. The x axis
// uses the dashboard's units (hours since the first submit, or arrived workload %) so the
// dashboard can link it with its plots; a click moves the shared cursor.

#include "run_result.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPItemStraightLine;
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
    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPItemStraightLine* m_cursor = nullptr;
    QComboBox* m_runBox = nullptr;
    std::vector<RunResult> m_runs;
};

} // namespace schedlab::views
