#pragma once
// The Trace dock's summary as a compact form: format, cluster model, nodes, GPUs, jobs, span and
// warnings, one row each with their details as collapsed children (files, GPU models, task kinds,
// the first warnings); the full text of `schedlab-cli info` on demand (context menu: show, copy).

#include <QTreeWidget>

namespace schedlab::trace {
struct TraceSummary;
}

namespace schedlab::views {

class TraceSummaryView : public QTreeWidget {
    Q_OBJECT
public:
    explicit TraceSummaryView(QWidget* parent = nullptr);
    /// Shows `summary`; `clusterModel` (SWF: how processors became nodes) leads when not empty.
    void setSummary(const trace::TraceSummary& summary, const QString& clusterModel = {});
    /// The full text (what `schedlab-cli info` prints, after the cluster model), for copy and tests.
    QString summaryText() const { return m_text; }
    /// The value of a top-level row ("nodes", "GPUs", "jobs", "span", "warnings"...), empty if none.
    QString rowValue(const QString& key) const;
    /// Opens the full text in a dialog (context menu "Show full text…").
    void showFullText();

private:
    QTreeWidgetItem* addRow(const QString& key, const QString& value, QTreeWidgetItem* parent = nullptr);
    QString m_text;
};

} // namespace schedlab::views
