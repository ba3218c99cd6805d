#pragma once
// The cells of a sweep as a table (one row per cell: shard, trace, policy, seed, status, three
// chosen summary metrics and whether the cell is on their Pareto front). Qt Core only, so it is
// testable headless. The Sweeps view plots the same metrics.

#include "metrics/pareto.h"
#include "store/sweep_plan.h"
#include "workflow/sweep_progress.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <array>

namespace schedlab::views {

class SweepCellModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Cell, Shard, Trace, Policy, Seed, Status, MetricX, MetricY, MetricZ, Front, ColumnCount };
    /// Sort key of a cell (numbers as numbers); DisplayRole is text.
    static constexpr int SortRole = Qt::UserRole + 1;
    explicit SweepCellModel(QObject* parent = nullptr);

    void setPlan(const store::SweepPlan& plan);
    void setProgress(const workflow::SweepProgress& progress);
    const store::SweepPlan& plan() const { return m_plan; }
    const workflow::SweepProgress& progress() const { return m_progress; }
    /// The summary keys of the finished cells, sorted.
    QStringList metricKeys() const { return m_keys; }
    /// The metrics of the X, Y and Z columns ("" = none); the front is over the chosen ones.
    void setMetrics(const QString& x, const QString& y, const QString& z);
    QString metric(int axis) const { return m_metrics[std::size_t(axis)]; }
    /// Defaults for the mode: timed p99 wait / GPU fragmentation rate / GPU utilisation; fill
    /// fragmentation amount / GPU allocation / failed pods; training cells the same from their
    /// evaluation's names.
    static std::array<QString, 3> defaultMetrics(const std::string& mode, bool training = false);
    /// Utilisation, allocation and completions are maximised, everything else minimised.
    static metrics::Sense senseOf(const QString& key);
    /// A finished (or merged) cell's value of `key`; NaN when it has none.
    double value(int cell, const QString& key) const;
    bool finished(int cell) const;
    bool onFront(int cell) const { return std::size_t(cell) < m_front.size() && m_front[std::size_t(cell)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void recomputeFront();
    store::SweepPlan m_plan;
    workflow::SweepProgress m_progress;
    QStringList m_keys;
    std::array<QString, 3> m_metrics;
    std::vector<bool> m_front;
};

} // namespace schedlab::views
