#include "training_panel.h"

#include "round_lineage.h"

#include "workflow/run_args.h"

#include <algorithm>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>
#include <sstream>

namespace schedlab::views {

TrainingPanel::TrainingPanel(QWidget* parent)
    : QWidget(parent)
{
    qRegisterMetaType<TrainRequest>();
    qRegisterMetaType<rl::EpisodeStats>();
    auto* layout = new QHBoxLayout(this);
    auto* left = new QWidget(this);
    auto* form = new QFormLayout(left);
    buildRunRows(left, form);
    buildTeacherRows(left, form);
    buildTimedRows(left, form);
    buildButtons(left, form);

    QWidget* right = buildCurves();
    layout->addWidget(left);
    layout->addWidget(right, 1);
}

void TrainingPanel::buildRunRows(QWidget* left, QFormLayout* form)
{
    m_mode = new QComboBox(left);
    m_mode->addItems({ tr("fill experiment"), tr("timed replay") });
    m_window = new QDoubleSpinBox(left);
    m_window->setRange(0.1, 24 * 365);
    m_window->setValue(4);
    m_window->setSuffix(tr(" h"));
    m_from = new QDoubleSpinBox(left);
    m_from->setRange(0, 24 * 365 * 10);
    m_from->setSuffix(tr(" h"));
    m_pods = new QSpinBox(left);
    m_pods->setRange(0, 100'000'000);
    m_pods->setSpecialValueText(tr("all"));
    m_episodes = new QSpinBox(left);
    m_episodes->setRange(1, 10000);
    m_episodes->setValue(3);
    m_rounds = new QSpinBox(left);
    m_rounds->setRange(1, 100);
    m_lr = new QDoubleSpinBox(left);
    m_lr->setDecimals(5);
    m_lr->setRange(1e-5, 1);
    m_lr->setSingleStep(1e-4);
    m_lr->setValue(1e-3);
    m_gamma = new QDoubleSpinBox(left);
    m_gamma->setRange(0, 0.999);
    m_gamma->setSingleStep(0.05);
    m_gamma->setValue(0.9);
    m_parent = new QComboBox(left);
    m_parent->addItem(tr("fresh network"), qlonglong(-1));
    connect(m_parent, qOverload<int>(&QComboBox::activated), this, [this] { m_parentPicked = true; });
    m_baselines = new QLineEdit(QStringLiteral("bestfit,fgd"), left);
    m_baselines->setObjectName("trainBaselines");
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Window (timed)"), m_window);
    form->addRow(tr("From (timed)"), m_from);
    form->addRow(tr("Pods per episode (fill)"), m_pods);
    form->addRow(tr("Episodes"), m_episodes);
    form->addRow(tr("Rounds"), m_rounds);
    form->addRow(tr("Learning rate"), m_lr);
    form->addRow(tr("Discount"), m_gamma);
    form->addRow(tr("Parent"), m_parent);
}

void TrainingPanel::buildTeacherRows(QWidget* left, QFormLayout* form)
{
    m_teacher = new QComboBox(left);
    m_teacher->setObjectName("trainTeacher");
    m_teacher->addItem(tr("none"), QString());
    for (const char* t : { "fgd", "bestfit", "k8s-default", "dotproduct", "gpupacking" })
        m_teacher->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    m_teacher->setToolTip(tr("Pre-train first: a round in which the network imitates this heuristic's choices (a ranking loss "
                             "over the candidates), then the rounds above fine-tune from it"));
    form->addRow(tr("Teacher"), m_teacher);
    m_keepTeacher = new QCheckBox(tr("Keep the teacher in view"), left);
    m_keepTeacher->setObjectName("trainKeepTeacher");
    m_keepTeacher->setToolTip(tr("The DQN rounds also keep a margin loss toward the teacher's choices (as DQfD does), so "
                                 "fine-tuning stays near what the teacher does where the reward says little"));
    m_keepTeacher->setEnabled(false);
    form->addRow(QString(), m_keepTeacher);
    connect(m_teacher, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this] { m_keepTeacher->setEnabled(!m_teacher->currentData().toString().isEmpty()); });
    m_validation = new QLineEdit(left);
    m_validation->setObjectName("trainValidation");
    m_validation->setPlaceholderText(tr("e.g. 2000-2003"));
    m_validation->setToolTip(tr("After each episode the greedy policy replays these seeds; the round keeps the episode of "
                                "highest GPU allocation (fill; keep them apart from the evaluation seeds) or of lowest p99 wait "
                                "over the training window (timed), the starting weights included"));
    form->addRow(tr("Validation seeds"), m_validation);
    m_blend = new QDoubleSpinBox(left);
    m_blend->setObjectName("trainBlend");
    m_blend->setRange(0.05, 1.0);
    m_blend->setSingleStep(0.05);
    m_blend->setDecimals(2);
    m_blend->setValue(1.0);
    m_blend->setToolTip(tr("Each DQN round ends with this share of its fine-tuned weights and the rest of the weights it started "
                           "from (WiSE-FT): it keeps much of the gain on the trained workload and much of the start's behaviour "
                           "on others. With validation seeds each episode is validated blended."));
    form->addRow(tr("Blend with the start (1 = off)"), m_blend);
}

