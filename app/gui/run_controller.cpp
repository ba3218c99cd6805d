#include "run_controller.h"

#include "policy/placement_policy.h"
#include "sim/fill_experiment.h"

#include <QPointer>
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
    m_running = true;
    runNext();
}

void RunController::cancel()
{
    if (!m_running)
        return;
    m_cancel.cancel();
}

void RunController::runNext()
{
    const std::size_t total = m_batch.policies.size() * m_batch.seeds.size();
    if (m_next >= total) {
        m_running = false;
        emit batchFinished(false, {});
        return;
    }
    const std::size_t index = m_next++;
    const std::string policyName = m_batch.policies[index / m_batch.seeds.size()];
    const uint64_t seed = m_batch.seeds[index % m_batch.seeds.size()];
    const uint64_t generation = m_generation;
    const RunBatch batch = m_batch; // copied before launch: the worker never touches members
    const CancelToken cancel = m_cancel;
    const int id = m_nextId++;
    emit progress(double(index) / double(total), QString::fromStdString(policyName + " seed " + std::to_string(seed)));

    QPointer<RunController> self(this);
    // Throttled progress from the worker, delivered on the GUI thread.
    ProgressFn onProgress = [self, generation, index, total, policyName, seed](double f) {
        QMetaObject::invokeMethod(
            self,
            [self, generation, index, total, policyName, seed, f] {
                if (self && self->m_generation == generation)
                    emit self->progress((double(index) + f) / double(total),
                        QString::fromStdString(policyName + " seed " + std::to_string(seed)));
            },
            Qt::QueuedConnection);
    };
    auto future = QtConcurrent::run([batch, policyName, seed, cancel, onProgress, id]() -> Outcome {
        Outcome out;
        out.result.id = id;
        out.result.policy = policyName;
        out.result.seed = seed;
        out.result.label = policyName + " #" + std::to_string(seed);
        auto policy = policy::makePlacementPolicy(policyName);
        if (!policy) {
            out.error = makeError(ErrorCode::Invalid, "unknown policy " + policyName);
            return out;
        }
        if (batch.fill) {
            sim::FillOptions o;
            o.seed = seed;
            o.ratio = batch.ratio;
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
            auto r = sim::runTimedReplay(*batch.trace, *policy, o, onProgress, cancel);
            if (!r)
                out.error = r.error();
            else
                out.result.timed = std::make_shared<const sim::TimedResult>(std::move(r).value());
        }
        return out;
    });
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation] {
        const Outcome out = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer batch replaced this one
        if (out.error) {
            m_running = false;
            emit batchFinished(out.error->isCancelled(), out.error->isCancelled() ? QString()
                                                                                  : QString::fromStdString(out.error->toString()));
            return;
        }
        emit runFinished(out.result);
        runNext();
    });
    watcher->setFuture(future);
}

} // namespace schedlab::app
