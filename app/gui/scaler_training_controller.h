#pragma once
// Trains the replica policy's fine-tune rounds off the GUI thread (JobTracker): the Autoscaling
// tab's load and service file read on a worker, workflow::runScalerSession into the open project
// (its own connection; WAL lets the GUI keep reading), checkpoints in "<project>.models". Episodes,
// finished rounds and progress arrive on the GUI thread; cancel is its own outcome and leaves the
// rounds finished before it.

#include "job_tracker.h"

#include "scaler_training_panel.h"

#include "workflow/scaler_rounds.h"

#include <QObject>

namespace schedlab::app {

struct ScalerTrainingJob {
    views::ScalerTrainRequest request;
    QString loadPath, servicePath, projectPath;
};

/// The rounds' options a request describes (hours to seconds; checkpoints in `checkpointDir`).
workflow::ScalerRoundOptions scalerRoundOptionsOf(const ScalerTrainingJob& job, const std::string& checkpointDir);

class ScalerTrainingController : public QObject {
    Q_OBJECT
public:
    explicit ScalerTrainingController(QObject* parent = nullptr);
    void start(const ScalerTrainingJob& job);
    void cancel() { m_jobs.cancel(); }
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void episode(int round, const schedlab::autoscale::ScalerEpisode& e);
    void roundFinished(qlonglong roundId, const QString& summary);
    void progress(double fraction, const QString& text);
    void finished(bool cancelled, const QString& error);

private:
    JobTracker m_jobs;
};

} // namespace schedlab::app