void TrainingPanel::buildTimedRows(QWidget* left, QFormLayout* form)
{
    m_wait = new QCheckBox(tr("Wait action (timed)"), left);
    m_wait->setToolTip(tr("The agent may hold a job instead of placing it, at most 8 times in a row"));
    m_wait->setEnabled(false);
    form->addRow(QString(), m_wait);
    m_skip = new QCheckBox(tr("Skip action (timed)"), left);
    m_skip->setObjectName("trainSkip");
    m_skip->setToolTip(tr("The agent may pass over up to 16 jobs a scheduling pass (the pass goes on to the next job); "
                          "a teacher skips a job while a shorter one waits behind it"));
    m_skip->setEnabled(false);
    form->addRow(QString(), m_skip);
    // Holding a job and passing it over exclude each other.
    connect(m_wait, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_skip->setChecked(false);
    });
    connect(m_skip, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_wait->setChecked(false);
    });
    m_room = new QComboBox(left);
    m_room->setObjectName("trainRoom");
    m_room->addItem(tr("wait only"), 0);
    m_room->addItem(tr("migrate"), 1);
    m_room->addItem(tr("evict (priority)"), 2);
    m_room->addItem(tr("migrate, then evict"), 3);
    m_room->setToolTip(tr("Timed: when a job fits nowhere the engine offers a move of a smaller running task, or Kubernetes "
                          "preemption; the agent decides: make room or wait, then where the moved task goes"));
    m_room->setEnabled(false);
    form->addRow(tr("Make room (timed)"), m_room);
    m_budgets = new QLineEdit(left);
    m_budgets->setObjectName("trainBudgets");
    m_budgets->setPlaceholderText(tr("e.g. sla=5,migrations=2"));
    m_budgets->setToolTip(tr("Timed safety budgets, kept by Lagrange multipliers learnt while training: sla = % of jobs waiting "
                             "past slaS (3600 s), migrations and evictions per hour; rate = the multipliers' step"));
    m_budgets->setEnabled(false);
    form->addRow(tr("Budgets (timed)"), m_budgets);
}

