#pragma once
// The workbench main window: Trace, Policies and Runs docks around the dashboard. Runs execute
// off the GUI thread (RunController); errors show in a non-modal banner.

#include "import_controller.h"
#include "incident_controller.h"
#include "incident_panel.h"
#include "project_session.h"
#include "run_controller.h"
#include "sweep_controller.h"
#include "autoscale_controller.h"
#include "scaler_training_controller.h"
#include "training_controller.h"
#include "run_result.h"
#include "trace/load_profile.h"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QLabel;
class QUndoGroup;
class QListWidgetItem;
class QMenu;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLineEdit;
class QTableView;
class QTabWidget;
class QSortFilterProxyModel;

namespace schedlab::trace {
struct Trace;
}
namespace schedlab::views {
class ComparisonWidget;
class DashboardWidget;
class JobTableModel;
class RewardEditor;
class TraceOverviewWidget;
class TraceSummaryView;
class TrainingPanel;
} // namespace schedlab::views

namespace schedlab::app {

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
    views::DashboardWidget* dashboard() const { return m_dashboard; }
    views::ComparisonWidget* comparison() const { return m_comparison; }
    const std::vector<views::RunResult>& results() const { return m_results; }
    QString bannerText() const;
    /// 0 dashboard, 1 comparison, 2 training, 3 incidents.
    void showTab(int index);
    views::TraceOverviewWidget* traceOverview() const { return m_overview; }

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
    /// Runs of the session not stored in a project yet.
    bool hasUnsavedRuns() const;
    /// The Runs dock list (tests check and uncheck its items).
    QListWidget* runList() const { return m_runList; }
    views::RewardEditor* rewardEditor() const { return m_reward; }
    views::TrainingPanel* trainingPanel() const { return m_training; }
    views::IncidentPanel* incidentPanel() const { return m_incidentPanel; }
    /// Starts fine-tune rounds with the editor's reward on the open trace (needs a project).
    bool startTraining(const views::TrainRequest& request);
    /// Runs the rounds ("learned:CHECKPOINT") next to the checked baselines, in the mode and on the
    /// trace the first of them was trained on (reopening that trace when another one is open).
    void showRoundsOnDashboard(const std::vector<std::string>& rounds);
    /// Off for unattended use (tests, --screenshot): never ask before discarding unsaved runs.
    void setInteractive(bool on) { m_interactive = on; }

signals:
    /// An import started by openTrace() ended: the trace is shown, or it failed / was cancelled.
    void traceOpened(bool ok, const QString& error);
    /// All runs of the last batch are done (or it was cancelled / failed).
    void batchDone();
    /// Training stopped (finished, cancelled or failed).
    void trainingDone();
    /// The stored runs checked in the Runs dock are all read (they load in the background).
    void storedRunsLoaded();
    /// The replica policy's training stopped (ok: every round finished).
    void scalerTrainingFinished(bool ok);

public:
    /// Uses the KubeSchedulerConfiguration at `path` for k8s-default / k8s-sampling runs (empty:
    /// the built-in defaults); remembered. False (and an error shown) when it does not parse.
    bool setSchedulerConfig(const QString& path);
    QString schedulerConfigLabel() const;
    /// Writes a sweep plan (docs/sweeps.md) of the open trace, the checked policies and seeds and
    /// the dock's options in `shards` shards (main_window_sweep.cpp); false with an error shown.
    bool planSweep(const QString& path, int shards);
    /// Writes a sweep plan of training cells: the Training tab's settings, one fine-tune lineage
    /// per weight vector of `weights` (the Reward dock's text, ranges allowed: "balance=0.2:0.6:0.2").
    bool planTrainingSweep(const QString& path, int shards, const QString& weights);
    /// The mode and options the Policies dock sets (no policy, no seed).
    sim::RunSpec baseSpec() const;
    /// Shows a sweep plan in the Sweeps tab and follows its shard files; false with an error shown.
    bool openSweep(const QString& path);
    /// Opens a sweep cell on the dashboard: from the project when merged, else after merging the
    /// finished cells into the open project (main_window_sweep.cpp).
    void openSweepCell(int cell);
    views::SweepView* sweepView() const { return m_sweepView; }
    /// The Autoscaling tab on a load file (and a service file; a null string keeps the current
    /// one), replaying it when `run` (main_window_autoscale.cpp).
    void openAutoscaleLoad(const QString& loadPath, const QString& servicePath = QString(), bool run = false);
    views::AutoscaleView* autoscaleView() const { return m_autoscaleView; }
    views::ScalerTrainingPanel* scalerPanel() const { return m_scalerPanel; }
    /// Trains the replica policy's rounds on the Autoscaling tab's load (false with the reason in
    /// the panel when it cannot start; scalerTrainingFinished when done).
    bool startScalerTraining(const views::ScalerTrainRequest& request);
    AutoscaleController* autoscaleController() const { return m_autoscale; }
    SweepController* sweepController() const { return m_sweeps; }

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildDocks();
    void buildMenus();
    void chooseTrace();
    /// File > Import Folder: every file under it a format claims (a kubectl dump with its logs).
    void chooseTraceFolder();
    // main_window_scheduler_config.cpp: the Policies dock's KubeSchedulerConfiguration row.
    QWidget* buildSchedulerConfigRow(QWidget* parent);
    /// Timed mode's "making room" choices: preemption and migration (main_window_runs.cpp).
    QWidget* buildRoomRow(QWidget* parent);
    /// Fill experiment selected, or "auto" on a trace without times.
    bool fillModeChosen() const;
    void updateModeControls();
    // main_window_mode.cpp: auto's choice and its reason, the mode remembered per trace, the window.
    void buildModeStatus();
    QString traceModeKey() const;
    void rememberMode();
    /// The open trace's load profile: auto's choice, the overview strip, the time axes' origin.
    void applyTraceProfile();
    void updateModeStatus();
    /// The overview strip's window for timed replays (none: the whole trace).
    std::optional<trace::TimeSpan> replayWindow() const;
    void applyTrace(std::shared_ptr<const trace::LoadedTrace> loaded, const std::vector<std::string>& paths);
    void showError(const QString& text);
    void onRunFinished(const views::RunResult& r);
    void refreshDashboard();
    void exportDashboard(const QString& kind);
    void updateTitle();
    /// Adds the run's row to the run list; `before` = the id of the row it goes in front of (-1 = last).
    void addRunItem(const views::RunResult& r, bool checked, int before = -1);
    void loadStoredRun(QListWidgetItem* item);
    /// A stored run's item in the Runs dock (unchecked, not loaded).
    QListWidgetItem* addStoredRunItem(const store::RunRow& row);
    /// Items for the project's runs the Runs dock does not list yet (after a merge); their count.
    int appendNewStoredRuns();
    void buildSweepTab();
    /// Builds and writes a sweep plan and shows it in the Sweeps tab; nullopt with the error shown.
    std::optional<store::SweepPlan> writeSweep(const store::SweepSpec& spec, const QString& path);
    void buildAutoscaleTab();
    void fillRecentMenu();
    void refreshRounds();
    void loadProjectSettings();
    /// Asks Save / Discard / Cancel when runs are unsaved; false = the user cancelled.
    bool confirmDiscard();

