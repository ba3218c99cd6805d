#include "scaler_training_controller.h"

#include "autoscale_controller.h"

#include <QDir>
#include <QPointer>

namespace schedlab::app {

workflow::ScalerRoundOptions scalerRoundOptionsOf(const ScalerTrainingJob& job, const std::string& checkpointDir)
{
    const views::ScalerTrainRequest& r = job.request;
    workflow::ScalerRoundOptions o;
    o.loadPath = job.loadPath.toStdString();
    o.servicePath = job.servicePath.toStdString();
    o.checkpointDir = checkpointDir;
    o.parentRound = r.parentRound;
    o.train.reward = r.reward;
    o.train.fromS = r.trainFromH * 3600;
    o.train.durationS = r.trainHours * 3600;
    o.train.episodes = r.episodes;
    o.train.gamma = r.gamma;
    o.evalFromS = r.evalFromH < 0 ? -1 : r.evalFromH * 3600;
    o.evalDurationS = r.evalHours * 3600;
    if (!r.baselines.empty())
        o.baselines = r.baselines;
    return o;
}

ScalerTrainingController::ScalerTrainingController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

void ScalerTrainingController::start(const ScalerTrainingJob& job)
{
    if (m_jobs.isRunning())
        return;
    m_jobs.reset();
    QPointer<ScalerTrainingController> self(this);
    auto post = [self](auto fn) { postToGui([self, fn] { if (self) fn(*self); }); };
    const int total = job.request.rounds;
    m_jobs.launch(
        [job, post, total](ProgressFn, CancelToken cancel) -> Status {
            auto inputs = readAutoscaleInputs(job.loadPath, job.servicePath);
            if (!inputs)
                return inputs.error();
            auto project = store::Project::open(job.projectPath.toStdString(), store::Project::OpenMode::ExistingOnly);
            if (!project)
                return project.error();
            const std::string dir = job.projectPath.toStdString() + ".models";
            if (!QDir().mkpath(QString::fromStdString(dir)))
                return makeError(ErrorCode::Io, "cannot create the checkpoint folder", dir);
            workflow::ScalerRoundOptions o = scalerRoundOptionsOf(job, dir);
            if (o.parentRound >= 0) {
                auto parent = workflow::resolveScalerParent(std::to_string(o.parentRound), project.value().get());
                if (!parent)
                    return parent.error();
                o.parentCheckpoint = parent->first;
            }
            workflow::ScalerSessionCallbacks cb;
            cb.episode = [post](int round, const autoscale::ScalerEpisode& e) {
                post([round, e](ScalerTrainingController& c) { emit c.episode(round, e); });
            };
            cb.roundFinished = [post](int, const workflow::ScalerRoundResult& r) {
                QStringList parts;
                for (const autoscale::AutoscaleResult& run : r.eval)
                    parts << tr("%1 %2 replica-h, %3 SLO min").arg(QString::fromStdString(run.policy)).arg(run.replicaHours, 0, 'f', 1).arg(run.sloViolationMinutes);
                const QString summary = tr("Round %1, evaluated on %2-%3 h: %4")
                                            .arg(r.roundId)
                                            .arg(r.evalFromS / 3600, 0, 'f', 1)
                                            .arg(r.evalToS / 3600, 0, 'f', 1)
                                            .arg(parts.join(QStringLiteral("; ")));
                post([id = r.roundId, summary](ScalerTrainingController& c) { emit c.roundFinished(qlonglong(id), summary); });
            };
            cb.progress = [post, total](double f) {
                const int round = std::min(total, 1 + int(f * total));
                post([f, round, total](ScalerTrainingController& c) { emit c.progress(f, tr("round %1 of %2").arg(round).arg(total)); });
            };
            auto r = workflow::runScalerSession(inputs->first, inputs->second, project.value().get(), o, total, cb, cancel);
            if (!r)
                return r.error();
            return {};
        },
        [this](Status st) {
            const bool cancelled = !st && st.error().isCancelled();
            emit finished(cancelled, st || cancelled ? QString() : QString::fromStdString(st.error().toString()));
        });
}

} // namespace schedlab::app
