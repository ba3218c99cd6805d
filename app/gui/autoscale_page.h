#pragma once
// The Autoscaling tab: a request load replayed under replica policies (AutoscaleView, run by
// AutoscaleController; runs stored in the open project) and, beside it, the replica policy's
// training (ScalerTrainingPanel, ScalerTrainingController; rounds stored in the open project).

#include "autoscale_controller.h"
#include "autoscale_view.h"
#include "project_session.h"
#include "scaler_training_controller.h"
#include "scaler_training_panel.h"

#include <QWidget>

namespace schedlab::app {

class AutoscalePage : public QWidget {
    Q_OBJECT
public:
    /// Runs and rounds go to `session`'s project (not owned; outlives the page).
    explicit AutoscalePage(ProjectSession* session, QWidget* parent = nullptr);
    views::AutoscaleView* view() const { return m_view; }
    views::ScalerTrainingPanel* trainingPanel() const { return m_panel; }
    AutoscaleController* controller() const { return m_autoscale; }
    /// Shows a load file (and a service file; a null string keeps the current one), replaying it when `run`.
    void openLoad(const QString& loadPath, const QString& servicePath, bool run);
    /// Trains the replica policy's rounds on the tab's load; false with the reason in the panel.
    bool startTraining(const views::ScalerTrainRequest& request);
    /// Lists the project's rounds (the panel keeps the replica policy's) again.
    void refreshRounds();

signals:
    /// The replica policy's training stopped (ok: every round finished).
    void trainingFinished(bool ok);
    void errorOccurred(const QString& text);

private:
    void buildTraining();

    ProjectSession* m_session;
    views::AutoscaleView* m_view = nullptr;
    AutoscaleController* m_autoscale = nullptr;
    views::ScalerTrainingPanel* m_panel = nullptr;
    ScalerTrainingController* m_trainer = nullptr;
};

} // namespace schedlab::app
