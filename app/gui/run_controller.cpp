#include "run_controller.h"

#include "policy/placement_policy.h"
#include "rl/learned_policy.h"
#include "sim/fill_experiment.h"

#include <QFileInfo>
#include <QPointer>
#include <QThread>

#include <algorithm>
#include <QtConcurrent>

namespace schedlab::app {

namespace {
struct Outcome {
    views::RunResult result;
    std::optional<Error> error;
};
} // namespace

RunController::RunController(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<views::RunResult>();
}

RunController::~RunController() { m_cancel.cancel(); }

void RunController::start(const RunBatch& batch)
{
    if (m_running)
        m_cancel.cancel();
    m_cancel = CancelToken {};
    ++m_generation;
    m_batch = batch;
    m_next = 0;
    m_active = 0;
    m_error.reset();
    m_fractions.assign(batch.policies.size() * batch.seeds.size(), 0.0);
    m_parallel = std::clamp(QThread::idealThreadCount(), 1, 2);
    m_running = true;
    launchMore();
}

void RunController::cancel()
{
    if (!m_running)
        return;
    m_cancel.cancel();
}

void RunController::reportProgress()
{
    double sum = 0;
    for (double f : m_fractions)
        sum += f;
    const std::size_t total = m_fractions.size();
    emit progress(total ? sum / double(total) : 1.0,
        tr("%1 of %2 runs, %3 running").arg(std::count(m_fractions.begin(), m_fractions.end(), 1.0)).arg(total).arg(m_active));
}

void RunController::launchMore()
{
    const std::size_t total = m_fractions.size();
    while (m_active < m_parallel && m_next < total && !m_error && !m_cancel.isCancelled())
        launch(m_next++);
    if (m_active == 0) {
        m_running = false;
        emit batchFinished(m_cancel.isCancelled() && !m_error, m_error.value_or(QString()));
    }
}

void RunController::launch(std::size_t index)
{
    ++m_active;
    const std::string policyName = m_batch.policies[index / m_batch.seeds.size()];
    const uint64_t seed = m_batch.seeds[index % m_batch.seeds.size()];
    const uint64_t generation = m_generation;
    const RunBatch batch = m_batch; // copied before launch: the worker never touches members
    const CancelToken cancel = m_cancel;
    const int id = m_nextId++;
    reportProgress();

    QPointer<RunController> self(this);
    // Throttled progress from the worker, delivered on the GUI thread.
    ProgressFn onProgress = [self, generation, index](double f) {
        QMetaObject::invokeMethod(
            self,
            [self, generation, index, f] {
                if (self && self->m_generation == generation && index < self->m_fractions.size()) {
                    self->m_fractions[index] = std::min(f, 0.999);
                    self->reportProgress();
                }
            },
            Qt::QueuedConnection);
    };
    auto future = QtConcurrent::run([batch, policyName, seed, cancel, onProgress, id]() -> Outcome {
        Outcome out;
        out.result.id = id;
        out.result.policy = policyName;
        out.result.seed = seed;
        out.result.label = policyName + " #" + std::to_string(seed);
        if (rl::isModelPolicy(policyName)) // "learned:/path/round-3.slq" shows as "learned round-3"
            out.result.label = policyName.substr(0, policyName.find(':')) + " "
                + QFileInfo(QString::fromStdString(policyName.substr(policyName.find(':') + 1))).completeBaseName().toStdString()
                + " #" + std::to_string(seed);
        auto made = rl::makeAnyPolicy(policyName);
        if (!made) {
            out.error = made.error();
            return out;
        }
        std::unique_ptr<policy::PlacementPolicy> policy = std::move(made).value();
        if (batch.fill) {
            sim::FillOptions o;
            o.seed = seed;
            o.ratio = batch.ratio;
            o.recordDecisions = false; // no view shows decisions yet
            auto r = sim::runFillExperiment(*batch.trace, *policy, o, onProgress, cancel);
            if (!r)
                out.error = r.error();
            else
                out.result.fill = std::make_shared<const sim::FillResult>(std::move(r).value());
        } else {
            sim::TimedOptions o;
            o.seed = seed;
            o.queue = batch.queue;
            o.backfill = batch.backfill;
            o.recordDecisions = false;
            auto r = sim::runTimedReplay(*batch.trace, *policy, o, onProgress, cancel);
            if (!r)
                out.error = r.error();
            else
                out.result.timed = std::make_shared<const sim::TimedResult>(std::move(r).value());
        }
        return out;
    });
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, index] {
        const Outcome out = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer batch replaced this one
        --m_active;
        if (out.error) {
            if (!out.error->isCancelled() && !m_error) {
                m_error = QString::fromStdString(out.error->toString());
                m_cancel.cancel(); // stop the sibling run: the batch failed
            }
        } else {
            m_fractions[index] = 1.0;
            emit runFinished(out.result);
        }
        launchMore();
    });
    watcher->setFuture(future);
}

} // namespace schedlab::app
