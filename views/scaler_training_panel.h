#pragma once
// The Autoscaling tab's training panel: the replica policy's reward editor, fine-tune rounds
// (training span, evaluation span on later load, episodes, rounds, parent, baselines), progress and
// cancel, the episode curve (mean reward, replica-hours), and the project's replica-policy rounds
// as a lineage (round_lineage.h). "Use round" puts a round's checkpoint in the tab as `learned`.
// It only collects input and shows state; app/ScalerTrainingController trains off the GUI thread.

#include "autoscale/learned_scaler.h"
#include "store/project.h"

#include <QWidget>

#include <map>
#include <vector>

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace schedlab::views {

class ScalerRewardEditor;

/// What the user asked to train (hours as shown).
struct ScalerTrainRequest {
    autoscale::ScalerReward reward;
    double trainFromH = 0, trainHours = 24;
    double evalFromH = -1; ///< -1 = right after training
    double evalHours = 0; ///< 0 = to the end of the load
    int episodes = 3, rounds = 1;
    double gamma = 0.9;
    int64_t parentRound = -1; ///< -1 = a fresh network
    std::vector<std::string> baselines;
};

class ScalerTrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScalerTrainingPanel(QWidget* parent = nullptr);
    ScalerTrainRequest request() const;
    /// The project's rounds; only replica-policy rounds (mode "autoscale") are shown.
    void setRounds(const std::vector<store::RoundRow>& rounds, const std::map<int64_t, std::vector<store::EvalValue>>& evaluation);
    void addEpisode(int round, const autoscale::ScalerEpisode& e);
    void clearCurves();
    void setRunning(bool running);
    void setProjectOpen(bool open);
    void setProgress(double fraction, const QString& text);
    void showMessage(const QString& text, bool error);

    ScalerRewardEditor* rewardEditor() const { return m_reward; }
    QTreeWidget* lineage() const { return m_tree; }
    QPushButton* trainButton() const { return m_train; }
    QSpinBox* episodesBox() const { return m_episodes; }
    QSpinBox* roundsBox() const { return m_rounds; }
    QDoubleSpinBox* trainFromBox() const { return m_trainFrom; }
    QDoubleSpinBox* trainHoursBox() const { return m_trainHours; }
    QComboBox* parentBox() const { return m_parent; }
    QCustomPlot* curves() const { return m_plot; }
    QString messageText() const;

signals:
    void trainRequested(const schedlab::views::ScalerTrainRequest& request);
    void cancelRequested();
    /// Use this checkpoint as the tab's learned policy.
    void useCheckpoint(const QString& path);

private:
    void replot();
    ScalerRewardEditor* m_reward = nullptr;
    QDoubleSpinBox *m_trainFrom = nullptr, *m_trainHours = nullptr, *m_evalFrom = nullptr, *m_evalHours = nullptr, *m_gamma = nullptr;
    QSpinBox *m_episodes = nullptr, *m_rounds = nullptr;
    QComboBox* m_parent = nullptr;
    QLineEdit* m_baselines = nullptr;
    QPushButton *m_train = nullptr, *m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_message = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTreeWidget* m_tree = nullptr;
    std::vector<autoscale::ScalerEpisode> m_seen;
    bool m_running = false, m_projectOpen = true, m_parentPicked = false;
};

} // namespace schedlab::views

Q_DECLARE_METATYPE(schedlab::views::ScalerTrainRequest)
Q_DECLARE_METATYPE(schedlab::autoscale::ScalerEpisode)
