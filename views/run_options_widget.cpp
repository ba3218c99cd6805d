#include "run_options_widget.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/placement_policy.h"
#include "policy/queue_policy.h"
#include "sim/room_options.h"
#include "sim/timed_replay.h"
#include "workflow/run_args.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace schedlab::views {

namespace {
const std::vector<std::string> kDefaultTimed = { "firstfit", "bestfit", "k8s-default", "fgd" };
} // namespace

RunOptionsWidget::RunOptionsWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* pl = new QVBoxLayout(this);
    m_policyList = new QListWidget(this);
    m_policyList->setObjectName("policyList");
    for (const policy::PolicyInfo& info : policy::placementPolicies()) {
        auto* item = new QListWidgetItem(QString::fromStdString(info.name), m_policyList);
        item->setToolTip(QString::fromStdString(info.description));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(std::count(kDefaultTimed.begin(), kDefaultTimed.end(), info.name) ? Qt::Checked : Qt::Unchecked);
    }
    auto* form = new QFormLayout();
    m_mode = new QComboBox(this);
    m_mode->setObjectName("modeBox");
    m_mode->addItems({ tr("auto"), tr("timed replay"), tr("fill experiment") });
    m_queue = new QComboBox(this);
    m_queue->setObjectName("queueBox");
    for (const std::string& q : policy::queueOrderNames())
        m_queue->addItem(QString::fromStdString(q));
    m_backfill = new QComboBox(this);
    m_backfill->setObjectName("backfillBox");
    m_backfill->addItems({ "easy", "none" });
    m_head = new QComboBox(this);
    m_head->setObjectName("headBox");
    m_head->addItems({ "resort", "commit" });
    m_head->setToolTip(tr("resort: each pass starts from the queue's first by the order (a real scheduler); commit: a "
                          "blocked head stays the head until it starts (the RLScheduler simulator)"));
    m_ratio = new QDoubleSpinBox(this);
    m_ratio->setObjectName("ratioBox");
    m_ratio->setRange(0.1, 10);
    m_ratio->setSingleStep(0.1);
    m_ratio->setValue(1.3);
    m_ratio->setToolTip(tr("Fill experiment: pods are inflated up to this multiple of the cluster's GPU capacity (1.3 in the FGD paper)"));
    m_trim = new QCheckBox(tr("to ratio"), this);
    m_trim->setObjectName("trimBox");
    m_trim->setChecked(true);
    m_trim->setToolTip(tr("A pod list asking for more than ratio x capacity loses random pods (seeded) down to it, as "
                          "the FGD authors' simulator does; off replays every pod"));
    m_seeds = new QLineEdit("42", this);
    m_seeds->setObjectName("seedsEdit");
    m_seeds->setToolTip(tr("Seeds: N, A-B or a comma list"));
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Queue"), m_queue);
    form->addRow(tr("Backfill"), m_backfill);
    form->addRow(tr("Queue head"), m_head);
    form->addRow(tr("Make room"), buildRoomRow());
    form->addRow(tr("Fill ratio"), m_ratio);
    form->addRow(tr("Trim"), m_trim);
    form->addRow(tr("Seeds"), m_seeds);
    form->addRow(tr("Scheduler config"), buildSchedulerConfigRow());
    auto* run = new QPushButton(tr("Run (Ctrl+R)"), this);
    connect(run, &QPushButton::clicked, this, &RunOptionsWidget::runRequested);
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, &RunOptionsWidget::updateControls);
    // Only a choice the user made is remembered: activated() is not emitted by setCurrentIndex().
    connect(m_mode, &QComboBox::activated, this, &RunOptionsWidget::modeChosen);
    pl->addWidget(m_policyList, 1);
    pl->addLayout(form);
    pl->addWidget(run);
    updateControls();
}

QWidget* RunOptionsWidget::buildRoomRow()
{
    // Stacked, not side by side: the Policies dock must stay narrow enough for a 1024 px screen.
    auto* row = new QWidget(this);
    auto* h = new QVBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_preemption = new QComboBox(row);
    m_preemption->setObjectName("preemptionBox");
    m_preemption->addItem(tr("no preemption"), "none");
    m_preemption->addItem(tr("preempt"), "priority");
    m_preemption->setToolTip(tr("Kubernetes default preemption: a job that fits nowhere evicts the fewest lower-priority "
                                "jobs on the best node; they queue again and lose what they ran"));
    m_migration = new QComboBox(row);
    m_migration->setObjectName("migrationBox");
    m_migration->addItem(tr("no migration"), "none");
    m_migration->addItem(tr("defragment"), "defragment");
    m_migration->setToolTip(tr("Defragment on failure: a job that fits nowhere has the smallest running task of the same or "
                               "lower priority moved elsewhere when that frees a node for it (timed: the task restarts, 60 s; "
                               "fill: a placed pod moves)"));
    h->addWidget(m_preemption);
    h->addWidget(m_migration);
    return row;
}

QWidget* RunOptionsWidget::buildSchedulerConfigRow()
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_schedulerConfigButton = new QPushButton(tr("built-in"), row);
    m_schedulerConfigButton->setObjectName("schedulerConfigButton");
    auto* clear = new QToolButton(row);
    clear->setObjectName("schedulerConfigClear");
    clear->setText(tr("Clear"));
    clear->setToolTip(tr("Back to the built-in k8s-default (LeastAllocated + BalancedAllocation, every node scored)"));
    h->addWidget(m_schedulerConfigButton, 1);
    h->addWidget(clear);
    connect(m_schedulerConfigButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("KubeSchedulerConfiguration"),
            QSettings().value("paths/schedulerConfig").toString(), tr("YAML (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            setSchedulerConfig(path);
    });
    connect(clear, &QToolButton::clicked, this, [this] { setSchedulerConfig({}); });
    restoreSchedulerConfig();
    return row;
}