void TrainingPanel::buildButtons(QWidget* left, QFormLayout* form)
{
    form->addRow(tr("Baselines"), m_baselines);
    auto* buttons = new QHBoxLayout();
    m_start = new QPushButton(tr("Start round"), left);
    m_start->setObjectName("startTraining");
    m_cancel = new QPushButton(tr("Cancel"), left);
    m_cancel->setEnabled(false);
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    form->addRow(buttons);
    m_progress = new QProgressBar(left);
    m_progress->setRange(0, 1000);
    form->addRow(m_progress);
    connect(m_mode, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        // The other mode's default baselines follow the mode; baselines the user typed stay.
        const QString fillDefault = QStringLiteral("bestfit,fgd"), timedDefault = QStringLiteral("firstfit,bestfit");
        if (m_baselines->text() == (i == 0 ? timedDefault : fillDefault))
            m_baselines->setText(i == 0 ? fillDefault : timedDefault);
        m_window->setEnabled(i == 1);
        m_from->setEnabled(i == 1);
        m_pods->setEnabled(i == 0);
        m_wait->setEnabled(i == 1);
        m_skip->setEnabled(i == 1);
        m_room->setEnabled(i == 1);
        m_budgets->setEnabled(i == 1);
    });
    m_window->setEnabled(false);
    m_from->setEnabled(false);
    connect(m_start, &QPushButton::clicked, this, [this] {
        // A budget or seed text that does not parse stops here, with the reason, before any work.
        if (!m_validation->text().trimmed().isEmpty()) {
            if (auto v = workflow::parseSeeds(m_validation->text().trimmed().toStdString()); !v) {
                setProgress(0, tr("validation seeds: %1").arg(QString::fromStdString(v.error().message)));
                m_validation->setFocus();
                return;
            }
        }
        if (m_mode->currentIndex() == 1) {
            if (auto c = rl::Constraints::parse(m_budgets->text().toStdString()); !c) {
                setProgress(0, QString::fromStdString(c.error().message));
                m_budgets->setFocus();
                return;
            }
        }
        emit startRequested(request());
    });
    connect(m_cancel, &QPushButton::clicked, this, &TrainingPanel::cancelRequested);
}

QWidget* TrainingPanel::buildCurves()
{
    auto* split = new QSplitter(Qt::Vertical, this);
    // Per-episode plots: a left and a right axis, the legend below the axes in `columns` columns
    // (so it never hides the curves; one row would be wider than the plot and cut the names).
    auto episodePlot = [&](int minHeight, const QString& left, const QString& right, int columns) {
        auto* p = new QCustomPlot(split);
        p->setMinimumSize(240, minHeight); // its legend would ask for 470 px
        p->xAxis->setLabel(tr("episode"));
        p->yAxis->setLabel(left);
        p->yAxis2->setVisible(true);
        p->yAxis2->setLabel(right);
        p->legend->setVisible(true);
        p->legend->setFont(QFont(font().family(), 8));
        p->axisRect()->insetLayout()->take(p->legend);
        p->plotLayout()->addElement(1, 0, p->legend);
        p->legend->setFillOrder(QCPLegend::foColumnsFirst);
        p->legend->setWrap(columns);
        p->legend->setBorderPen(Qt::NoPen);
        p->plotLayout()->setRowStretchFactor(1, 0.001);
        return p;
    };
    m_plot = episodePlot(180, tr("loss (Huber)"), tr("episode return"), 2);
    // graph 0: loss max, 1: loss min (filled up to max = the envelope), 2: loss mean,
    // 3: return, 4: return smoothed
    QCPGraph* hi = m_plot->addGraph();
    QCPGraph* lo = m_plot->addGraph();
    hi->setPen(Qt::NoPen);
    lo->setPen(Qt::NoPen);
    lo->setBrush(QColor(0, 114, 178, 50));
    lo->setChannelFillGraph(hi);
    hi->setName(tr("loss min/max"));
    m_plot->legend->removeItem(m_plot->legend->itemCount() - 1); // one legend entry for the band
    QCPGraph* mean = m_plot->addGraph();
    mean->setPen(QPen(QColor(0, 114, 178), 2));
    mean->setName(tr("loss (mean)"));
    QCPGraph* ret = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    ret->setPen(QPen(QColor(213, 94, 0, 170), 1.2)); // the raw return, under its smoothed line
    ret->setName(tr("return"));
    QCPGraph* sm = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    sm->setPen(QPen(QColor(213, 94, 0), 2));
    sm->setName(tr("return (smoothed)"));
    m_constraintPlot = episodePlot(140, tr("constraint value"), tr("multiplier"), 3);
    m_constraintPlot->setObjectName("constraintPlot");
    m_constraintPlot->hide();
    m_tree = makeLineageTree(split);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(split, 1);
    auto* show = new QPushButton(tr("Show selected rounds on the dashboard"), right);
    show->setObjectName("showRounds");
    rl->addWidget(show);
    connect(show, &QPushButton::clicked, this, [this] {
        std::vector<std::string> policies;
        for (const std::string& c : selectedCheckpoints())
            policies.push_back("learned:" + c);
        if (!policies.empty())
            emit showOnDashboard(policies);
    });
    return right;
}

