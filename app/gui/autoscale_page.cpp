#include "autoscale_page.h"

#include "scaler_reward_editor.h"

#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

namespace schedlab::app {

AutoscalePage::AutoscalePage(ProjectSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName("autoscaleSplit");
    layout->addWidget(split);
    m_view = new views::AutoscaleView(split);
    m_autoscale = new AutoscaleController(m_view, this);
    m_autoscale->setProjectProvider([this] { return m_session->project(); }); // runs stored in the open project
    m_panel = new views::ScalerTrainingPanel;
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setObjectName("scalerTrainingScroll");
    scroll->setMinimumWidth(24); // its size hint would push the tab past a 1024 px screen; it scrolls instead
    split->addWidget(m_view);
    split->addWidget(scroll);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    split->setSizes({ 920, 360 }); // the panel scrolls when the window is narrower (it fits 1024 px)
    buildTraining();
}

void AutoscalePage::buildTraining()
{
    // The replica policy's reward weights are remembered between sessions.
    if (auto saved = autoscale::ScalerReward::parse(QSettings().value("autoscale/reward").toString().toStdString(), {}); saved)
        m_panel->rewardEditor()->setReward(*saved, false);
    connect(m_panel->rewardEditor(), &views::WeightEditor::valuesChanged, this,
        [this] { QSettings().setValue("autoscale/reward", QString::fromStdString(m_panel->rewardEditor()->reward().toString())); });
    m_trainer = new ScalerTrainingController(this);
    connect(m_panel, &views::ScalerTrainingPanel::trainRequested, this, &AutoscalePage::startTraining);
    connect(m_panel, &views::ScalerTrainingPanel::cancelRequested, m_trainer, &ScalerTrainingController::cancel);
    connect(m_panel, &views::ScalerTrainingPanel::useCheckpoint, this, [this](const QString& path) { m_view->setModelPath(path); });
    connect(m_trainer, &ScalerTrainingController::episode, m_panel, &views::ScalerTrainingPanel::addEpisode);
    connect(m_trainer, &ScalerTrainingController::progress, m_panel, &views::ScalerTrainingPanel::setProgress);
    connect(m_trainer, &ScalerTrainingController::roundFinished, this, [this](qlonglong, const QString& summary) {
        refreshRounds();
        m_panel->showMessage(summary, false);
    });
    connect(m_trainer, &ScalerTrainingController::finished, this, [this](bool cancelled, const QString& error) {
        m_panel->setRunning(false);
        refreshRounds(); // a cancelled or failed round is listed as such
        if (cancelled)
            m_panel->showMessage(tr("Cancelled; the rounds finished before are kept."), true);
        else if (!error.isEmpty())
            m_panel->showMessage(error, true);
        emit trainingFinished(!cancelled && error.isEmpty());
    });
}

void AutoscalePage::refreshRounds()
{
    m_panel->setProjectOpen(m_session->isOpen());
    if (!m_session->project()) {
        m_panel->setRounds({}, {});
        return;
    }
    auto rounds = m_session->project()->rounds();
    if (!rounds) {
        emit errorOccurred(QString::fromStdString(rounds.error().toString()));
        return;
    }
    std::map<int64_t, std::vector<store::EvalValue>> evaluation;
    for (const store::RoundRow& r : rounds.value())
        if (auto eval = m_session->project()->roundEval(r.id); eval && !eval->empty())
            evaluation[r.id] = std::move(eval).value();
    m_panel->setRounds(rounds.value(), evaluation);
}

bool AutoscalePage::startTraining(const views::ScalerTrainRequest& request)
{
    auto refuse = [this](const QString& why) {
        m_panel->showMessage(why, true);
        return false;
    };
    if (m_trainer->isRunning())
        return false;
    if (!m_session->isOpen())
        return refuse(tr("Training rounds are stored in a project: create or open one first (File > New Project)."));
    const views::AutoscaleRequest files = m_view->request();
    if (files.loadPath.isEmpty())
        return refuse(tr("Open a load file first (Load…)."));
    if (!m_panel->rewardEditor()->isValid())
        return refuse(tr("Reward: at least one weight must be above 0."));
    for (const std::string& b : request.baselines) {
        std::string error;
        if (!autoscale::makeReplicaPolicy(b, autoscale::ServiceConfig {}, &error))
            return refuse(tr("Baselines: %1").arg(QString::fromStdString(error)));
    }
    ScalerTrainingJob job;
    job.request = request;
    job.loadPath = files.loadPath;
    job.servicePath = files.servicePath;
    job.projectPath = m_session->path();
    m_panel->clearCurves();
    m_panel->setRunning(true);
    m_trainer->start(job);
    return true;
}

void AutoscalePage::openLoad(const QString& loadPath, const QString& servicePath, bool run)
{
    m_view->setLoadPath(loadPath);
    if (!servicePath.isNull())
        m_view->setServicePath(servicePath);
    if (run)
        m_autoscale->run();
}

} // namespace schedlab::app
