#pragma once
// Every node of the cluster a decision saw, one row each: free and total cpu, memory, GPUs (free
// share of each GPU), dominant share, and the node's rank among the decision's candidates.
// Qt Core only; Qt::UserRole gives numbers for sorting.

#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <QAbstractTableModel>

#include <map>
#include <memory>

namespace schedlab::views {

class NodeStateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Node, Name, Fit, FreeCpu, FreeMem, FreeGpu, GpuShares, Share, Candidate, ColumnCount };
    /// 2 = the chosen node, 1 = a candidate, 0 = other (widgets colour rows by it).
    static constexpr int HighlightRole = Qt::UserRole + 1;
    explicit NodeStateModel(QObject* parent = nullptr);
    /// `ranks`: node -> 1-based rank among the candidates; `chosen` is marked (-1 = none);
    /// `request`: the Fit column says why each node could (not) host it.
    void setState(std::shared_ptr<const cluster::ClusterState> state, std::shared_ptr<const trace::Trace> trace,
        std::map<int, int> ranks, int chosen, trace::TaskRequest request = {});
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const cluster::ClusterState> m_state;
    std::shared_ptr<const trace::Trace> m_trace;
    std::map<int, int> m_ranks;
    int m_chosen = -1;
    trace::TaskRequest m_request;
};

} // namespace schedlab::views
