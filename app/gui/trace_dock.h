#pragma once
// The Trace dock: the open trace's summary, a sortable and filterable job table, and for SWF logs
// the split of the processor pool into nodes (reloading the trace with it).

#include "trace/trace.h"
#include "trace/trace_loader.h"

#include <QDockWidget>

#include <memory>
#include <string>
#include <vector>

class QSpinBox;

namespace schedlab::views {
class JobTableModel;
class TraceSummaryView;
} // namespace schedlab::views

namespace schedlab::app {

class TraceDock : public QDockWidget {
    Q_OBJECT
public:
    explicit TraceDock(QWidget* parent = nullptr);
    /// Shows a loaded trace read from `paths` (shares it, no copy).
    void setTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths);

    /// Asks for trace files (or a folder: a kubectl dump, scheduler logs) to import, starting where
    /// the last ones were; empty when the user cancelled.
    std::vector<std::string> chooseFiles();
    std::vector<std::string> chooseFolder();

signals:
    /// The user asked to read the trace again with these options (SWF: processors per node).
    void reloadRequested(const schedlab::trace::ImportOptions& options);

private:
    QWidget* buildSwfRow(QWidget* parent);

    views::TraceSummaryView* m_summary = nullptr;
    views::JobTableModel* m_jobs = nullptr;
    QWidget* m_swfRow = nullptr; ///< SWF traces: processors per node + reload
    QSpinBox* m_procsPerNode = nullptr;
};

} // namespace schedlab::app
