#pragma once
// The Runs dock: the session's runs (run here off the GUI thread by RunController, or stored in
// the open project and read in the background when first checked). Checked runs are the ones the
// tabs show.
// Item data: Qt::UserRole = the run's session id (-1 = stored, not loaded; -2 = loading),
// Qt::UserRole + 1 = its id in the project (-1 = not stored).

#include "job_tracker.h"
#include "project_session.h"
#include "run_controller.h"
#include "run_result.h"

#include <QDockWidget>

#include <functional>
#include <string>
#include <vector>

class QListWidget;
class QListWidgetItem;

namespace schedlab::app {

class RunsDock : public QDockWidget {
    Q_OBJECT
public:
    /// Stored runs come from `session`'s project (not owned; outlives the dock); `colourOf` gives
    /// a policy's colour for the items' swatches.
    RunsDock(ProjectSession* session, std::function<QColor(const std::string&)> colourOf, QWidget* parent = nullptr);
    QListWidget* list() const { return m_list; }
    /// Every run of the session (loaded stored runs too), checked or not.
    const std::vector<views::RunResult>& results() const { return m_results; }
    /// The checked runs, in the session's order.
    std::vector<views::RunResult> checkedRuns() const;
    /// The runs that can be replayed again (no forks).
    std::vector<views::RunResult> replayableRuns() const;
    /// Runs of the session not stored in a project yet (forks do not count).
    bool hasUnsavedRuns() const;
    /// Drops every run; `dropLoading` also drops stored runs still loading (another project).
    void clear(bool dropLoading);
    /// Runs a batch; its runs are listed (checked) in the order they were asked for.
    void start(const RunBatch& batch);
    void cancel();
    bool isRunning() const;
    /// Stored runs checked are still being read.
    bool isLoadingStored() const { return m_storedLoads->isRunning(); }
    /// What the last batch's end says: "Done", or how a fill workload was trimmed.
    QString doneText() const;
    /// Lists a finished run, checked, in its batch's order.
    void addFinished(const views::RunResult& run);
    /// Drops the session's runs that are not stored (another trace was opened).
    void dropSessionRuns();
    /// Lists the project's stored runs and checks (loads) the newest finished ones, up to `show`.
    void listStored(const std::vector<store::RunRow>& rows, int show);
    /// Lists the project's runs not listed yet (after a merge); their count.
    int appendNewStoredRuns();
    /// Checks (so loads and shows) stored run `runId`; false when not listed.
    bool showStoredRun(qlonglong runId);
    /// Stores the unsaved runs in the session's project (they ran on `trace`, read from
    /// `traceFiles`; it may be null when every run is stored).
    Status save(const trace::Trace* trace, const std::vector<std::string>& traceFiles);

signals:
    void progress(double fraction, const QString& what);
    /// The batch ended (or was cancelled / failed).
    void batchFinished(bool cancelled, const QString& error);
    /// The checked runs changed (a check, a run added or loaded).
    void checkedRunsChanged();
    /// The unsaved state may have changed.
    void runsChanged();
    /// The stored runs checked are all read.
    void storedRunsLoaded();
    void errorOccurred(const QString& text);

private:
    void addRunItem(const views::RunResult& r, int before);
    QListWidgetItem* addStoredRunItem(const store::RunRow& row);
    void loadStoredRun(QListWidgetItem* item);
    void storedRunLoaded(int64_t storedId, Result<views::RunResult> run);

    ProjectSession* m_session;
    std::function<QColor(const std::string&)> m_colourOf;
    QListWidget* m_list = nullptr;
    RunController* m_runner = nullptr;
    JobTracker* m_storedLoads = nullptr; ///< stored runs read in the background
    std::vector<views::RunResult> m_results;
    std::size_t m_batchFrom = 0; ///< index in m_results where the running batch's runs begin
    int m_nextLoadedId = 1'000'000; ///< session ids of runs loaded from the project
};

} // namespace schedlab::app
