// The cells of a sweep as a table (sweep_cell_model.h).

#include "sweep_cell_model.h"

#include <QFileInfo>

#include <cmath>
#include <set>

namespace schedlab::views {

SweepCellModel::SweepCellModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SweepCellModel::setPlan(const store::SweepPlan& plan)
{
    beginResetModel();
    m_plan = plan;
    m_progress = {};
    m_progress.cells.resize(plan.cells.size());
    m_keys.clear();
    const std::string mode = !plan.cells.empty() && plan.cells.front().spec.isFill() ? "fill" : "timed";
    const auto d = defaultMetrics(mode, !plan.cells.empty() && plan.cells.front().train.has_value());
    m_metrics = d;
    recomputeFront();
    endResetModel();
}

void SweepCellModel::setProgress(const workflow::SweepProgress& progress)
{
    if (progress.cells.size() != m_plan.cells.size())
        return;
    m_progress = progress;
    std::set<QString> keys;
    for (const workflow::CellProgress& c : m_progress.cells)
        for (const auto& [k, v] : c.summary)
            keys.insert(QString::fromStdString(k));
    m_keys = QStringList(keys.begin(), keys.end());
    recomputeFront();
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void SweepCellModel::setMetrics(const QString& x, const QString& y, const QString& z)
{
    m_metrics = { x, y, z };
    recomputeFront();
    emit headerDataChanged(Qt::Horizontal, MetricX, MetricZ);
    if (rowCount() > 0)
        emit dataChanged(index(0, MetricX), index(rowCount() - 1, Front));
}

std::array<QString, 3> SweepCellModel::defaultMetrics(const std::string& mode, bool training)
{
    // Training cells report their last round's evaluation (rl::evalMetrics).
    if (training)
        return mode == "fill" ? std::array<QString, 3> { "fragRatePct", "finalGpuAllocPct", "failedPods" }
                              : std::array<QString, 3> { "waitP99S", "meanGpuUtilPct", "failed" };
    if (mode == "fill")
        return { "finalFragAmount", "finalGpuAllocPct", "failed" };
    return { "wait.p99", "meanGpuFragRate", "meanGpuUtil" };
}

metrics::Sense SweepCellModel::senseOf(const QString& key)
{
    const bool more = key.contains("Util", Qt::CaseInsensitive) || key.contains("Alloc") || key == "completed" || key == "placed"
        || key == "pods" || key == "units";
    return more ? metrics::Sense::Maximise : metrics::Sense::Minimise;
}

bool SweepCellModel::finished(int cell) const
{
    if (cell < 0 || std::size_t(cell) >= m_progress.cells.size())
        return false;
    const workflow::CellStatus s = m_progress.cells[std::size_t(cell)].status;
    return s == workflow::CellStatus::Finished || s == workflow::CellStatus::Merged;
}

double SweepCellModel::value(int cell, const QString& key) const
{
    if (!finished(cell) || key.isEmpty())
        return NAN;
    const auto& s = m_progress.cells[std::size_t(cell)].summary;
    const auto it = s.find(key.toStdString());
    return it == s.end() ? NAN : it->second;
}

void SweepCellModel::recomputeFront()
{
    std::vector<metrics::Sense> senses;
    std::vector<QString> keys;
    for (const QString& k : m_metrics)
        if (!k.isEmpty()) {
            keys.push_back(k);
            senses.push_back(senseOf(k));
        }
    std::vector<std::vector<double>> points(m_plan.cells.size());
    for (std::size_t c = 0; c < points.size(); ++c)
        for (const QString& k : keys)
            points[c].push_back(value(int(c), k));
    m_front = senses.empty() ? std::vector<bool>(points.size(), false) : metrics::paretoFront(points, senses);
}

int SweepCellModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_plan.cells.size()); }

int SweepCellModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SweepCellModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_plan.cells.size())
        return {};
    const int row = index.row();
    const store::SweepCell& c = m_plan.cells[std::size_t(row)];
    const workflow::CellProgress& p = m_progress.cells[std::size_t(row)];
    const int col = index.column();
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(workflow::cellStatusName(p.status));
        if (!p.file.empty())
            tip += tr(" in %1 (run %2)").arg(QString::fromStdString(p.file)).arg(p.runId);
        if (!p.error.empty())
            tip += "\n" + QString::fromStdString(p.error);
        if (c.train)
            tip += tr("\ntraining: %1 rounds of %2 episodes, weights %3").arg(c.train->rounds).arg(c.train->episodes).arg(QString::fromStdString(c.train->weights));
        return tip;
    }
    if (role == Qt::TextAlignmentRole)
        return col == Policy || col == Trace || col == Status ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (col) {
    case Cell:
        return c.index;
    case Shard:
        return c.shard;
    case Trace: {
        const auto& files = m_plan.traces[std::size_t(c.trace)].files;
        return files.empty() ? QString::number(c.trace) : QFileInfo(QString::fromStdString(files.back())).fileName();
    }
    case Policy: {
        if (!c.train)
            return QString::fromStdString(c.spec.policy);
        // A training cell: its weights (the first four terms) and rounds.
        const QStringList terms = QString::fromStdString(c.train->weights).split(',');
        return tr("learned ×%1 [%2]").arg(c.train->rounds).arg(terms.mid(0, 4).join(' '));
    }
    case Seed:
        return qulonglong(c.spec.seed());
    case Status:
        return sort ? QVariant(int(p.status)) : QVariant(QString::fromStdString(workflow::cellStatusName(p.status)));
    case MetricX:
    case MetricY:
    case MetricZ: {
        const double v = value(row, m_metrics[std::size_t(col - MetricX)]);
        if (std::isnan(v))
            return sort ? QVariant(-1e300) : QVariant(QString());
        return sort ? QVariant(v) : QVariant(QString::number(v, 'g', 6));
    }
    case Front:
        return sort ? QVariant(onFront(row) ? 1 : 0) : QVariant(onFront(row) ? tr("yes") : QString());
    default:
        return {};
    }
}

QVariant SweepCellModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Cell:
        return tr("Cell");
    case Shard:
        return tr("Shard");
    case Trace:
        return tr("Trace");
    case Policy:
        return tr("Policy");
    case Seed:
        return tr("Seed");
    case Status:
        return tr("Status");
    case MetricX:
    case MetricY:
    case MetricZ: {
        const QString k = m_metrics[std::size_t(section - MetricX)];
        if (k.isEmpty())
            return QStringLiteral("—");
        return k + (senseOf(k) == metrics::Sense::Maximise ? QStringLiteral(" ↑") : QStringLiteral(" ↓"));
    }
    case Front:
        return tr("Pareto");
    default:
        return {};
    }
}

} // namespace schedlab::views
