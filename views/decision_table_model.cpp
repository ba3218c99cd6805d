#include "decision_table_model.h"

#include <cmath>
#include <limits>

namespace schedlab::views {

DecisionTableModel::DecisionTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DecisionTableModel::setIndex(std::shared_ptr<const incident::RunIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    m_axis = m_index ? workflow::RunAxis(m_index->fill.get(), m_index->timed.get()) : workflow::RunAxis();
    endResetModel();
}

int DecisionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_index ? 0 : int(m_index->decisions.size());
}

int DecisionTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString DecisionTableModel::timeText(double t) const
{
    if (!m_index || m_axis.counts())
        return QString::number(qlonglong(t)); // a pod number
    return QStringLiteral("%1 h").arg(m_axis.plotXOfSeconds(t), 0, 'f', 3);
}

QVariant DecisionTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_index || !index.isValid() || index.row() >= rowCount())
        return {};
    const sim::Decision& d = m_index->decisions.decisions()[std::size_t(index.row())];
    const trace::Trace& tr = *m_index->trace;
    const policy::Candidate* top = m_index->decisions.candidatesOf(d);
    int rank = -1;
    for (int i = 0; i < d.candidateCount; ++i)
        if (d.outcome == sim::Outcome::Placed && top[i].node == d.node)
            rank = i + 1;
    const float* reward = m_index->decisions.rewardOf(d);
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case Index: return index.row();
        case Time: return d.timeS;
        case Job: return d.job;
        case Task: return d.task;
        case Outcome: return int(d.outcome);
        case Node: return d.node;
        case Feasible: return d.feasible;
        case TopScore: return d.candidateCount ? top[0].score : std::numeric_limits<double>::lowest();
        case Rank: return rank;
        case Reward: return reward ? double(reward[sim::kRewardTerms - 1]) : std::numeric_limits<double>::lowest();
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Job || index.column() == Outcome ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                                                  : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Index: return index.row();
    case Time: return timeText(d.timeS);
    case Job: {
        if (d.job < 0)
            return QStringLiteral("pod %1").arg(d.task);
        const auto name = tr.jobNameView(tr.jobs[std::size_t(d.job)]);
        return name.empty() ? QString::number(d.job) : QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    case Task: return d.task;
    case Outcome: return QString::fromLatin1(incident::outcomeName(d.outcome));
    case Node: return d.node >= 0 ? QVariant(d.node) : QVariant(QStringLiteral("—"));
    case Feasible: return d.feasible;
    case TopScore: return d.candidateCount ? QVariant(QString::number(top[0].score, 'g', 5)) : QVariant();
    case Rank: return rank > 0 ? QVariant(rank) : QVariant();
    case Reward: return reward ? QVariant(QString::number(double(reward[sim::kRewardTerms - 1]), 'f', 4)) : QVariant();
    }
    return {};
}

QVariant DecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = { "#", "time", "job", "task", "outcome", "node", "feasible", "best score", "rank", "reward" };
    if (section == Time && m_index && m_index->spec.isFill())
        return tr("pod");
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

DecisionFilterProxy::DecisionFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_from(std::nan(""))
    , m_to(std::nan(""))
{
    setSortRole(Qt::UserRole);
}

void DecisionFilterProxy::setJobFilter(const QString& text)
{
    m_job = text.trimmed();
    invalidateFilter();
}

void DecisionFilterProxy::setNodeFilter(int node)
{
    m_node = node;
    invalidateFilter();
}

void DecisionFilterProxy::setOutcomeFilter(int outcome)
{
    m_outcome = outcome;
    invalidateFilter();
}

void DecisionFilterProxy::setTimeRange(double from, double to)
{
    m_from = from;
    m_to = to;
    invalidateFilter();
}

bool DecisionFilterProxy::filterAcceptsRow(int row, const QModelIndex&) const
{
    const auto* model = qobject_cast<const DecisionTableModel*>(sourceModel());
    if (!model || !model->runIndex())
        return true;
    const sim::Decision& d = model->runIndex()->decisions.decisions()[std::size_t(row)];
    if (m_node >= 0 && d.node != m_node)
        return false;
    if (m_outcome >= 0 && int(d.outcome) != m_outcome)
        return false;
    if (!std::isnan(m_from) && d.timeS < m_from)
        return false;
    if (!std::isnan(m_to) && d.timeS > m_to)
        return false;
    if (!m_job.isEmpty()) {
        bool isNumber = false;
        const int n = m_job.toInt(&isNumber);
        if (isNumber)
            return d.job == n || d.task == n;
        return model->data(model->index(row, DecisionTableModel::Job)).toString().contains(m_job, Qt::CaseInsensitive);
    }
    return true;
}

} // namespace schedlab::views
