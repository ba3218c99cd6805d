#pragma once
// Runs a batch of replays off the GUI thread (JobTracker), at most two at once, with progress,
// cancel, and stale results dropped when a newer batch replaces a running one. Every run is
// workflow::execute() of one spec (what schedlab-cli replay runs too), recorded with its
// decisions and state journal, so a saved run stores what the CLI would have stored.

#include "job_tracker.h"
#include "run_result.h"

#include "sim/run_spec.h"
#include "trace/trace.h"

#include <QObject>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::app {

/// What to run: every policy x seed, each as `spec` with that policy and seed.
struct RunBatch {
    std::shared_ptr<const trace::Trace> trace;
    sim::RunSpec spec; ///< mode and options; policy and seed are set per run
    std::vector<std::string> policies;
    std::vector<uint64_t> seeds { 42 };
};

/// The legend label of a run: "fgd #42", "learned round-3 #42" for "learned:/path/round-3.slq".
std::string runLabel(const std::string& policy, uint64_t seed);

/// Runs are independent (each has its own cluster state, RNG and trackers), so a batch runs up to
/// two at once; results arrive in completion order.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    /// Starts a batch; a batch still running is cancelled and its results are dropped.
    void start(const RunBatch& batch);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    /// Overall progress of the batch, 0..1, and a short text ("2 of 6 runs, 2 running").
    void progress(double fraction, const QString& what);
    void runFinished(const schedlab::views::RunResult& result);
    /// The batch is over: completed, cancelled (not an error) or failed with a message.
    void batchFinished(bool cancelled, const QString& error);

private:
    void launchMore();
    void launch(std::size_t index);
    void reportProgress();
    JobTracker m_jobs;
    RunBatch m_batch;
    std::size_t m_next = 0;
    std::vector<double> m_fractions; ///< progress of each run of the batch
    std::optional<QString> m_error; ///< first failure of the batch
    /// Replays at once (the machine's cores, at most 2: each replay is single-threaded).
    int m_parallel = 2;
    bool m_running = false;
    int m_nextId = 1;
};

} // namespace schedlab::app
