#pragma once
// The Incidents tab: incident decision replay of one run of the session. Picking a run indexes it
// in the background (core/incident: the run replayed with a state journal and, for stored runs,
// checked against the stored decision log); then its incidents are listed, its decisions are a
// filterable table, the selected decision is inspected (cluster, candidates, re-scoring,
// reward), Alt+Up / Alt+Down step through decisions, and "Fork" continues the run from the
// selected decision under another policy; the fork joins the dashboard next to the original.

#include "job_tracker.h"
#include "run_result.h"

#include "base/progress.h"
#include "incident/fork.h"
#include "incident/run_index.h"
#include "store/project.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTableWidget;
class QTreeWidget;

namespace schedlab::views {
class DecisionFilterProxy;
class DecisionTableModel;
class InspectorWidget;
} // namespace schedlab::views

namespace schedlab::app {

class IncidentPanel : public QWidget {
    Q_OBJECT
public:
    explicit IncidentPanel(QWidget* parent = nullptr);
    ~IncidentPanel() override;
    /// The session's runs (all on `trace`); keeps the selected run when it is still there.
    void setRuns(const std::vector<views::RunResult>& runs, std::shared_ptr<const trace::Trace> trace);
    /// Stored runs are rebuilt with their stored options and checked against their stored log.
    void setProject(store::Project* project) { m_project = project; }
    /// Selects the run with this session id and indexes it (asynchronously; indexed() follows).
    bool selectRun(int sessionId);
    /// Selects decision k (table, inspector, dashboard cursor).
    void selectDecision(int64_t k);
    int64_t currentDecision() const { return m_current; }
    /// Moves the selection by `delta` rows of the (filtered, sorted) table.
    void step(int delta);
    /// Selects the decision nearest to x in dashboard units (timed: h since the first tick; fill: arrived %).
    void selectAtDashboardX(double x);
    /// A click on the dashboard at x: selects the nearest decision of the indexed run; with none
    /// indexed yet, indexes `runId` first (when the panel lists it) and selects then.
    void followDashboardClick(double x, int runId);
    /// Forks the current run at the current decision under `policy` (asynchronously; forkFinished follows).
    void fork(const std::string& policy);
    const incident::RunIndex* runIndex() const { return m_index.get(); }
    views::InspectorWidget* inspector() const { return m_inspector; }
    QTreeWidget* incidentList() const { return m_incidents; }
    QTableView* decisionTable() const { return m_table; }
    views::DecisionFilterProxy* filter() const { return m_proxy; }
    QTableWidget* forkDeltas() const { return m_deltas; }
    QAction* nextAction() const { return m_next; }
    QAction* previousAction() const { return m_prev; }
    /// Writes the decisions shown (filtered, in table order) as CSV; returns an error or "".
    QString exportCsv(const QString& path) const;

signals:
    void indexed(bool ok, const QString& error);
    /// The dashboard cursor should move here (dashboard units).
    void cursorRequested(double x);
    void forkFinished(const schedlab::views::RunResult& result);
    void forkFailed(const QString& error);

private:
    void startIndex(int comboIndex);
    void onIndexed();
    void inspectCurrent();
    void applyFilters();
    double dashboardXOf(double decisionTime) const;

    std::vector<views::RunResult> m_runs;
    std::shared_ptr<const trace::Trace> m_trace;
    store::Project* m_project = nullptr;
    std::shared_ptr<const incident::RunIndex> m_index;
    views::RunResult m_indexedRun;
    int64_t m_current = -1;
    JobTracker m_jobs; ///< indexing and forks of the selected run
    int m_nextForkId = 2'000'000;
    std::optional<double> m_pendingX; ///< a dashboard click waiting for the index

    QComboBox* m_run = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QLabel* m_status = nullptr;
    QTreeWidget* m_incidents = nullptr;
    QLineEdit* m_jobFilter = nullptr;
    QSpinBox* m_nodeFilter = nullptr;
    QComboBox* m_outcomeFilter = nullptr;
    QLineEdit* m_fromFilter = nullptr;
    QLineEdit* m_toFilter = nullptr;
    QPushButton* m_export = nullptr;
    QTableView* m_table = nullptr;
    views::DecisionTableModel* m_model = nullptr;
    views::DecisionFilterProxy* m_proxy = nullptr;
    QLineEdit* m_rescore = nullptr;
    views::InspectorWidget* m_inspector = nullptr;
    QComboBox* m_forkPolicy = nullptr;
    QLineEdit* m_forkWindow = nullptr;
    QPushButton* m_forkButton = nullptr;
    QTableWidget* m_deltas = nullptr;
    QAction* m_next = nullptr;
    QAction* m_prev = nullptr;
};

} // namespace schedlab::app
