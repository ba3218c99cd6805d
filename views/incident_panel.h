#pragma once
// The Incidents tab's widgets: incident decision replay of one run of the session. Picking a run
// asks for its index (indexRequested; the workbench's IncidentController builds it in the
// background and hands it back with showIndex); then its incidents are listed, its decisions are
// a filterable table, the selected decision is inspected (cluster, candidates, re-scoring,
// reward), Alt+Up / Alt+Down step through decisions, and "Fork" asks for a fork from the selected
// decision under another policy (forkRequested / showFork); the fork joins the dashboard.

#include "run_result.h"

#include "incident/fork.h"
#include "incident/run_index.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QSplitter;
class QVBoxLayout;
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

class IncidentPanel : public QWidget {
    Q_OBJECT
public:
    explicit IncidentPanel(QWidget* parent = nullptr);
    ~IncidentPanel() override;
    /// The session's runs (all on `trace`); keeps the selected run when it is still there.
    void setRuns(const std::vector<RunResult>& runs, std::shared_ptr<const trace::Trace> trace);
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
    /// Forks the current run at the current decision under `policy` (forkRequested; forkFinished follows).
    void fork(const std::string& policy);
    /// What the controller delivers: the index of the run asked for (checked against a stored log
    /// when `checkedAgainstLog`), or why there is none; a fork's result, or its error.
    void showIndex(std::shared_ptr<const incident::RunIndex> index, const RunResult& run, bool checkedAgainstLog);
    void showIndexError(bool cancelled, const QString& error);
    void showFork(const incident::ForkResult& fork);
    void showForkError(bool cancelled, const QString& error);
    void setProgress(double fraction);
    const incident::RunIndex* runIndex() const { return m_index.get(); }
    InspectorWidget* inspector() const { return m_inspector; }
    QTreeWidget* incidentList() const { return m_incidents; }
    QTableView* decisionTable() const { return m_table; }
    DecisionFilterProxy* filter() const { return m_proxy; }
    QTableWidget* forkDeltas() const { return m_deltas; }
    QAction* nextAction() const { return m_next; }
    QAction* previousAction() const { return m_prev; }
    /// Writes the decisions shown (filtered, in table order) as CSV; returns an error or "".
    QString exportCsv(const QString& path) const;

signals:
    /// Build the index of `run` (on `trace`; null for a stored run with no trace open: the project
    /// gives it) and call showIndex / showIndexError.
    void indexRequested(const schedlab::views::RunResult& run, std::shared_ptr<const schedlab::trace::Trace> trace);
    /// Fork the indexed run at decision k under `policy`, compared over `window` (0 = to the end).
    void forkRequested(std::shared_ptr<const schedlab::incident::RunIndex> index, qint64 k, const std::string& policy, double window);
    void cancelRequested();
    /// Work asked for earlier no longer applies (another run or trace): drop its result.
    void abandoned();
    void indexed(bool ok, const QString& error);
    /// The dashboard cursor should move here (dashboard units).
    void cursorRequested(double x);
    void forkFinished(const schedlab::views::RunResult& result);
    void forkFailed(const QString& error);

private:
    void buildTopRow(QVBoxLayout* layout);
    QWidget* buildDecisionList(QSplitter* split);
    QWidget* buildInspector(QSplitter* split);
    void connectControls();
    void startIndex(int comboIndex);
    void setBusy(bool busy);
    void onIndexed();
    void inspectCurrent();
    void applyFilters();
    double dashboardXOf(double decisionTime) const;

    std::vector<RunResult> m_runs;
    std::shared_ptr<const trace::Trace> m_trace;
    std::shared_ptr<const incident::RunIndex> m_index;
    RunResult m_indexedRun;
    int64_t m_current = -1;
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
    DecisionTableModel* m_model = nullptr;
    DecisionFilterProxy* m_proxy = nullptr;
    QLineEdit* m_rescore = nullptr;
    InspectorWidget* m_inspector = nullptr;
    QComboBox* m_forkPolicy = nullptr;
    QLineEdit* m_forkWindow = nullptr;
    QPushButton* m_forkButton = nullptr;
    QTableWidget* m_deltas = nullptr;
    QAction* m_next = nullptr;
    QAction* m_prev = nullptr;
};

} // namespace schedlab::views