    views::DashboardWidget* m_dashboard = nullptr;
    views::TraceOverviewWidget* m_overview = nullptr;
    QLabel* m_modeNote = nullptr;      ///< status bar: what runs and why
    QPushButton* m_modeSwitch = nullptr; ///< status bar: the other mode in one click
    bool m_autoFill = false;           ///< what "auto" runs on the open trace
    QString m_autoReason;
    views::ComparisonWidget* m_comparison = nullptr;
    QTabWidget* m_tabs = nullptr;
    views::JobTableModel* m_jobs = nullptr;
    QSortFilterProxyModel* m_jobsProxy = nullptr;
    views::TraceSummaryView* m_summary = nullptr;
    QListWidget* m_policyList = nullptr;
    QListWidget* m_runList = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_queue = nullptr;
    QComboBox* m_backfill = nullptr;
    QComboBox* m_head = nullptr;
    QComboBox* m_preemption = nullptr;
    QComboBox* m_migration = nullptr;
    QCheckBox* m_trim = nullptr;
    QLineEdit* m_seeds = nullptr;
    QPushButton* m_schedulerConfigButton = nullptr;
    std::string m_schedulerConfig; ///< KubeSchedulerConfiguration YAML for k8s-default; empty = built-in
    QDoubleSpinBox* m_ratio = nullptr; ///< fill experiments' inflation ratio
    QWidget* m_swfRow = nullptr; ///< SWF traces: processors per node + reload
    QSpinBox* m_procsPerNode = nullptr;
    QLabel* m_banner = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_status = nullptr;
    RunController* m_runner = nullptr;
    ImportController* m_importer = nullptr;
    JobTracker* m_storedLoads = nullptr; ///< stored runs read in the background
    std::shared_ptr<const trace::Trace> m_trace;
    QString m_traceName;
    std::vector<views::RunResult> m_results;
    std::size_t m_batchFrom = 0; ///< index in m_results where the running batch's runs begin
    std::vector<std::string> m_tracePaths;
    ProjectSession m_session;
    QMenu* m_recentMenu = nullptr;
    bool m_interactive = true;
    views::RewardEditor* m_reward = nullptr;
    views::TrainingPanel* m_training = nullptr;
    TrainingController* m_trainer = nullptr;
    views::IncidentPanel* m_incidentPanel = nullptr;
    IncidentController* m_incidents = nullptr;
    views::SweepView* m_sweepView = nullptr;
    SweepController* m_sweeps = nullptr;
    views::AutoscaleView* m_autoscaleView = nullptr;
    AutoscaleController* m_autoscale = nullptr;
    QWidget* m_autoscaleTab = nullptr; ///< the view and the training panel
    views::ScalerTrainingPanel* m_scalerPanel = nullptr;
    ScalerTrainingController* m_scalerTrainer = nullptr;
    QUndoGroup* m_undoGroup = nullptr; ///< the reward editor of the shown tab
    int m_pendingSweepCell = -1; ///< opened once the merge it waits for is done
    bool m_loadingSettings = false;
    int m_lastTab = 0; ///< the tab whose dock visibility is saved when another is shown
    int m_nextLoadedId = 1'000'000;
    QString m_noGpuNote; ///< what applyTrace switched for a GPU-less trace, for the status line ///< session ids of runs loaded from the project
};

} // namespace schedlab::app
