#pragma once
// The comparison tab: one small bar chart per summary figure (workflow::summaryMetrics) with a bar
// per policy at the mean over its seeds and a min-max whisker, the policy names on the axis and a
// y range fitted to the values (so differences of a few points show); the CDF of waits (timed
// runs) with a legend below; the summary table, a row per run and a mean [min, max] row per policy
// run with several seeds (exportable as CSV). QCustomPlot, like the dashboard.

#include "run_result.h"

#include "workflow/run_series.h"

#include <QWidget>

#include <functional>
#include <vector>

class QCustomPlot;
class QGridLayout;
class QTableWidget;

namespace schedlab::views {

class ComparisonWidget : public QWidget {
    Q_OBJECT
public:
    /// colourOf gives the policy colours the dashboard uses.
    ComparisonWidget(std::function<QColor(const std::string&)> colourOf, QWidget* parent = nullptr);
    /// Runs of the first run's mode are compared (others are left out).
    void setRuns(const std::vector<RunResult>& runs);
    /// Which utilization the timed figures show (the dashboard's choice).
    void setUtilization(workflow::UtilizationKind kind);
    /// Names of the bar charts shown, in order.
    QStringList metricNames() const;
    /// Bar charts plus the CDF (timed).
    int chartCount() const { return int(m_charts.size()); }
    QCustomPlot* chart(int i) const { return m_charts[std::size_t(i)]; }
    QTableWidget* table() const { return m_table; }
    bool exportSummaryCsv(const QString& path) const;

    /// The runs of one policy and their values of one metric (comparison_widget.cpp).
    struct Group;

private:
    void addMetricCharts(const std::vector<workflow::NamedValue>& metrics, const std::vector<std::vector<Group>>& groups, std::size_t policyCount);
    /// The CDF of waits (units that started), a line per run (timed runs).
    void addWaitCdf();
    /// A row per run, then a mean [min, max] row per policy with several runs.
    void fillTable(const std::vector<workflow::NamedValue>& metrics, const std::vector<std::vector<workflow::NamedValue>>& values,
        const std::vector<std::vector<Group>>& groups, const std::vector<std::string>& policies);
    void rebuild();
    QCustomPlot* newChart(const QString& title);
    std::function<QColor(const std::string&)> m_colourOf;
    std::vector<RunResult> m_runs;
    workflow::UtilizationKind m_util = workflow::UtilizationKind::Gpu;
    QGridLayout* m_grid = nullptr;
    QTableWidget* m_table = nullptr;
    std::vector<QCustomPlot*> m_charts;
    QStringList m_metrics;
};

} // namespace schedlab::views
