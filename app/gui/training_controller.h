#pragma once
// Runs a fine-tune session off the GUI thread (JobTracker): workflow::runSession, the loop
// schedlab-cli train runs, with the same seed rule. The worker opens its own connection to the
// project file (WAL lets the GUI keep reading); episodes, finished rounds and progress arrive on
// the GUI thread. Cancel is its own outcome; a cancelled or failed round is marked so in the
// project and leaves its parent.

#include "job_tracker.h"
#include "training_panel.h"

#include "rl/reward.h"
#include "trace/trace.h"
#include "workflow/fine_tune_session.h"

#include <QObject>

#include <memory>
#include <string>
#include <vector>

namespace schedlab::app {

struct TrainingJob {
    views::TrainRequest request;
    rl::RewardConfig reward;
    std::shared_ptr<const trace::Trace> trace;
    std::vector<std::string> traceFiles;
    std::string projectPath;
};

/// The session a request describes (checkpoints in `checkpointDir`; the parent round resolved
/// later, against the project).
workflow::SessionOptions sessionOptionsOf(const views::TrainRequest& request, const rl::RewardConfig& reward, const std::string& checkpointDir);

class TrainingController : public QObject {
    Q_OBJECT
public:
    explicit TrainingController(QObject* parent = nullptr);
    void start(const TrainingJob& job);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void episode(int round, const schedlab::rl::EpisodeStats& stats);
    void roundFinished(qlonglong roundId);
    void progress(double fraction, const QString& text);
    void finished(bool cancelled, const QString& error);

private:
    JobTracker m_jobs;
};

} // namespace schedlab::app
