// The Autoscaling tab in the window: its view and controller, the replica policy's training panel
// beside it (rounds stored in the open project), and File > Open Request Load.

#include "main_window.h"

#include "scaler_reward_editor.h"

#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QUndoStack>

namespace schedlab::app {

void MainWindow::buildAutoscaleTab()
{
    auto* split = new QSplitter(Qt::Horizontal, m_tabs);
    split->setObjectName("autoscaleSplit");
    m_autoscaleView = new views::AutoscaleView(split);
    m_autoscale = new AutoscaleController(m_autoscaleView, this);
    m_autoscale->setProjectProvider([this] { return m_session.project(); }); // runs stored in the open project
    m_scalerPanel = new views::ScalerTrainingPanel;
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(m_scalerPanel);
    scroll->setWidgetResizable(true);
    scroll->setObjectName("scalerTrainingScroll");
    scroll->setMinimumWidth(24); // its size hint would push the tab past a 1024 px screen; it scrolls instead
    split->addWidget(m_autoscaleView);
    split->addWidget(scroll);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    split->setSizes({ 920, 360 }); // the panel scrolls when the window is narrower (it fits 1024 px)
    // The replica policy's reward weights are remembered between sessions.
    if (auto saved = autoscale::ScalerReward::parse(QSettings().value("autoscale/reward").toString().toStdString(), {}); saved)
        m_scalerPanel->rewardEditor()->setReward(*saved, false);
    connect(m_scalerPanel->rewardEditor(), &views::WeightEditor::valuesChanged, this,
        [this] { QSettings().setValue("autoscale/reward", QString::fromStdString(m_scalerPanel->rewardEditor()->reward().toString())); });
    m_scalerTrainer = new ScalerTrainingController(this);
    connect(m_scalerPanel, &views::ScalerTrainingPanel::trainRequested, this, &MainWindow::startScalerTraining);
    connect(m_scalerPanel, &views::ScalerTrainingPanel::cancelRequested, m_scalerTrainer, &ScalerTrainingController::cancel);
    connect(m_scalerPanel, &views::ScalerTrainingPanel::useCheckpoint, this, [this](const QString& path) { m_autoscaleView->setModelPath(path); });
    connect(m_scalerTrainer, &ScalerTrainingController::episode, m_scalerPanel, &views::ScalerTrainingPanel::addEpisode);
    connect(m_scalerTrainer, &ScalerTrainingController::progress, m_scalerPanel, &views::ScalerTrainingPanel::setProgress);
    connect(m_scalerTrainer, &ScalerTrainingController::roundFinished, this, [this](qlonglong, const QString& summary) {
        refreshRounds();
        m_scalerPanel->showMessage(summary, false);
    });
    connect(m_scalerTrainer, &ScalerTrainingController::finished, this, [this](bool cancelled, const QString& error) {
        m_scalerPanel->setRunning(false);
        refreshRounds(); // a cancelled or failed round is listed as such
        if (cancelled)
            m_scalerPanel->showMessage(tr("Cancelled; the rounds finished before are kept."), true);
        else if (!error.isEmpty())
            m_scalerPanel->showMessage(error, true);
        emit scalerTrainingFinished(!cancelled && error.isEmpty());
    });
    m_autoscaleTab = split;
    m_tabs->addTab(split, tr("Autoscaling"));
}

bool MainWindow::startScalerTraining(const views::ScalerTrainRequest& request)
{
    auto refuse = [this](const QString& why) {
        m_scalerPanel->showMessage(why, true);
        return false;
    };
    if (m_scalerTrainer->isRunning())
        return false;
    if (!m_session.isOpen())
        return refuse(tr("Training rounds are stored in a project: create or open one first (File > New Project)."));
    const views::AutoscaleRequest files = m_autoscaleView->request();
    if (files.loadPath.isEmpty())
        return refuse(tr("Open a load file first (Load…)."));
    if (!m_scalerPanel->rewardEditor()->isValid())
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
    job.projectPath = m_session.path();
    m_scalerPanel->clearCurves();
    m_scalerPanel->setRunning(true);
    m_scalerTrainer->start(job);
    return true;
}

void MainWindow::openAutoscaleLoad(const QString& loadPath, const QString& servicePath, bool run)
{
    m_autoscaleView->setLoadPath(loadPath);
    if (!servicePath.isNull())
        m_autoscaleView->setServicePath(servicePath);
    m_tabs->setCurrentWidget(m_autoscaleTab);
    if (run)
        m_autoscale->run();
}

} // namespace schedlab::app
