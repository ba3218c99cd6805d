#include "run_controller.h"

#include "policy/k8s_scheduler_config.h"
#include "rl/learned_policy.h"
#include "workflow/execute.h"

#include <QFileInfo>
#include <QThread>

#include <algorithm>

namespace schedlab::app {

std::string runLabel(const std::string& policy, uint64_t seed)
{
    if (!rl::isModelPolicy(policy))
        return policy + " #" + std::to_string(seed);
    const auto colon = policy.find(':');
    return policy.substr(0, colon) + " " + QFileInfo(QString::fromStdString(policy.substr(colon + 1))).completeBaseName().toStdString()
        + " #" + std::to_string(seed);
}

RunController::RunController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
    qRegisterMetaType<views::RunResult>();
}

void RunController::start(const RunBatch& batch)
{
    m_jobs.reset(); // a running batch is cancelled; its results are dropped
    m_batch = batch;
    m_next = 0;
    m_error.reset();
    m_fractions.assign(batch.policies.size() * batch.seeds.size(), 0.0);
    m_parallel = std::clamp(QThread::idealThreadCount(), 1, 2);
    m_running = true;
    launchMore();
}

void RunController::cancel()
{
    if (m_running)
        m_jobs.cancel();
}

void RunController::reportProgress()
{
    double sum = 0;
    for (double f : m_fractions)
        sum += f;
    const std::size_t total = m_fractions.size();
    emit progress(total ? sum / double(total) : 1.0,
        tr("%1 of %2 runs, %3 running").arg(std::count(m_fractions.begin(), m_fractions.end(), 1.0)).arg(total).arg(m_jobs.active()));
}

void RunController::launchMore()
{
    while (m_jobs.active() < m_parallel && m_next < m_fractions.size() && !m_error && !m_jobs.isCancelled())
        launch(m_next++);
    if (!m_jobs.isRunning()) {
        m_running = false;
        emit batchFinished(m_jobs.isCancelled() && !m_error, m_error.value_or(QString()));
    }
}

void RunController::launch(std::size_t index)
{
    sim::RunSpec spec = m_batch.spec;
    spec.policy = m_batch.policies[index / m_batch.seeds.size()];
    spec.setSeed(m_batch.seeds[index % m_batch.seeds.size()]);
    const std::shared_ptr<const trace::Trace> trace = m_batch.trace;
    const int id = m_nextId++;
    m_jobs.launch(
        [spec, trace](ProgressFn progress, CancelToken cancel) { return workflow::execute(spec, *trace, {}, progress, cancel); },
        [this, index, id](Result<workflow::RunOutcome> r) {
            if (!r) {
                if (!r.error().isCancelled() && !m_error) {
                    m_error = QString::fromStdString(r.error().toString());
                    m_jobs.cancel(); // stop the sibling run: the batch failed
                }
            } else {
                m_fractions[index] = 1.0;
                views::RunResult result;
                static_cast<workflow::RunOutcome&>(result) = std::move(r).value();
                result.id = id;
                result.policy = views::colourKey(result.spec);
                result.label = runLabel(result.spec.policy, result.spec.seed()) + (result.spec.isFill() ? " fill" : "") + result.spec.roomSuffix()
                    + (!result.spec.schedulerConfig.empty() && policy::acceptsSchedulerConfig(result.spec.policy) ? " (configured)" : "");
                emit runFinished(result);
            }
            launchMore();
        },
        [this, index](double f) {
            if (index < m_fractions.size()) {
                m_fractions[index] = std::min(f, 0.999);
                reportProgress();
            }
        });
    reportProgress();
}

} // namespace schedlab::app
