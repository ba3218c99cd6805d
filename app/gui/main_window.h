#pragma once
// The workbench main window: it owns the pages (one per tab: Dashboard, Comparison, Training,
// Incidents, Sweeps, Autoscaling), the docks (Trace, Policies, Runs, Reward) and the menus, and
// passes values between them. Runs and imports execute off the GUI thread (RunController,
// ImportController); errors show in a non-modal banner.

#include "autoscale_page.h"
#include "comparison_page.h"
#include "dashboard_page.h"
#include "import_controller.h"
#include "incidents_page.h"
#include "project_session.h"
#include "run_result.h"
#include "run_options_widget.h"
#include "runs_dock.h"
#include "sweeps_page.h"
#include "training_page.h"

#include "missing_trace_notice.h"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

class QMenu;
class QTabWidget;
class QUndoGroup;

namespace schedlab::views {
class RewardEditor;
} // namespace schedlab::views

namespace schedlab::app {

class ModeStatus;
class TraceLocator;
class StatusArea;
class TraceDock;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    /// Starts importing the files as one trace (in the background; traceOpened follows, errors go
    /// to the banner). False when nothing was started (no files, or the user kept unsaved runs).
    bool openTrace(const std::vector<std::string>& paths, const trace::ImportOptions& options = {});
    /// Runs the checked policies (or `policies` when given) on the open trace.
    void runPolicies(const std::vector<std::string>& policies = {});
    views::DashboardWidget* dashboard() const { return m_dashboardPage->dashboard(); }
    views::ComparisonWidget* comparison() const { return m_comparisonPage->comparison(); }
    const std::vector<views::RunResult>& results() const { return m_runs->results(); }
    QString bannerText() const;
    /// 0 dashboard, 1 comparison, 2 training, 3 incidents, 4 sweeps, 5 autoscaling.
    void showTab(int index);
    views::TraceOverviewWidget* traceOverview() const { return m_dashboardPage->overview(); }

    // Projects (.schedlab). Each returns success; errors go to the banner.
    /// Creates a new project file (replacing the session's runs) and makes it current.
    bool newProject(const QString& path);
    /// Opens a project: lists its runs in the Runs dock (check one to load it) and opens the trace
    /// of its last run when those files still exist.
    bool openProject(const QString& path);
    /// Stores the unsaved runs in the current project (asks for a file when there is none).
    bool saveProject();
    /// Creates `path` and stores every run of the session in it; it becomes the current project.
    bool saveProjectAs(const QString& path);
    QString projectPath() const { return m_session.path(); }
    /// Shown while runs of the project need trace files that are not where it recorded them.
    views::MissingTraceNotice* missingTraceNotice() const { return m_missingNotice; }
    /// Brings back trace `traceId` of the project from `picked` (other files of the trace are
    /// looked for beside it): checked against the trace the runs used, its place recorded (with
    /// `import`, a copy stored in the project too; a read-only project: for this session only),
    /// then opened. False when nothing was started; traceRelocated follows otherwise.
    bool relocateTrace(qint64 traceId, const QString& picked, bool import);
    /// Runs of the session not stored in a project yet.
    bool hasUnsavedRuns() const { return m_runs->hasUnsavedRuns(); }
    /// The Runs dock list (tests check and uncheck its items).
    QListWidget* runList() const { return m_runs->list(); }
    views::RewardEditor* rewardEditor() const { return m_reward; }
    views::TrainingPanel* trainingPanel() const { return m_trainingPage->panel(); }
    views::IncidentPanel* incidentPanel() const { return m_incidentsPage->panel(); }
    /// Starts fine-tune rounds with the editor's reward on the open trace (needs a project).
    bool startTraining(const views::TrainRequest& request) { return m_trainingPage->start(request); }
    /// Runs the rounds ("learned:CHECKPOINT") next to the checked baselines, in the mode and on the
    /// trace the first of them was trained on (reopening that trace when another one is open).
    void showRoundsOnDashboard(const std::vector<std::string>& rounds);
    /// Off for unattended use (tests, --screenshot): never ask before discarding unsaved runs.
    void setInteractive(bool on) { m_interactive = on; }

