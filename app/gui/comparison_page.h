#pragma once
// The Comparison tab: the shown runs side by side, one mode at a time, with the utilization the
// dashboard shows; File > Export Summary Table writes its table.

#include "run_result.h"

#include "workflow/run_series.h"

#include <QWidget>

#include <functional>
#include <string>
#include <vector>

namespace schedlab::views {
class ComparisonWidget;
}

namespace schedlab::app {

class ComparisonPage : public QWidget {
    Q_OBJECT
public:
    /// `colourOf` gives a policy's colour (the dashboard's, so both tabs agree).
    explicit ComparisonPage(std::function<QColor(const std::string&)> colourOf, QWidget* parent = nullptr);
    views::ComparisonWidget* comparison() const { return m_comparison; }
    void setRuns(const std::vector<views::RunResult>& runs);
    void setUtilization(workflow::UtilizationKind kind);
    /// Asks for a file and writes the summary table as CSV.
    void exportSummary();

signals:
    void errorOccurred(const QString& text);

private:
    views::ComparisonWidget* m_comparison = nullptr;
};

} // namespace schedlab::app
