#include "node_state_model.h"

#include <algorithm>

namespace schedlab::views {

NodeStateModel::NodeStateModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void NodeStateModel::setState(std::shared_ptr<const cluster::ClusterState> state, std::shared_ptr<const trace::Trace> trace,
    std::map<int, int> ranks, int chosen, trace::TaskRequest request)
{
    m_request = request;
    beginResetModel();
    m_state = std::move(state);
    m_trace = std::move(trace);
    m_ranks = std::move(ranks);
    m_chosen = chosen;
    endResetModel();
}

int NodeStateModel::rowCount(const QModelIndex& parent) const { return parent.isValid() || !m_state ? 0 : m_state->nodeCount(); }

int NodeStateModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant NodeStateModel::data(const QModelIndex& index, int role) const
{
    if (!m_state || !index.isValid())
        return {};
    const int n = index.row();
    const cluster::ClusterState& s = *m_state;
    auto rank = m_ranks.find(n);
    if (role == HighlightRole)
        return n == m_chosen ? 2 : rank != m_ranks.end() ? 1 : 0;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == GpuShares || index.column() == Fit ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                                                    : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    const bool sortKey = role == Qt::UserRole;
    if (!sortKey && role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Node: return n;
    case Name:
        return m_trace && std::size_t(n) < m_trace->nodes.size() ? QString::fromStdString(m_trace->nodes[std::size_t(n)].name) : QString();
    case Fit: {
        const cluster::Misfit m = s.misfit(n, m_request);
        return sortKey ? QVariant(int(m)) : QVariant(QString::fromLatin1(cluster::misfitName(m)));
    }
    case FreeCpu:
        return sortKey ? QVariant(qlonglong(s.freeCpu(n))) : QVariant(QStringLiteral("%1 / %2").arg(s.freeCpu(n)).arg(s.capCpu(n)));
    case FreeMem:
        return sortKey ? QVariant(qlonglong(s.freeMem(n))) : QVariant(QStringLiteral("%1 / %2").arg(s.freeMem(n)).arg(s.capMem(n)));
    case FreeGpu:
        return sortKey ? QVariant(qlonglong(s.freeGpuMilli(n)))
                       : QVariant(QStringLiteral("%1 / %2").arg(s.freeGpuMilli(n)).arg(s.numGpu(n) * cluster::kGpuMilli));
    case GpuShares: {
        if (sortKey)
            return s.fullyFreeGpus(n);
        QString text;
        for (int g = 0; g < s.numGpu(n); ++g)
            text += (g ? "," : "") + QString::number(s.gpuFree(n, g));
        return text;
    }
    case Share: return sortKey ? QVariant(s.dominantShare(n)) : QVariant(QString::number(100.0 * s.dominantShare(n), 'f', 1) + " %");
    case Candidate:
        if (rank == m_ranks.end())
            return sortKey ? QVariant(1 << 30) : QVariant();
        return sortKey ? QVariant(rank->second) : QVariant(n == m_chosen ? QStringLiteral("%1 (chosen)").arg(rank->second) : QString::number(rank->second));
    }
    return {};
}

QVariant NodeStateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = { "node", "name", "fits the request?", "free cpu (m)", "free mem (MiB)", "free GPU (milli)", "free per GPU", "dominant share",
        "candidate rank" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace schedlab::views
