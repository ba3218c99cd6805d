#include "training_controller.h"

#include "rl/fine_tune.h"
#include "store/project.h"

#include <QDir>
#include <QPointer>
#include <QtConcurrent>

namespace schedlab::app {

TrainingController::TrainingController(QObject* parent)
    : QObject(parent)
{
}

TrainingController::~TrainingController() { m_cancel.cancel(); }

void TrainingController::cancel() { m_cancel.cancel(); }

void TrainingController::start(const TrainingJob& job)
{
    if (m_running)
        return;
    m_cancel = CancelToken {};
    m_running = true;
    QPointer<TrainingController> self(this);
    const CancelToken cancel = m_cancel;
    auto post = [self](auto fn) { QMetaObject::invokeMethod(self, [self, fn] { if (self) fn(*self); }, Qt::QueuedConnection); };
    auto future = QtConcurrent::run([job, cancel, post]() -> QString {
        auto project = store::Project::open(job.projectPath, store::Project::OpenMode::ExistingOnly);
        if (!project)
            return QString::fromStdString(project.error().toString());
        const std::string dir = job.projectPath + ".models";
        if (!QDir().mkpath(QString::fromStdString(dir)))
            return QString::fromStdString(dir + ": cannot create the checkpoint folder");
        const views::TrainRequest& r = job.request;
        std::string parentPath;
        int64_t parentRound = r.parentRound;
        if (parentRound >= 0) {
            auto rounds = project.value()->rounds();
            if (!rounds)
                return QString::fromStdString(rounds.error().toString());
            for (const store::RoundRow& row : rounds.value())
                if (row.id == parentRound)
                    parentPath = row.checkpoint;
            if (parentPath.empty())
                return QObject::tr("round %1 has no checkpoint").arg(parentRound);
        }
        for (int i = 0; i < r.rounds; ++i) {
            rl::RoundOptions o;
            o.parentCheckpoint = parentPath;
            o.parentRound = parentRound;
            o.checkpointDir = dir;
            o.train.mode = r.mode;
            o.train.episodes = r.episodes;
            o.train.learningRate = r.learningRate;
            o.train.gamma = r.gamma;
            o.train.policy.allowWait = r.allowWait;
            o.train.maxPods = r.pods;
            o.train.reward = job.reward;
            o.train.seed = 1000 + uint64_t(parentRound + 1) * 1000 + uint64_t(i) * uint64_t(r.episodes);
            if (!parentPath.empty())
                o.train.epsilonStart = std::min(o.train.epsilonStart, 0.1);
            o.fromS = r.fromH * 3600;
            o.windowS = r.windowH * 3600;
            o.baselines = r.baselines;
            o.evalSeeds = r.evalSeeds;
            const int round = i + 1;
            auto onEpisode = [post, round](const rl::EpisodeStats& s) {
                post([round, s](TrainingController& c) { emit c.episode(round, s); });
            };
            auto onProgress = [post, round, total = r.rounds](double f) {
                post([round, total, f](TrainingController& c) {
                    emit c.progress((double(round - 1) + f) / double(total), QObject::tr("round %1 of %2").arg(round).arg(total));
                });
            };
            auto result = rl::runRound(*job.trace, job.traceFiles, project.value().get(), o, onEpisode, onProgress, cancel);
            if (!result)
                return result.error().isCancelled() ? QStringLiteral("cancelled") : QString::fromStdString(result.error().toString());
            parentPath = result->checkpoint;
            parentRound = result->roundId;
            post([id = result->roundId](TrainingController& c) { emit c.roundFinished(qlonglong(id)); });
        }
        return {};
    });
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        const QString error = watcher->result();
        watcher->deleteLater();
        m_running = false;
        const bool cancelled = error == QStringLiteral("cancelled");
        emit finished(cancelled, cancelled ? QString() : error);
    });
    watcher->setFuture(future);
}

} // namespace schedlab::app
