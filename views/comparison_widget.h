#pragma once
// The comparison tab: one small bar chart per summary metric (a bar per run, coloured by policy),
// the CDF of waits, and the summary table (exportable as CSV). Qt Charts.

#include "run_result.h"

#include <QWidget>

#include <functional>
#include <vector>

class QGridLayout;
class QTableWidget;
class QChartView;

namespace schedlab::views {

class ComparisonWidget : public QWidget {
    Q_OBJECT
public:
    /// colourOf gives the policy colours the dashboard uses.
    ComparisonWidget(std::function<QColor(const std::string&)> colourOf, QWidget* parent = nullptr);
    void setRuns(const std::vector<RunResult>& runs);
    /// Metric names of the bar charts shown, in order (for tests).
    QStringList metricNames() const;
    int chartCount() const { return int(m_charts.size()); }
    QTableWidget* table() const { return m_table; }
    bool exportSummaryCsv(const QString& path) const;

private:
    std::function<QColor(const std::string&)> m_colourOf;
    QGridLayout* m_grid = nullptr;
    QTableWidget* m_table = nullptr;
    std::vector<QChartView*> m_charts;
    QStringList m_metrics;
};

} // namespace schedlab::views
