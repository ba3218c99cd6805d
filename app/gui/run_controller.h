#pragma once
// Runs replays off the GUI thread (QtConcurrent), one after another, with throttled progress,
// cancel, and a generation counter so results of a superseded batch are dropped. Results arrive
// on the GUI thread as immutable RunResults.

#include "run_result.h"

#include "base/progress.h"
#include "policy/queue_policy.h"
#include "sim/timed_replay.h"
#include "trace/trace.h"

#include <QObject>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::app {

/// What to run: every policy x seed in one mode.
struct RunBatch {
    std::shared_ptr<const trace::Trace> trace;
    bool fill = false;
    std::vector<std::string> policies;
    std::vector<uint64_t> seeds { 42 };
    policy::QueueOrder queue = policy::QueueOrder::Fcfs;
    sim::Backfill backfill = sim::Backfill::Easy;
    double ratio = 1.3;
};

/// Runs are independent (each has its own cluster state, RNG and trackers), so a batch runs up to
/// two at once; results arrive in completion order.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;
    /// Starts a batch; a batch still running is cancelled and its results are dropped.
    void start(const RunBatch& batch);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    /// Overall progress of the batch, 0..1, and a short text ("fgd seed 42").
    void progress(double fraction, const QString& what);
    void runFinished(const schedlab::views::RunResult& result);
    /// The batch is over: completed, cancelled (not an error) or failed with a message.
    void batchFinished(bool cancelled, const QString& error);

private:
    void launchMore();
    void launch(std::size_t index);
    void reportProgress();
    RunBatch m_batch;
    std::size_t m_next = 0;
    int m_active = 0;
    std::vector<double> m_fractions; ///< progress of each run of the batch
    std::optional<QString> m_error; ///< first failure of the batch
    /// Replays at once (the machine's cores, at most 2: each replay is single-threaded).
    int m_parallel = 2;
    uint64_t m_generation = 0;
    CancelToken m_cancel;
    bool m_running = false;
    int m_nextId = 1;
};

} // namespace schedlab::app

