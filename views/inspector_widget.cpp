#include "inspector_widget.h"

#include "incident/logged_view.h"

#include "node_state_model.h"

#include "policy/placement_policy.h"

#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace schedlab::views {

namespace {

// Light to dark with the share (0 white-ish, 1 deep orange).
QColor shareColour(double s)
{
    s = std::clamp(s, 0.0, 1.0);
    return QColor::fromRgbF(float(1.0 - 0.05 * s), float(0.95 - 0.55 * s), float(0.85 - 0.8 * s));
}

// Colours the node table's rows by NodeStateModel::HighlightRole.
class HighlightProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::BackgroundRole) {
            const int h = QSortFilterProxyModel::data(index, NodeStateModel::HighlightRole).toInt();
            if (h == 2)
                return QColor(255, 214, 140);
            if (h == 1)
                return QColor(222, 235, 250);
            return {};
        }
        return QSortFilterProxyModel::data(index, role);
    }
};

QTableWidgetItem* item(const QString& text, const QVariant& sortKey = {})
{
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (sortKey.isValid())
        i->setData(Qt::UserRole, sortKey);
    return i;
}

} // namespace

ClusterStrip::ClusterStrip(QWidget* parent)
    : QWidget(parent)
{
    setMinimumHeight(40);
    setToolTip(tr("Every node of the cluster the decision saw: height and colour = dominant share (max of cpu, memory, GPU "
                  "allocated); blue ticks = candidates, red = the chosen node. Click a bar to find the node in the table."));
}

void ClusterStrip::setState(std::shared_ptr<const cluster::ClusterState> state, std::vector<int> candidates, int chosen)
{
    m_state = std::move(state);
    m_candidates = std::move(candidates);
    m_chosen = chosen;
    update();
}

int ClusterStrip::nodeAt(double x) const
{
    if (!m_state || m_state->nodeCount() == 0 || width() <= 0)
        return -1;
    return std::clamp(int(x / width() * m_state->nodeCount()), 0, m_state->nodeCount() - 1);
}

void ClusterStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_state || m_state->nodeCount() == 0)
        return;
    const int n = m_state->nodeCount();
    const double w = double(width()) / n;
    const int h = height() - 8;
    // Nodes binned into at most one bar per pixel: the bar shows the bin's busiest node.
    const int bars = std::min(n, std::max(1, width()));
    for (int b = 0; b < bars; ++b) {
        const int first = int(int64_t(b) * n / bars), last = int(int64_t(b + 1) * n / bars);
        double share = 0;
        for (int i = first; i < std::max(last, first + 1); ++i)
            share = std::max(share, m_state->dominantShare(i));
        const double x0 = double(b) * width() / bars, x1 = double(b + 1) * width() / bars;
        const int bh = std::max(1, int(share * h));
        p.fillRect(QRectF(x0, 8 + h - bh, std::max(1.0, x1 - x0 - (w > 3 ? 1 : 0)), bh), shareColour(share));
    }
    p.setPen(QPen(QColor(0, 114, 178), std::max(1.0, std::min(3.0, w))));
    for (int c : m_candidates)
        p.drawLine(QPointF((c + 0.5) * w, 0), QPointF((c + 0.5) * w, 6));
    if (m_chosen >= 0) {
        p.setPen(QPen(QColor(213, 94, 0), std::max(2.0, std::min(4.0, w))));
        p.drawLine(QPointF((m_chosen + 0.5) * w, 0), QPointF((m_chosen + 0.5) * w, height()));
    }
}

void ClusterStrip::mousePressEvent(QMouseEvent* e)
{
    const int n = nodeAt(e->position().x());
    if (n >= 0)
        emit nodeClicked(n);
}

