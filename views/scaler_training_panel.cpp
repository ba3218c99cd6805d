#include "scaler_training_panel.h"

#include "round_lineage.h"
#include "scaler_reward_editor.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace schedlab::views {

ScalerTrainingPanel::ScalerTrainingPanel(QWidget* parent)
    : QWidget(parent)
{
    qRegisterMetaType<ScalerTrainRequest>();
    qRegisterMetaType<autoscale::ScalerEpisode>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* rewardBox = new QGroupBox(tr("Reward"), this);
    auto* rewardLayout = new QVBoxLayout(rewardBox);
    m_reward = new ScalerRewardEditor(rewardBox);
    rewardLayout->addWidget(m_reward);
    layout->addWidget(rewardBox);

    auto* roundsBox = new QGroupBox(tr("Fine-tune rounds"), this);
    auto* grid = new QGridLayout(roundsBox);
    auto hoursBox = [roundsBox](double value, const QString& special) {
        auto* b = new QDoubleSpinBox(roundsBox);
        b->setRange(0, 1e5);
        b->setDecimals(1);
        b->setSuffix(tr(" h"));
        b->setValue(value);
        if (!special.isEmpty())
            b->setSpecialValueText(special);
        return b;
    };
    m_trainFrom = hoursBox(0, {});
    m_trainHours = hoursBox(24, tr("to the end"));
    m_evalFrom = hoursBox(0, tr("after training"));
    m_evalFrom->setToolTip(tr("Rounds are judged on load they never trained on: by default what follows the training span"));
    m_evalHours = hoursBox(0, tr("to the end"));
    m_episodes = new QSpinBox(roundsBox);
    m_episodes->setRange(1, 1000);
    m_episodes->setValue(3);
    m_rounds = new QSpinBox(roundsBox);
    m_rounds->setRange(1, 100);
    m_gamma = new QDoubleSpinBox(roundsBox);
    m_gamma->setRange(0, 0.999);
    m_gamma->setSingleStep(0.05);
    m_gamma->setDecimals(3);
    m_gamma->setValue(0.9);
    m_gamma->setToolTip(tr("Discount per 15-s sync period"));
    m_parent = new QComboBox(roundsBox);
    m_parent->addItem(tr("fresh network"), qlonglong(-1));
    connect(m_parent, qOverload<int>(&QComboBox::activated), this, [this] { m_parentPicked = true; });
    m_baselines = new QLineEdit(QStringLiteral("hpa,forecast"), roundsBox);
    // One field a row: the panel is narrow at 1280 px (it scrolls in height instead).
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Train from"), m_trainFrom);
    form->addRow(tr("Train for"), m_trainHours);
    form->addRow(tr("Evaluate from"), m_evalFrom);
    form->addRow(tr("Evaluate for"), m_evalHours);
    form->addRow(tr("Episodes per round"), m_episodes);
    form->addRow(tr("Rounds"), m_rounds);
    form->addRow(tr("Discount"), m_gamma);
    form->addRow(tr("Parent"), m_parent);
    form->addRow(tr("Baselines"), m_baselines);
    grid->addLayout(form, 0, 0, 1, 3);
    m_train = new QPushButton(tr("Train rounds"), roundsBox);
    m_train->setObjectName("trainScaler");
    m_cancel = new QPushButton(tr("Cancel"), roundsBox);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(roundsBox);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    grid->addWidget(m_train, 1, 0);
    grid->addWidget(m_cancel, 1, 1);
    grid->addWidget(m_progress, 1, 2);
    m_message = new QLabel(roundsBox);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(m_message, 2, 0, 1, 3);
    layout->addWidget(roundsBox);
    connect(m_train, &QPushButton::clicked, this, [this] { emit trainRequested(request()); });
    connect(m_cancel, &QPushButton::clicked, this, &ScalerTrainingPanel::cancelRequested);

    m_tree = makeLineageTree(this);
    m_tree->setMinimumHeight(120);
    layout->addWidget(m_tree, 1);
    auto* use = new QPushButton(tr("Use selected round as learned"), this);
    use->setObjectName("useScalerRound");
    use->setToolTip(tr("The round's checkpoint becomes the tab's learned policy (checked); Replay compares it"));
    connect(use, &QPushButton::clicked, this, [this] {
        const std::vector<std::string> c = selectedCheckpoints(m_tree);
        if (!c.empty())
            emit useCheckpoint(QString::fromStdString(c.front()));
    });
    layout->addWidget(use);
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(120);
    m_plot->xAxis->setLabel(tr("episode"));
    m_plot->yAxis->setLabel(tr("mean reward"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("replica-h"));
    m_plot->addGraph()->setPen(QPen(QColor(213, 94, 0), 2));
    m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2)->setPen(QPen(QColor(0, 114, 178), 1.5, Qt::DashLine));
    layout->addWidget(m_plot, 1);

    setProjectOpen(false);
}

