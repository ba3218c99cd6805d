#pragma once
// The Training tab: fine-tune rounds of the learned placement policy on the open trace
// (TrainingPanel, run off the GUI thread by TrainingController), stored in the open project with
// their curves; the reward weights come from the Reward dock's editor and are kept in the project.

#include "project_session.h"
#include "training_panel.h"

#include "store/sweep_plan.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::views {
class RewardEditor;
}

namespace schedlab::app {

class TrainingController;

class TrainingPage : public QWidget {
    Q_OBJECT
public:
    /// Rounds go to `session`'s project; `reward` is the Reward dock's editor (neither owned; both
    /// outlive the page).
    TrainingPage(ProjectSession* session, views::RewardEditor* reward, QWidget* parent = nullptr);
    views::TrainingPanel* panel() const { return m_panel; }
    /// The trace rounds train on, and its files (stored with the rounds).
    void setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths);
    /// Starts fine-tune rounds with the editor's reward; false (errorOccurred) when it cannot.
    bool start(const views::TrainRequest& request);
    void cancel();
    /// Lists the project's placement rounds (lineage, evaluation, budgets) again.
    void refreshRounds();
    /// Shows the reward weights the open project keeps (the defaults when it keeps none).
    void loadRewardSetting();
    /// Keeps the editor's reward weights in the open project.
    void storeRewardSetting();
    /// For a trace without GPUs: timed training. False when it was timed already.
    bool switchToTimed();
    /// A sweep plan's spec of training cells on the open trace: this tab's settings and one
    /// lineage per weight vector of `weights` (ranges allowed), on `base` (the Policies dock's
    /// spec; its fill ratio for fill training), in `shards` shards. Nullopt with errorOccurred.
    std::optional<store::SweepSpec> sweepSpec(const QString& weights, const sim::RunSpec& base, double fillRatio, int shards);

signals:
    /// "Show on dashboard" with these rounds ("learned:CHECKPOINT").
    void showOnDashboard(const std::vector<std::string>& rounds);
    /// Training stopped (finished, cancelled or failed).
    void finished();
    void statusMessage(const QString& text);
    void errorOccurred(const QString& text);
    /// Training started: an earlier error no longer applies.
    void errorCleared();

private:
    bool canStart(const views::TrainRequest& request);
    void showStoredCurves();

    ProjectSession* m_session;
    views::RewardEditor* m_reward;
    views::TrainingPanel* m_panel = nullptr;
    TrainingController* m_trainer = nullptr;
    std::shared_ptr<const trace::Trace> m_trace;
    std::vector<std::string> m_tracePaths;
    bool m_loadingSettings = false;
};

} // namespace schedlab::app