InspectorWidget::InspectorWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reward = new QLabel(this);
    m_reward->setWordWrap(true);
    m_strip = new ClusterStrip(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_candidates = new QTableWidget(split);
    m_candidates->verticalHeader()->setVisible(false);
    m_candidates->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_candidates->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_candidates->setToolTip(tr("The candidates best first: as the run's policy scored them, and re-scored by the policies "
                                "named above, and the scheduler's own candidates as logged (\"log:\" columns, L = its choice; hover a score for its terms). The logged choice is marked *, each policy's own choice >."));
    m_nodes = new QTableView(split);
    m_nodeModel = new NodeStateModel(this);
    auto* proxy = new HighlightProxy(this);
    proxy->setSourceModel(m_nodeModel);
    proxy->setSortRole(Qt::UserRole);
    m_nodes->setModel(proxy);
    m_nodes->setSortingEnabled(true);
    m_nodes->sortByColumn(NodeStateModel::Candidate, Qt::AscendingOrder);
    m_nodes->verticalHeader()->setVisible(false);
    m_nodes->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_nodes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nodes->horizontalHeader()->setStretchLastSection(true);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(m_header);
    layout->addWidget(m_reward);
    layout->addWidget(m_strip);
    layout->addWidget(split, 1);
    connect(m_strip, &ClusterStrip::nodeClicked, this, [this, proxy](int node) {
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->data(proxy->index(r, NodeStateModel::Node), Qt::UserRole).toInt() == node) {
                m_nodes->selectRow(r);
                m_nodes->scrollTo(proxy->index(r, 0));
            }
    });
    clear(tr("Pick a run and a decision."));
}

QString InspectorWidget::headerText() const { return m_header->text() + "\n" + m_reward->text(); }

void InspectorWidget::clear(const QString& message)
{
    m_header->setText(message);
    m_reward->clear();
    m_strip->setState(nullptr, {}, -1);
    m_candidates->clear();
    m_candidates->setRowCount(0);
    m_candidates->setColumnCount(0);
    m_nodeModel->setState(nullptr, nullptr, {}, -1);
}

void InspectorWidget::setInspection(const incident::Inspection& in, std::shared_ptr<const trace::Trace> trace,
    const std::string& policy, const QString& when)
{
    const sim::Decision& d = in.decision;
    const std::optional<incident::LoggedView> logged = showHeader(in, trace.get(), when);
    showCandidates(in, logged, policy);
    std::map<int, int> ranks;
    std::vector<int> nodes;
    for (std::size_t i = 0; i < in.candidates.size(); ++i) {
        ranks[in.candidates[i].node] = int(i) + 1;
        nodes.push_back(in.candidates[i].node);
    }
    const int chosen = d.outcome == sim::Outcome::Placed ? d.node : -1;
    m_strip->setState(in.state, nodes, chosen);
    const bool newTrace = trace.get() != m_sizedFor;
    m_sizedFor = trace.get();
    m_nodeModel->setState(in.state, std::move(trace), std::move(ranks), chosen, in.request);
    // Sized once per trace, on a sample of rows: measuring every row's text of a 1,200-node table at
    // every step was most of the cost of Alt+Down (70 ms a step on openb).
    if (newTrace) {
        m_nodes->horizontalHeader()->setResizeContentsPrecision(200);
        m_nodes->resizeColumnsToContents();
    }
}

