#include "training_page.h"

#include "reward_editor.h"
#include "training_controller.h"

#include "rl/fine_tune.h"
#include "trace/import_context.h"
#include "trace/trace_window.h"
#include "workflow/fine_tune_session.h"

#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace schedlab::app {

TrainingPage::TrainingPage(ProjectSession* session, views::RewardEditor* reward, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_reward(reward)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_panel = new views::TrainingPanel(this);
    m_panel->setProjectOpen(false);
    layout->addWidget(m_panel);
    m_trainer = new TrainingController(this);
    connect(m_panel, &views::TrainingPanel::startRequested, this, [this](const views::TrainRequest& r) { start(r); });
    connect(m_panel, &views::TrainingPanel::cancelRequested, m_trainer, &TrainingController::cancel);
    connect(m_panel, &views::TrainingPanel::showOnDashboard, this, &TrainingPage::showOnDashboard);
    connect(m_trainer, &TrainingController::episode, m_panel, &views::TrainingPanel::addEpisode);
    connect(m_panel->lineage(), &QTreeWidget::itemSelectionChanged, this, &TrainingPage::showStoredCurves);
    connect(m_trainer, &TrainingController::progress, m_panel, &views::TrainingPanel::setProgress);
    connect(m_trainer, &TrainingController::roundFinished, this, [this] { refreshRounds(); });
    connect(m_trainer, &TrainingController::finished, this, [this](bool cancelled, const QString& error) {
        m_panel->setRunning(false);
        refreshRounds();
        if (!error.isEmpty())
            emit errorOccurred(error);
        emit statusMessage(cancelled ? tr("Training cancelled") : error.isEmpty() ? tr("Training done") : tr("Training failed"));
        emit finished();
    });
    connect(m_reward, &views::RewardEditor::changed, this, [this](const rl::RewardConfig& c) {
        if (m_loadingSettings || !m_session->project() || m_session->readOnly() || !m_reward->isValid())
            return;
        if (Status s = m_session->project()->setSetting("reward_weights", c.toString()); !s)
            emit errorOccurred(QString::fromStdString(s.error().toString()));
    });
}

void TrainingPage::setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths)
{
    m_trace = std::move(trace);
    m_tracePaths = paths;
}

void TrainingPage::showStoredCurves()
{
    // Selecting stored rounds (while nothing trains) shows their curves, in round order.
    if (m_trainer->isRunning() || !m_session->project())
        return;
    std::vector<int64_t> ids;
    for (QTreeWidgetItem* item : m_panel->lineage()->selectedItems())
        ids.push_back(item->data(0, Qt::UserRole).toLongLong());
    std::sort(ids.begin(), ids.end());
    m_panel->clearCurves();
    for (int64_t id : ids)
        if (auto curve = m_session->project()->roundCurve(id))
            for (const store::CurvePoint& p : curve.value()) {
                rl::EpisodeStats s;
                s.episode = p.episode;
                s.meanLoss = p.loss;
                s.minLoss = p.lossMin;
                s.maxLoss = p.lossMax;
                s.episodeReturn = p.episodeReturn;
                s.epsilon = p.epsilon;
                s.decisions = p.decisions;
                s.seconds = p.seconds;
                s.validation = p.validation;
                m_panel->addEpisode(int(id), s);
            }
}

void TrainingPage::refreshRounds()
{
    m_panel->setProjectOpen(m_session->isOpen());
    if (!m_session->project()) {
        m_panel->setRounds({});
        return;
    }
    auto rounds = m_session->project()->rounds();
    if (!rounds) {
        emit errorOccurred(QString::fromStdString(rounds.error().toString()));
        return;
    }
    std::map<int64_t, std::vector<store::EvalValue>> evaluation;
    std::vector<store::RoundRow> placement; // the replica policy's rounds are the Autoscaling tab's
    std::map<int64_t, std::vector<std::string>> overBudget; // rounds whose evaluation ended over a budget
    for (const store::RoundRow& r : rounds.value()) {
        if (r.kind == store::RoundKind::Autoscale)
            continue;
        if (auto eval = m_session->project()->roundEval(r.id); eval && !eval->empty())
            evaluation[r.id] = std::move(eval).value();
        placement.push_back(r);
        if (auto curve = m_session->project()->roundCurve(r.id))
            if (auto kept = store::keptWeights(curve.value(), r.startValidation, r.kind == store::RoundKind::Timed))
                placement.back().window += (kept->episode == 0 ? std::string("; kept its starting weights (")
                                                               : "; kept episode " + std::to_string(kept->episode) + " (")
                    + rl::validationText(store::runModeOf(r.kind), kept->validation) + ")";
        if (auto k = m_session->project()->roundConstraints(r.id); k && !k->empty() && evaluation.count(r.id))
            overBudget[r.id] = workflow::overBudget(k.value(), evaluation.at(r.id));
    }
    m_panel->setRounds(placement, evaluation, overBudget);
}