    /// Uses the KubeSchedulerConfiguration at `path` for k8s-default / k8s-sampling runs (empty:
    /// the built-in defaults); remembered. False (and an error shown) when it does not parse.
    bool setSchedulerConfig(const QString& path) { return m_options->setSchedulerConfig(path); }
    QString schedulerConfigLabel() const { return m_options->schedulerConfigLabel(); }
    /// Writes a sweep plan (docs/sweeps.md) of the open trace, the checked policies and seeds and
    /// the dock's options in `shards` shards; false with an error shown.
    bool planSweep(const QString& path, int shards);
    /// Writes a sweep plan of training cells: the Training tab's settings, one fine-tune lineage
    /// per weight vector of `weights` (the Reward dock's text, ranges allowed: "balance=0.2:0.6:0.2").
    bool planTrainingSweep(const QString& path, int shards, const QString& weights);
    /// The mode and options the Policies dock sets with the dashboard strip's replay window (no
    /// policy, no seed).
    sim::RunSpec baseSpec() const { return m_options->spec(m_dashboardPage->replayWindow()); }
    /// Shows a sweep plan in the Sweeps tab and follows its shard files; false with an error shown.
    bool openSweep(const QString& path);
    /// Opens a sweep cell on the dashboard: from the project when merged, else after merging the
    /// finished cells into the open project.
    void openSweepCell(int cell) { m_sweepsPage->openCell(cell); }
    views::SweepView* sweepView() const { return m_sweepsPage->view(); }
    /// The Autoscaling tab on a load file (and a service file; a null string keeps the current
    /// one), replaying it when `run`.
    void openAutoscaleLoad(const QString& loadPath, const QString& servicePath = QString(), bool run = false);
    views::AutoscaleView* autoscaleView() const { return m_autoscalePage->view(); }
    views::ScalerTrainingPanel* scalerPanel() const { return m_autoscalePage->trainingPanel(); }
    /// Trains the replica policy's rounds on the Autoscaling tab's load (false with the reason in
    /// the panel when it cannot start; scalerTrainingFinished when done).
    bool startScalerTraining(const views::ScalerTrainRequest& request) { return m_autoscalePage->startTraining(request); }
    AutoscaleController* autoscaleController() const { return m_autoscalePage->controller(); }
    SweepController* sweepController() const { return m_sweepsPage->controller(); }

signals:
    /// An import started by openTrace() ended: the trace is shown, or it failed / was cancelled.
    void traceOpened(bool ok, const QString& error);
    /// All runs of the last batch are done (or it was cancelled / failed).
    void batchDone();
    /// Training stopped (finished, cancelled or failed).
    void trainingDone();
    /// The stored runs checked in the Runs dock are all read (they load in the background).
    void storedRunsLoaded();
    /// What openProject() started is done: the runs it shows are read and the trace it reopens
    /// imported (or failed); the plots are built (a screenshot may follow).
    void projectShown();
    /// A relocation started by relocateTrace() ended (the trace's import follows: traceOpened).
    void traceRelocated(bool ok, const QString& error);
    /// The replica policy's training stopped (ok: every round finished).
    void scalerTrainingFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildPages();
    void connectPages();
    void buildDocks();
    void connectWork();
    void buildMenus();
    void buildFileMenu();
    void buildRunMenu();
    void applyTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths);
    /// What applyTrace switched for a trace whose GPUs are not primary, for the status line.
    QString switchAwayFromGpus();
    void batchFinished(bool cancelled, const QString& error);
    void showError(const QString& text);
    void showStatus(const QString& text);
    void refreshDashboard();
    void refreshRounds();
    void updateTitle();
    void fillRecentMenu();
    /// The session's project changed: the runs, rounds and settings the window shows follow.
    void projectChanged(bool storeReward);
    /// Emits projectShown once nothing openProject() started is still running.
    void checkProjectShown();
    /// The notice follows the project's traces whose files are missing.
    void refreshMissingTraces();
    /// Asks where the file of trace `traceId` is now (a file dialog), then relocateTrace().
    void locateTrace(qint64 traceId, bool import);
    void traceFound(qint64 traceId, const std::vector<std::string>& files, const trace::ImportOptions& options,
        workflow::Relocation how);
    void showRunCell(int cell, qlonglong runId, const QString& policy, qulonglong seed);
    /// Asks Save / Discard / Cancel when runs are unsaved; false = the user cancelled.
    bool confirmDiscard();
    void cancelWork();

    QTabWidget* m_tabs = nullptr;
    DashboardPage* m_dashboardPage = nullptr;
    ComparisonPage* m_comparisonPage = nullptr;
    TrainingPage* m_trainingPage = nullptr;
    IncidentsPage* m_incidentsPage = nullptr;
    SweepsPage* m_sweepsPage = nullptr;
    AutoscalePage* m_autoscalePage = nullptr;
    TraceDock* m_traceDock = nullptr;
    views::RunOptionsWidget* m_options = nullptr; ///< the Policies dock
    RunsDock* m_runs = nullptr;
    views::RewardEditor* m_reward = nullptr; ///< the Reward dock
    StatusArea* m_statusArea = nullptr;
    ModeStatus* m_modeStatus = nullptr;
    QMenu* m_recentMenu = nullptr;
    QUndoGroup* m_undoGroup = nullptr; ///< the reward editor of the shown tab
    ImportController* m_importer = nullptr;
    views::MissingTraceNotice* m_missingNotice = nullptr;
    TraceLocator* m_locator = nullptr;
    /// Traces of a read-only project located in this session (its notice is not shown again).
    std::set<int64_t> m_locatedHere;
    bool m_projectOpening = false; ///< openProject() started work projectShown waits for
    ProjectSession m_session;
    std::shared_ptr<const trace::Trace> m_trace;
    std::vector<std::string> m_tracePaths;
    QString m_traceName;
    QString m_traceNote; ///< said after the next import's "Loaded ..." (where a moved trace was found)
    bool m_interactive = true;
};

} // namespace schedlab::app