std::optional<incident::LoggedView> InspectorWidget::showHeader(const incident::Inspection& in, const trace::Trace* trace, const QString& when)
{
    const sim::Decision& d = in.decision;
    const trace::TaskRequest& r = in.request;
    QString outcome;
    if (d.outcome == sim::Outcome::Placed)
        outcome = tr("placed on node <b>%1</b>%2").arg(d.node).arg(in.rankOfChoice > 0 ? tr(" (rank %1 of its candidates)").arg(in.rankOfChoice) : QString());
    else if (d.outcome == sim::Outcome::Failed)
        outcome = tr("<b>failed</b>: fits on no node");
    else if (d.outcome == sim::Outcome::Evicted)
        outcome = tr("<b>evicted</b> from node %1 (preempted by a higher-priority job; queued again)").arg(d.node);
    else if (d.outcome == sim::Outcome::Migrated)
        outcome = tr("<b>migrated</b> to node %1 to make room (restarts there)").arg(d.node);
    else
        outcome = tr("<b>waited</b>: no room now");
    QString job = in.jobName.empty() ? (d.job >= 0 ? tr("job %1").arg(d.job) : tr("pod (task %1)").arg(d.task))
                                     : tr("job %1").arg(QString::fromStdString(in.jobName).toHtmlEscaped());
    if (in.submitS >= 0 && d.timeS >= in.submitS)
        job += tr(", waiting %1 s").arg(d.timeS - in.submitS, 0, 'f', 0);
    m_header->setText(tr("<b>Decision %1</b> at %2 — %3, task %4: cpu %5 m, mem %6 MiB, %7 GPU × %8 m<br>%9; %10 feasible nodes. "
                         "Cluster then: GPU %11 % allocated, CPU %12 %, GPU fragmentation rate %13 %, %14 active nodes.")
                          .arg(in.index)
                          .arg(when, job)
                          .arg(d.task)
                          .arg(r.cpuMilli)
                          .arg(r.memMiB)
                          .arg(r.numGpu)
                          .arg(r.gpuMilli)
                          .arg(outcome)
                          .arg(d.feasible)
                          .arg(in.gpuAllocPct, 0, 'f', 2)
                          .arg(in.cpuAllocPct, 0, 'f', 2)
                          .arg(in.gpuFragRatePct, 0, 'f', 2)
                          .arg(in.activeNodes));
    QStringList why;
    for (int m = 0; m < cluster::kMisfitKinds; ++m)
        if (in.misfits[std::size_t(m)])
            why << QStringLiteral("%1 %2").arg(in.misfits[std::size_t(m)]).arg(QString::fromLatin1(cluster::misfitName(cluster::Misfit(m))));
    const QString nodeLine = tr("Nodes for this request: %1.").arg(why.join(", "));
    if (in.reward) {
        const auto& t = *in.reward;
        m_reward->setText(nodeLine + "<br>" + tr("Reward %1 with the default weights (balance 0.4, packing 0.3, success 0.2, custom 0.1) over the terms balance %2, packing %3, success %4, custom %5; tail penalty %6")
                              .arg(double(t[5]), 0, 'f', 4)
                              .arg(double(t[0]), 0, 'f', 3)
                              .arg(double(t[1]), 0, 'f', 3)
                              .arg(double(t[2]), 0, 'f', 3)
                              .arg(double(t[3]), 0, 'f', 3)
                              .arg(double(t[4]), 0, 'f', 3));
    } else {
        m_reward->setText(nodeLine + "<br>" + tr("No reward recorded for this decision (a wait with nothing to choose earns none; runs saved by earlier builds have rewards for the learned policy only)."));
    }
    // What the source scheduler logged about this task (events, its log, a decision log).
    const std::optional<incident::LoggedView> logged = trace ? incident::loggedView(*trace, uint32_t(d.task), d.timeS) : std::nullopt;
    if (logged) {
        static const char* const kOutcome[] = { "placed", "unschedulable", "waited" };
        QString line = tr("<b>Logged</b> by %1: %2")
                           .arg(QString::fromStdString(logged->source.empty() ? std::string("the scheduler") : logged->source).toHtmlEscaped(),
                               QString::fromLatin1(kOutcome[int(logged->outcome)]));
        if (logged->outcome == trace::LoggedOutcome::Placed)
            line += tr(" on node <b>%1</b>").arg(logged->node);
        if (logged->evaluatedNodes >= 0)
            line += tr(", %1 nodes evaluated, %2 feasible").arg(logged->evaluatedNodes).arg(logged->feasibleNodes);
        if (logged->count > 1)
            line += tr(", %1 times").arg(logged->count);
        if (logged->tie)
            line += tr("; its best score was shared (it drew among equals)");
        if (logged->unschedulableBefore > 0)
            line += tr("; %1 unschedulable attempts before").arg(logged->unschedulableBefore);
        QStringList reasons;
        for (const auto& [reason, nodes] : logged->reasons)
            reasons << (nodes >= 0 ? QStringLiteral("%1 %2").arg(nodes).arg(QString::fromStdString(reason).toHtmlEscaped())
                                   : QString::fromStdString(reason).toHtmlEscaped());
        if (!reasons.isEmpty())
            line += tr(". Unfit: %1").arg(reasons.join(", "));
        m_reward->setText(m_reward->text() + "<br>" + line + ".");
    }
    return logged;
}