ScalerTrainRequest ScalerTrainingPanel::request() const
{
    ScalerTrainRequest r;
    r.reward = m_reward->reward();
    r.trainFromH = m_trainFrom->value();
    r.trainHours = m_trainHours->value();
    r.evalFromH = m_evalFrom->value() > 0 ? m_evalFrom->value() : -1;
    r.evalHours = m_evalHours->value();
    r.episodes = m_episodes->value();
    r.rounds = m_rounds->value();
    r.gamma = m_gamma->value();
    r.parentRound = m_parent->currentData().toLongLong();
    for (const QString& b : m_baselines->text().split(',', Qt::SkipEmptyParts))
        r.baselines.push_back(b.trimmed().toStdString());
    return r;
}

void ScalerTrainingPanel::setRounds(const std::vector<store::RoundRow>& rounds, const std::map<int64_t, std::vector<store::EvalValue>>& evaluation)
{
    std::vector<store::RoundRow> mine;
    for (const store::RoundRow& r : rounds)
        if (r.kind == store::RoundKind::Autoscale)
            mine.push_back(r);
    showLineage(m_tree, m_parent, m_parentPicked, mine, evaluation);
}

void ScalerTrainingPanel::addEpisode(int, const autoscale::ScalerEpisode& e)
{
    m_seen.push_back(e);
    replot();
}

void ScalerTrainingPanel::clearCurves()
{
    m_seen.clear();
    replot();
}

void ScalerTrainingPanel::replot()
{
    QVector<double> x, reward, hours;
    for (std::size_t i = 0; i < m_seen.size(); ++i) {
        x.push_back(double(i + 1));
        reward.push_back(m_seen[i].meanReward);
        hours.push_back(m_seen[i].replicaHours);
    }
    m_plot->graph(0)->setData(x, reward, true);
    m_plot->graph(1)->setData(x, hours, true);
    m_plot->rescaleAxes();
    m_plot->xAxis->setRange(0.5, std::max(2.0, double(x.size()) + 0.5));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScalerTrainingPanel::setRunning(bool running)
{
    m_running = running;
    m_train->setEnabled(!running && m_projectOpen);
    m_cancel->setEnabled(running);
    if (running) {
        m_progress->setValue(0);
        m_message->clear();
    }
}

void ScalerTrainingPanel::setProjectOpen(bool open)
{
    m_projectOpen = open;
    m_train->setEnabled(open && !m_running);
    m_train->setToolTip(open ? tr("Train the rounds on the tab's load and service; each is stored in the project with its evaluation")
                             : tr("Rounds are stored in a project: create or open one first (File > New Project, Ctrl+N)"));
}

void ScalerTrainingPanel::setProgress(double fraction, const QString& text)
{
    m_progress->setValue(int(fraction * 1000));
    m_progress->setFormat(text.isEmpty() ? QStringLiteral("%p%") : text + QStringLiteral("  %p%"));
}

void ScalerTrainingPanel::showMessage(const QString& text, bool error)
{
    m_message->setStyleSheet(error ? QStringLiteral("QLabel { color: #a00; }") : QString());
    m_message->setText(text);
}

QString ScalerTrainingPanel::messageText() const { return m_message->text(); }

} // namespace schedlab::views
