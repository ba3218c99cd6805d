#pragma once
// The Trace dock's summary as a form: one row per fact ("nodes" | "64 (56 with GPUs) ..."), the
// indented details of a fact (files, GPU models, percentiles, warnings) as its collapsed children,
// so a narrow dock shows labels and values instead of a wrapped column of monospace text.

#include <QTreeWidget>

namespace schedlab::views {

class TraceSummaryView : public QTreeWidget {
    Q_OBJECT
public:
    explicit TraceSummaryView(QWidget* parent = nullptr);
    /// The text of trace::toText(): "key: value" lines, details indented under them.
    void setSummaryText(const QString& text);
    /// The text last set (what `schedlab-cli info` prints), for copy and tests.
    QString summaryText() const { return m_text; }

private:
    QString m_text;
};

} // namespace schedlab::views
