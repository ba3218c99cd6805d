#pragma once
// The decisions of an indexed run as a table (one row per decision) and a filter proxy (job,
// node, outcome, time range). Qt Core only, testable headless. Qt::UserRole gives numbers for
// sorting.

#include "incident/run_index.h"
#include "workflow/run_series.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace schedlab::views {

class DecisionTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Time, Job, Task, Outcome, Node, Feasible, TopScore, Rank, Reward, ColumnCount };
    explicit DecisionTableModel(QObject* parent = nullptr);
    void setIndex(std::shared_ptr<const incident::RunIndex> index);
    const incident::RunIndex* runIndex() const { return m_index.get(); }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// Time column text: timed runs in hours since the first decision, fill runs the pod number.
    QString timeText(double t) const;

private:
    std::shared_ptr<const incident::RunIndex> m_index;
    workflow::RunAxis m_axis; ///< the run's x: pod numbers or hours since the first tick
};

/// Rows of a DecisionTableModel that match every set filter.
class DecisionFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DecisionFilterProxy(QObject* parent = nullptr);
    /// Substring of the job name, or the job/task index; empty = any.
    void setJobFilter(const QString& text);
    /// -1 = any node.
    void setNodeFilter(int node);
    /// -1 = any; else an sim::Outcome value.
    void setOutcomeFilter(int outcome);
    /// Decision time range (timed: s; fill: pod number); NaN = open end.
    void setTimeRange(double from, double to);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString m_job;
    int m_node = -1;
    int m_outcome = -1;
    double m_from, m_to;
};

} // namespace schedlab::views