bool TrainingPage::canStart(const views::TrainRequest& request)
{
    auto refuse = [this](const QString& why) {
        emit errorOccurred(why);
        return false;
    };
    if (!m_trace)
        return refuse(tr("Open a trace first."));
    if (!m_session->isOpen())
        return refuse(tr("Training rounds are stored in a project: create or open one first (File > New Project)."));
    if (!m_reward->isValid())
        return refuse(tr("Reward: at least one weight must be above 0."));
    if (m_trainer->isRunning())
        return false;
    // Refused before starting, with the reason, rather than a round that trains on nothing.
    constexpr std::size_t kMinJobs = 20;
    if (request.mode == sim::RunMode::Fill && m_trace->totalGpus() == 0)
        return refuse(tr("This trace has no GPUs: the fill experiment cannot train on it; pick timed training."));
    if (request.mode == sim::RunMode::Timed) {
        auto window = trace::timeWindow(*m_trace, request.fromH * 3600, request.windowH * 3600);
        if (!window || window->jobs.size() < kMinJobs)
            return refuse(tr("The training window (%1 h from %2 h) holds %3 jobs, too few to train (at least %4): widen the window or move it.")
                              .arg(request.windowH)
                              .arg(request.fromH)
                              .arg(window ? window->jobs.size() : 0)
                              .arg(kMinJobs));
    }
    return true;
}

bool TrainingPage::start(const views::TrainRequest& request)
{
    if (!canStart(request))
        return false;
    TrainingJob job;
    job.request = request;
    job.reward = m_reward->config();
    job.trace = m_trace;
    job.traceFiles = m_tracePaths;
    job.projectPath = m_session->path().toStdString();
    emit errorCleared();
    m_panel->clearCurves();
    m_panel->setRunning(true);
    m_trainer->start(job);
    return true;
}

void TrainingPage::cancel() { m_trainer->cancel(); }

void TrainingPage::loadRewardSetting()
{
    if (!m_session->project())
        return;
    auto text = m_session->project()->setting("reward_weights");
    m_loadingSettings = true;
    if (text && !text->empty()) {
        auto c = rl::RewardConfig::parse(text.value());
        if (c)
            m_reward->setConfig(c.value(), false);
        else
            emit errorOccurred(tr("%1: stored reward weights are invalid (%2); using the defaults")
                                   .arg(m_session->path(), QString::fromStdString(c.error().message)));
    } else {
        m_reward->setConfig(rl::RewardConfig {}, false);
    }
    m_loadingSettings = false;
}

void TrainingPage::storeRewardSetting()
{
    if (!m_session->readOnly())
        (void)m_session->project()->setSetting("reward_weights", m_reward->config().toString());
}

bool TrainingPage::switchToTimed()
{
    if (m_panel->request().mode != sim::RunMode::Fill)
        return false;
    m_panel->setMode(sim::RunMode::Timed);
    return true;
}

std::optional<store::SweepSpec> TrainingPage::sweepSpec(const QString& weights, const sim::RunSpec& base, double fillRatio, int shards)
{
    if (!m_trace || m_tracePaths.empty()) {
        emit errorOccurred(tr("Open a trace first: a sweep plan names its files."));
        return std::nullopt;
    }
    // This tab's settings (mode, window, episodes, rounds, rate, baselines, seeds), the weight
    // vectors from `weights` (the Reward dock's, or ranges of them).
    const views::TrainRequest r = m_panel->request();
    store::SweepSpec spec;
    spec.traces = { m_tracePaths };
    spec.importOptions = trace::importOptionsFromMetadata(m_trace->metadata);
    spec.seeds = { r.seed };
    spec.shards = shards;
    store::SweepTraining t;
    t.rounds = r.rounds;
    t.episodes = r.episodes;
    t.learningRate = r.learningRate;
    t.gamma = r.gamma;
    t.maxPods = r.pods;
    t.fromS = r.fromH * 3600;
    t.windowS = r.windowH * 3600;
    t.evalSeeds = r.evalSeeds;
    t.baselines = r.baselines;
    spec.train = t;
    auto vectors = store::expandWeightRanges(weights.toStdString());
    if (!vectors) {
        emit errorOccurred(QString::fromStdString(vectors.error().message));
        return std::nullopt;
    }
    for (const std::string& v : *vectors) {
        auto w = rl::RewardConfig::parse(v, m_reward->config());
        if (!w) {
            emit errorOccurred(tr("Weights '%1': %2").arg(QString::fromStdString(v), QString::fromStdString(w.error().message)));
            return std::nullopt;
        }
        spec.weights.push_back(w->toString());
    }
    sim::FillOptions fill;
    fill.ratio = fillRatio;
    spec.base = r.mode == sim::RunMode::Fill ? sim::RunSpec::fill({}, fill) : base;
    if (r.mode == sim::RunMode::Timed && spec.base.isFill())
        spec.base = sim::RunSpec::timed({}, sim::TimedOptions {});
    return spec;
}

} // namespace schedlab::app