void TrainingPanel::setProjectOpen(bool open)
{
    m_projectOpen = open;
    m_start->setEnabled(open && !m_running);
    m_start->setToolTip(open ? tr("Train the rounds on the open trace; each is stored in the project with its evaluation")
                             : tr("Rounds are stored in a project: create or open one first (File > New Project, Ctrl+N)"));
}

void TrainingPanel::setMode(sim::RunMode mode) { m_mode->setCurrentIndex(mode == sim::RunMode::Fill ? 0 : 1); }

TrainRequest TrainingPanel::request() const
{
    TrainRequest r;
    r.mode = m_mode->currentIndex() == 0 ? sim::RunMode::Fill : sim::RunMode::Timed;
    r.windowH = m_window->value();
    r.fromH = m_from->value();
    r.pods = m_pods->value();
    r.episodes = m_episodes->value();
    r.rounds = m_rounds->value();
    r.learningRate = m_lr->value();
    r.gamma = m_gamma->value();
    r.allowWait = m_wait->isChecked() && r.mode == sim::RunMode::Timed;
    r.skip = m_skip->isChecked() && r.mode == sim::RunMode::Timed;
    r.parentRound = m_parent->currentData().toLongLong();
    r.teacher = m_teacher->currentData().toString().toStdString();
    r.keepTeacher = !r.teacher.empty() && m_keepTeacher->isChecked();
    if (!m_validation->text().trimmed().isEmpty())
        if (auto v = workflow::parseSeeds(m_validation->text().trimmed().toStdString()))
            r.validationSeeds = v.value();
    r.blend = m_blend->value();
    if (r.mode == sim::RunMode::Timed) {
        const int room = m_room->currentData().toInt();
        r.migration = room & 1 ? sim::Migration::Defragment : sim::Migration::None;
        r.preemption = room & 2 ? sim::Preemption::Priority : sim::Preemption::None;
        if (auto c = rl::Constraints::parse(m_budgets->text().toStdString()))
            r.constraints = c.value();
    }
    for (const QString& b : m_baselines->text().split(',', Qt::SkipEmptyParts))
        r.baselines.push_back(b.trimmed().toStdString());
    return r;
}

QString TrainingPanel::evaluationText(store::RoundKind kind, const std::vector<store::EvalValue>& values, bool allMetrics)
{
    return views::evaluationText(kind, values, allMetrics);
}

void TrainingPanel::setRounds(const std::vector<store::RoundRow>& rounds, const std::map<int64_t, std::vector<store::EvalValue>>& evaluation,
    const std::map<int64_t, std::vector<std::string>>& overBudget)
{
    showLineage(m_tree, m_parent, m_parentPicked, rounds, evaluation, overBudget);
}

std::vector<std::string> TrainingPanel::selectedCheckpoints() const { return views::selectedCheckpoints(m_tree); }

std::vector<double> TrainingPanel::smooth(const std::vector<double>& values, double alpha)
{
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values)
        out.push_back(out.empty() ? v : alpha * v + (1 - alpha) * out.back());
    return out;
}

void TrainingPanel::clearCurves()
{
    m_episodesSeen.clear();
    replotCurves();
}

void TrainingPanel::addEpisode(int round, const rl::EpisodeStats& s)
{
    (void)round;
    m_episodesSeen.push_back(s);
    replotCurves();
}

