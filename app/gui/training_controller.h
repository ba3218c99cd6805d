#pragma once
// Runs fine-tune rounds off the GUI thread (QtConcurrent): each round opens its own connection
// to the project file (WAL lets the GUI keep reading), continues from the previous round's
// checkpoint, and reports episodes, finished rounds and progress on the GUI thread. Cancel is
// its own outcome; a cancelled or failed round is marked so in the project and leaves its parent.

#include "training_panel.h"

#include "base/progress.h"
#include "rl/reward.h"
#include "trace/trace.h"

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

class TrainingController : public QObject {
    Q_OBJECT
public:
    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;
    void start(const TrainingJob& job);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void episode(int round, const schedlab::rl::EpisodeStats& stats);
    void roundFinished(qlonglong roundId);
    void progress(double fraction, const QString& text);
    void finished(bool cancelled, const QString& error);

private:
    CancelToken m_cancel;
    bool m_running = false;
};

} // namespace schedlab::app
