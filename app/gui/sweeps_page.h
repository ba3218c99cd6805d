#pragma once
// The Sweeps tab (docs/sweeps.md): a sweep plan's cells followed through their shard files
// (SweepView, read off the GUI thread by SweepController). A finished cell opens on the dashboard:
// from the open project when merged, else once the finished cells are merged into it.

#include "project_session.h"
#include "sweep_controller.h"
#include "sweep_view.h"

#include "store/sweep_plan.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::app {

class SweepsPage : public QWidget {
    Q_OBJECT
public:
    /// Cells merge into `session`'s project (not owned; outlives the page).
    explicit SweepsPage(ProjectSession* session, QWidget* parent = nullptr);
    views::SweepView* view() const { return m_view; }
    SweepController* controller() const { return m_sweeps; }
    /// Shows the plan at `path` and follows its shard files; false with errorOccurred.
    bool openPlan(const QString& path);
    /// The trace plans of runs name (and their import options).
    void setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths);
    /// Writes a plan of runs of the open trace: `policies` x `seeds` on `base` in `shards` shards;
    /// false with errorOccurred.
    bool planRuns(const QString& path, int shards, const std::vector<std::string>& policies,
        const Result<std::vector<uint64_t>>& seeds, const sim::RunSpec& base);
    /// Builds and writes a sweep plan (statusMessage says what it holds); false with errorOccurred.
    bool writePlan(const store::SweepSpec& spec, const QString& path);
    /// Opens a finished cell: runCellRequested or roundCellRequested, after a merge when needed.
    void openCell(int cell);
    /// The project the cells merge into changed (opened, created, closed).
    void projectChanged();

signals:
    /// Cell `cell` is stored run `runId` of the open project: show it on the dashboard.
    void runCellRequested(int cell, qlonglong runId, const QString& policy, qulonglong seed);
    /// A training cell: replay its last round (`policy` = "learned:CHECKPOINT") on the dashboard.
    void roundCellRequested(const std::string& policy);
    /// Finished cells were merged into the open project (`copied` new runs); new rounds come too.
    void merged(int copied);
    void statusMessage(const QString& text);
    void errorOccurred(const QString& text);

private:
    void openRoundCell(int cell, int64_t roundId);

    ProjectSession* m_session;
    views::SweepView* m_view = nullptr;
    SweepController* m_sweeps = nullptr;
    std::shared_ptr<const trace::Trace> m_trace;
    std::vector<std::string> m_tracePaths;
    int m_pendingCell = -1; ///< opened once the merge it waits for is done
};

} // namespace schedlab::app