void TrainingPanel::replotCurves()
{
    QVector<double> x, hi, lo, mean, ret;
    std::vector<double> returns;
    for (std::size_t i = 0; i < m_episodesSeen.size(); ++i) {
        const rl::EpisodeStats& s = m_episodesSeen[i];
        x.push_back(double(i + 1));
        hi.push_back(s.maxLoss);
        lo.push_back(s.minLoss);
        mean.push_back(s.meanLoss);
        ret.push_back(s.episodeReturn);
        returns.push_back(s.episodeReturn);
    }
    const std::vector<double> sm = smooth(returns);
    m_plot->graph(0)->setData(x, hi, true);
    m_plot->graph(1)->setData(x, lo, true);
    m_plot->graph(2)->setData(x, mean, true);
    m_plot->graph(3)->setData(x, ret, true);
    m_plot->graph(4)->setData(x, QVector<double>(sm.begin(), sm.end()), true);
    m_plot->rescaleAxes();
    m_plot->xAxis->setRange(0.5, std::max(2.0, double(x.size()) + 0.5));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    replotConstraints();
}

void TrainingPanel::replotConstraints()
{
    // Per constraint that is on: its value per episode (solid), its budget (dashed) and the
    // multiplier the episode trained with (dotted, right axis).
    static const QColor colors[rl::kConstraintKinds] = { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115) };
    static const char* units[rl::kConstraintKinds] = { " %", "/h", "/h" };
    QCustomPlot* p = m_constraintPlot;
    p->clearGraphs();
    bool any = false;
    for (int k = 0; k < rl::kConstraintKinds; ++k) {
        QVector<double> x, value, budget, lambda;
        for (std::size_t i = 0; i < m_episodesSeen.size(); ++i) {
            const rl::ConstraintTrace& c = m_episodesSeen[i].constraints;
            if (c.budget[std::size_t(k)] < 0)
                continue;
            x.push_back(double(i + 1));
            value.push_back(c.value[std::size_t(k)]);
            budget.push_back(c.budget[std::size_t(k)]);
            lambda.push_back(c.multiplier[std::size_t(k)]);
        }
        if (x.isEmpty())
            continue;
        any = true;
        const QString name = QString::fromLatin1(rl::constraintName(rl::ConstraintKind(k)));
        QCPGraph* v = p->addGraph();
        v->setPen(QPen(colors[k], 2));
        v->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        v->setName(name + QString::fromLatin1(units[k]));
        v->setData(x, value, true);
        QCPGraph* b = p->addGraph();
        b->setPen(QPen(colors[k], 1.2, Qt::DashLine));
        b->setName(tr("budget"));
        b->setData(x, budget, true);
        QCPGraph* l = p->addGraph(p->xAxis, p->yAxis2);
        l->setPen(QPen(colors[k], 1.5, Qt::DotLine));
        l->setName(QStringLiteral("λ %1").arg(name));
        l->setData(x, lambda, true);
    }
    p->setVisible(any);
    if (!any)
        return;
    p->rescaleAxes();
    p->yAxis->setRangeLower(std::min(0.0, p->yAxis->range().lower));
    p->yAxis2->setRangeLower(0);
    if (p->yAxis2->range().upper <= 0)
        p->yAxis2->setRangeUpper(1);
    p->xAxis->setRange(0.5, std::max(2.0, double(m_episodesSeen.size()) + 0.5));
    p->replot(QCustomPlot::rpQueuedReplot);
}

void TrainingPanel::setRunning(bool running)
{
    m_running = running;
    m_start->setEnabled(!running && m_projectOpen);
    m_cancel->setEnabled(running);
    if (!running)
        m_progress->setValue(m_progress->maximum());
}

void TrainingPanel::setProgress(double fraction, const QString& text)
{
    m_progress->setValue(int(fraction * 1000));
    m_progress->setFormat(text.isEmpty() ? QStringLiteral("%p%") : text + QStringLiteral("  %p%"));
}

} // namespace schedlab::views
