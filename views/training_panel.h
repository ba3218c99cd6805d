#pragma once
// Training panel: start fine-tune rounds (mode, window, episodes, learning rate, parent round,
// baselines; timed: making room and safety budgets), progress and cancel, live curves (loss with
// its min/max envelope per episode, episode return raw and smoothed; with budgets each
// constraint's value against its budget and its Lagrange multiplier), and the round lineage as a
// tree by parent (rounds whose evaluation ended over a budget marked). Selecting rounds
// and "Show on dashboard" asks for them to be replayed next to the checked baselines.
// The panel only collects input and shows state; app/ runs the training off the GUI thread.

#include "rl/dqn_trainer.h"
#include "store/project.h"

#include <QWidget>

#include <map>
#include <vector>

class QFormLayout;
class QCheckBox;
class QCustomPlot;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace schedlab::views {

/// What the user asked to train.
struct TrainRequest {
    sim::RunMode mode = sim::RunMode::Fill;
    double windowH = 4, fromH = 0;
    int64_t pods = 0; ///< fill: pods per episode, 0 = all
    int episodes = 3;
    int rounds = 1;
    double learningRate = 1e-3;
    double gamma = 0.9;
    bool allowWait = false; ///< timed: the agent may hold a job (at most 8 times in a row)
    bool skip = false; ///< timed: the agent may pass over jobs (at most 16 a scheduling pass)
    int64_t parentRound = -1; ///< -1 = fresh
    uint64_t seed = 1000; ///< round i of a session trains on seeds seed + i x episodes (as schedlab-cli train --seed)
    std::vector<std::string> baselines;
    std::vector<uint64_t> evalSeeds { 42, 43, 44 };
    std::string teacher; ///< non-empty: a pre-training round imitating this heuristic comes first
    bool keepTeacher = false; ///< the DQN rounds keep a margin loss toward the teacher (TrainOptions::teacherLoss)
    std::vector<uint64_t> validationSeeds; ///< each round keeps its best episode on these seeds (timed: p99 wait, training window)
    double blend = 1.0; ///< each DQN round ends with (1 - blend) x its start + blend x its tuned weights (WiSE-FT)
    /// Timed: the agent may make room (it decides each offer) and budgets kept by multipliers.
    sim::Migration migration = sim::Migration::None;
    sim::Preemption preemption = sim::Preemption::None;
    rl::Constraints constraints;
};

class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPanel(QWidget* parent = nullptr);
    TrainRequest request() const;
    /// Shows the project's rounds (lineage tree, parent choices).
    /// `evaluation`: per round, its stored evaluation (round_eval rows) shown as the key metric of its
    /// mode for the learned policy and each baseline (means over the evaluation seeds).
    /// `overBudget`: per round, the constraints its evaluation ended over (rl::overBudget).
    void setRounds(const std::vector<store::RoundRow>& rounds, const std::map<int64_t, std::vector<store::EvalValue>>& evaluation = {},
        const std::map<int64_t, std::vector<std::string>>& overBudget = {});
    /// "final GPU allocation %: learned 91.84, bestfit 93.08, fgd 95.49" (empty without values).
    static QString evaluationText(store::RoundKind kind, const std::vector<store::EvalValue>& values, bool allMetrics = false);
    /// A finished training episode of the running batch (round index 1-based within the batch).
    void addEpisode(int round, const rl::EpisodeStats& s);
    void clearCurves();
    void setRunning(bool running);
    void setMode(sim::RunMode mode);
    /// Rounds are stored in a project: without one, Start is off and its tooltip says why.
    void setProjectOpen(bool open);
    void setProgress(double fraction, const QString& text);
    /// Smoothed episode return (exponential moving average, alpha 0.3), as plotted.
    static std::vector<double> smooth(const std::vector<double>& values, double alpha = 0.3);

    QCustomPlot* curves() const { return m_plot; }
    /// Constraint values, budgets (dashed) and multipliers (right axis); hidden without budgets.
    QCustomPlot* constraintPlot() const { return m_constraintPlot; }
    QComboBox* roomBox() const { return m_room; }
    QLineEdit* budgetsEdit() const { return m_budgets; }
    QTreeWidget* lineage() const { return m_tree; }
    QPushButton* startButton() const { return m_start; }
    QSpinBox* episodesBox() const { return m_episodes; }
    QSpinBox* podsBox() const { return m_pods; }
    QComboBox* modeBox() const { return m_mode; }
    QComboBox* teacherBox() const { return m_teacher; }
    QCheckBox* keepTeacherBox() const { return m_keepTeacher; }
    QLineEdit* validationEdit() const { return m_validation; }
    QCheckBox* waitBox() const { return m_wait; }
    QCheckBox* skipBox() const { return m_skip; }
    QDoubleSpinBox* blendBox() const { return m_blend; }
    /// Checkpoints of the selected finished rounds.
    std::vector<std::string> selectedCheckpoints() const;

signals:
    void startRequested(const schedlab::views::TrainRequest& request);
    void cancelRequested();
    /// Replay these model policies ("learned:PATH") on the open trace.
    void showOnDashboard(const std::vector<std::string>& policies);

private:
    void buildRunRows(QWidget* left, QFormLayout* form);
    void buildTeacherRows(QWidget* left, QFormLayout* form);
    void buildTimedRows(QWidget* left, QFormLayout* form);
    void buildButtons(QWidget* left, QFormLayout* form);
    QWidget* buildCurves();
    void replotCurves();
    void replotConstraints();
    QComboBox* m_mode = nullptr;
    QDoubleSpinBox* m_window = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QSpinBox* m_pods = nullptr;
    QSpinBox* m_episodes = nullptr;
    QSpinBox* m_rounds = nullptr;
    QDoubleSpinBox* m_lr = nullptr;
    QDoubleSpinBox* m_gamma = nullptr;
    QComboBox* m_parent = nullptr;
    QComboBox* m_teacher = nullptr;
    QCheckBox* m_keepTeacher = nullptr;
    QLineEdit* m_validation = nullptr;
    QDoubleSpinBox* m_blend = nullptr;
    QCheckBox* m_wait = nullptr;
    QCheckBox* m_skip = nullptr;
    QComboBox* m_room = nullptr;
    QLineEdit* m_budgets = nullptr;
    QCustomPlot* m_constraintPlot = nullptr;
    QLineEdit* m_baselines = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTreeWidget* m_tree = nullptr;
    std::vector<rl::EpisodeStats> m_episodesSeen;
    bool m_running = false;
    bool m_projectOpen = true; ///< set by the window (setProjectOpen); true standalone
    bool m_parentPicked = false; ///< the user chose a parent; otherwise the newest round is the default
};

} // namespace schedlab::views

Q_DECLARE_METATYPE(schedlab::views::TrainRequest)
Q_DECLARE_METATYPE(schedlab::rl::EpisodeStats)
