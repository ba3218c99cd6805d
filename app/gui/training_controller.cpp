#include "training_controller.h"

#include "store/project.h"

#include <QDir>
#include <QPointer>

namespace schedlab::app {

workflow::SessionOptions sessionOptionsOf(const views::TrainRequest& r, const rl::RewardConfig& reward, const std::string& checkpointDir)
{
    workflow::SessionOptions s;
    s.rounds = r.rounds;
    s.teacher = r.teacher;
    rl::RoundOptions& o = s.base;
    o.parentRound = r.parentRound;
    o.checkpointDir = checkpointDir;
    o.train.run = rl::trainingRun(r.mode);
    o.train.episodes = r.episodes;
    o.train.learningRate = r.learningRate;
    o.train.gamma = r.gamma;
    o.train.policy.allowWait = r.allowWait;
    o.train.policy.skip = r.skip;
    o.train.policy.maxConsecutiveWaits = rl::defaultMaxWaits(r.skip);
    if (sim::TimedOptions* t = o.train.run.timedOptions()) {
        t->migration = r.migration;
        t->preemption = r.preemption;
    }
    o.train.constraints = r.constraints;
    if (r.keepTeacher)
        o.train.teacherLoss = r.teacher;
    o.train.validationSeeds = r.validationSeeds;
    o.train.blend = r.blend;
    if (sim::FillOptions* f = o.train.run.fillOptions())
        f->maxPods = r.pods;
    o.train.reward = reward;
    o.train.seed = r.seed;
    o.fromS = r.fromH * 3600;
    o.windowS = r.windowH * 3600;
    o.baselines = r.baselines;
    o.evalSeeds = r.evalSeeds;
    return s;
}

TrainingController::TrainingController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

void TrainingController::cancel() { m_jobs.cancel(); }

void TrainingController::start(const TrainingJob& job)
{
    if (m_jobs.isRunning())
        return;
    m_jobs.reset();
    QPointer<TrainingController> self(this);
    auto post = [self](auto fn) { postToGui([self, fn] { if (self) fn(*self); }); };
    const int total = workflow::sessionRounds(sessionOptionsOf(job.request, job.reward, {}));
    m_jobs.launch(
        [job, post, total](ProgressFn, CancelToken cancel) -> Status {
            auto project = store::Project::open(job.projectPath, store::Project::OpenMode::ExistingOnly);
            if (!project)
                return project.error();
            const std::string dir = job.projectPath + ".models";
            if (!QDir().mkpath(QString::fromStdString(dir)))
                return makeError(ErrorCode::Io, "cannot create the checkpoint folder", dir);
            workflow::SessionOptions s = sessionOptionsOf(job.request, job.reward, dir);
            if (s.base.parentRound >= 0) {
                auto parent = workflow::resolveParent(std::to_string(s.base.parentRound), project.value().get());
                if (!parent)
                    return parent.error();
                s.base.parentCheckpoint = parent->first;
            }
            workflow::SessionCallbacks cb;
            cb.episode = [post](int round, const rl::EpisodeStats& st) { post([round, st](TrainingController& c) { emit c.episode(round, st); }); };
            cb.roundFinished = [post](int, const rl::RoundResult& r) {
                post([id = r.roundId](TrainingController& c) { emit c.roundFinished(qlonglong(id)); });
            };
            cb.progress = [post, total](double f) {
                const int round = std::min(total, 1 + int(f * total));
                post([f, round, total](TrainingController& c) { emit c.progress(f, QObject::tr("round %1 of %2").arg(round).arg(total)); });
            };
            auto r = workflow::runSession(*job.trace, job.traceFiles, project.value().get(), s, cb, cancel);
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