void RunOptionsWidget::restoreSchedulerConfig()
{
    // The last one chosen, if it still reads; quietly the built-in one otherwise.
    const QString remembered = QSettings().value("paths/schedulerConfig").toString();
    if (!remembered.isEmpty() && QFileInfo::exists(remembered)) {
        std::string text;
        if (auto c = policy::readKubeSchedulerConfig(remembered.toStdString(), &text)) {
            m_schedulerConfig = text;
            m_schedulerConfigButton->setText(QFileInfo(remembered).fileName());
            m_schedulerConfigButton->setToolTip(QString::fromStdString(c->summary()));
        }
    }
    if (m_schedulerConfig.empty())
        m_schedulerConfigButton->setToolTip(tr("A KubeSchedulerConfiguration (YAML) for k8s-default and k8s-sampling: score plugin "
                                               "weights, NodeResourcesFit strategy, percentageOfNodesToScore"));
}

bool RunOptionsWidget::setSchedulerConfig(const QString& path)
{
    if (path.isEmpty()) {
        m_schedulerConfig.clear();
        m_schedulerConfigButton->setText(tr("built-in"));
        m_schedulerConfigButton->setToolTip(tr("k8s-default: LeastAllocated + BalancedAllocation, weight 1 each, every node scored"));
        QSettings().remove("paths/schedulerConfig");
        return true;
    }
    std::string text;
    auto c = policy::readKubeSchedulerConfig(path.toStdString(), &text);
    if (!c) {
        emit schedulerConfigFailed(QString::fromStdString(c.error().toString()));
        return false;
    }
    m_schedulerConfig = std::move(text);
    QString tip = QString::fromStdString(c->summary());
    if (!c->unmodelled.empty()) {
        QStringList u;
        for (const std::string& s : c->unmodelled)
            u << QString::fromStdString(s);
        tip += tr("\nNot modelled (they score every node alike here): %1").arg(u.join(", "));
    }
    m_schedulerConfigButton->setText(QFileInfo(path).fileName());
    m_schedulerConfigButton->setToolTip(tip);
    QSettings().setValue("paths/schedulerConfig", QFileInfo(path).absoluteFilePath());
    emit schedulerConfigSet(QString::fromStdString(c->summary()));
    return true;
}

QString RunOptionsWidget::schedulerConfigLabel() const { return m_schedulerConfigButton->text(); }

sim::RunSpec RunOptionsWidget::spec(std::optional<trace::TimeSpan> window) const
{
    sim::RunSpec spec;
    if (fillChosen()) {
        sim::FillOptions o;
        o.ratio = m_ratio->value();
        o.trimAboveRatio = m_trim->isChecked();
        sim::parseMigration(m_migration->currentData().toString().toStdString(), o.migration);
        spec = sim::RunSpec::fill({}, o);
    } else {
        sim::TimedOptions o;
        policy::parseQueueOrder(m_queue->currentText().toStdString(), o.queue);
        o.backfill = m_backfill->currentText() == "easy" ? sim::Backfill::Easy : sim::Backfill::None;
        sim::parseHeadRule(m_head->currentText().toStdString(), o.head);
        sim::parsePreemption(m_preemption->currentData().toString().toStdString(), o.preemption);
        sim::parseMigration(m_migration->currentData().toString().toStdString(), o.migration);
        if (window) {
            o.windowFromS = window->fromS;
            o.windowToS = window->toS;
        }
        spec = sim::RunSpec::timed({}, o);
    }
    spec.schedulerConfig = m_schedulerConfig; // used by k8s-default / k8s-sampling only
    return spec;
}

std::vector<std::string> RunOptionsWidget::checkedPolicies() const
{
    std::vector<std::string> policies;
    for (int i = 0; i < m_policyList->count(); ++i)
        if (m_policyList->item(i)->checkState() == Qt::Checked)
            policies.push_back(m_policyList->item(i)->text().toStdString());
    return policies;
}

Result<std::vector<uint64_t>> RunOptionsWidget::seeds() const { return workflow::parseSeeds(m_seeds->text().toStdString()); }

double RunOptionsWidget::fillRatio() const { return m_ratio->value(); }

RunOptionsWidget::ModeChoice RunOptionsWidget::modeChoice() const { return ModeChoice(m_mode->currentIndex()); }

void RunOptionsWidget::setModeChoice(ModeChoice choice) { m_mode->setCurrentIndex(int(choice)); }

void RunOptionsWidget::setAutoFill(bool fill)
{
    m_autoFill = fill;
    updateControls();
}

bool RunOptionsWidget::fillChosen() const
{
    return modeChoice() == ModeChoice::Fill || (modeChoice() == ModeChoice::Auto && m_autoFill);
}

void RunOptionsWidget::updateControls()
{
    // Only the controls of the mode that will run are enabled (auto: the open trace decides).
    const bool fill = fillChosen();
    m_queue->setEnabled(!fill);
    m_backfill->setEnabled(!fill);
    m_head->setEnabled(!fill);
    m_preemption->setEnabled(!fill); // migration serves both modes
    m_ratio->setEnabled(fill);
    m_trim->setEnabled(fill);
    emit modeChanged();
}

} // namespace schedlab::views