void InspectorWidget::showCandidates(const incident::Inspection& in, const std::optional<incident::LoggedView>& logged, const std::string& policy)
{
    const sim::Decision& d = in.decision;
    const bool loggedColumn = logged && !logged->candidates.empty();

    // Candidates side by side: one column pair (node, score) per policy, the logged scores second.
    const int policies = 1 + (loggedColumn ? 1 : 0) + int(in.rescored.size());
    std::size_t rows = std::max(in.candidates.size(), loggedColumn ? logged->candidates.size() : 0);
    for (const incident::Rescored& x : in.rescored)
        rows = std::max(rows, x.decision.top.size());
    m_candidates->clear();
    m_candidates->setColumnCount(1 + 2 * policies);
    m_candidates->setRowCount(int(rows));
    QStringList headers { tr("rank") };
    headers << tr("%1 node").arg(QString::fromStdString(policy)) << tr("score");
    if (loggedColumn)
        headers << tr("log: node") << tr("log: score");
    for (const incident::Rescored& x : in.rescored)
        headers << tr("%1 node").arg(QString::fromStdString(x.policy)) << tr("score");
    m_candidates->setHorizontalHeaderLabels(headers);
    // Random's scores are all equal (no preference): "no score" says so, zeros would mislead.
    const bool ownScored = [&] {
        auto p = policy::makePlacementPolicy(policy);
        return !p || p->scoresCandidates();
    }();
    auto fillColumn = [&](int col, const std::vector<policy::Candidate>& c, int ownChoice, bool scored) {
        for (std::size_t i = 0; i < c.size(); ++i) {
            QString mark = c[i].node == d.node && d.outcome == sim::Outcome::Placed ? "*" : "";
            if (c[i].node == ownChoice && col > 1)
                mark += ">";
            auto* n = item(QStringLiteral("%1 %2").arg(c[i].node).arg(mark).trimmed(), c[i].node);
            if (c[i].node == d.node && d.outcome == sim::Outcome::Placed)
                n->setBackground(QColor(255, 214, 140));
            m_candidates->setItem(int(i), col, n);
            m_candidates->setItem(int(i), col + 1, scored ? item(QString::number(c[i].score, 'g', 6), c[i].score) : item(tr("no score")));
        }
    };
    for (std::size_t i = 0; i < rows; ++i)
        m_candidates->setItem(int(i), 0, item(QString::number(i + 1)));
    fillColumn(1, in.candidates, d.node, ownScored);
    if (loggedColumn) { // the scheduler's own candidates and scores; the terms in each score's tooltip
        for (std::size_t i = 0; i < logged->candidates.size(); ++i) {
            const incident::LoggedView::Candidate& c = logged->candidates[i];
            const bool chosenHere = c.node == logged->node && logged->outcome == trace::LoggedOutcome::Placed;
            auto* n = item(c.node >= 0 ? QStringLiteral("%1%2").arg(c.node).arg(chosenHere ? " L" : "") : tr("(unknown)"), c.node);
            if (chosenHere)
                n->setBackground(QColor(170, 220, 255));
            m_candidates->setItem(int(i), 3, n);
            const double total = incident::loggedTotal(c);
            auto* score = item(QString::number(total, 'g', 6), total);
            QStringList terms;
            for (const auto& [name, value] : c.terms)
                terms << QStringLiteral("%1 = %2").arg(QString::fromStdString(name)).arg(value, 0, 'g', 6);
            score->setToolTip(terms.isEmpty() ? tr("no per-term scores logged") : terms.join("\n"));
            m_candidates->setItem(int(i), 4, score);
        }
    }
    const int firstRescored = loggedColumn ? 5 : 3;
    for (std::size_t p = 0; p < in.rescored.size(); ++p)
        fillColumn(firstRescored + 2 * int(p), in.rescored[p].decision.top, in.rescored[p].decision.node, in.rescored[p].scored);
    if (rows == 0) { // waited or failed with nothing feasible: say why the table is empty
        m_candidates->setRowCount(1);
        QString why = tr("no candidate: nothing fit");
        if (d.outcome == sim::Outcome::Waited)
            why = tr("no candidate: nothing fit, the job waited");
        else if (d.outcome == sim::Outcome::Evicted)
            why = tr("evicted from node %1 to make room for a higher-priority job").arg(d.node);
        else if (d.outcome == sim::Outcome::Migrated)
            why = tr("moved to node %1 to make room for a waiting job").arg(d.node);
        m_candidates->setItem(0, 1, item(why));
    }
    m_candidates->resizeColumnsToContents();
}

} // namespace schedlab::views
