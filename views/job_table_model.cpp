#include "job_table_model.h"

namespace schedlab::views {

JobTableModel::JobTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void JobTableModel::setTrace(std::shared_ptr<const trace::Trace> trace)
{
    beginResetModel();
    m_trace = std::move(trace);
    endResetModel();
}

int JobTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_trace ? 0 : int(m_trace->jobs.size());
}

int JobTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant JobTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_trace || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const trace::Job& j = m_trace->jobs[std::size_t(index.row())];
    // Sums over the job's tasks (gangs and bags alike).
    int64_t cpu = 0, mem = 0, gpus = 0, gpuMilli = 0;
    double loggedStart = -1;
    for (uint32_t k = 0; k < j.taskCount; ++k) {
        const trace::Task& t = m_trace->tasks[j.firstTask + k];
        cpu += t.request.cpuMilli;
        mem += t.request.memMiB;
        gpus += t.request.numGpu;
        gpuMilli += t.request.totalGpuMilli();
        if (t.logged.startTimeS >= 0 && (loggedStart < 0 || t.logged.startTimeS < loggedStart))
            loggedStart = t.logged.startTimeS;
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Qos ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // Sort role: numbers as numbers (the proxy sorts by Qt::UserRole).
    const bool sortRole = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !sortRole)
        return {};
    auto seconds = [&](double s) -> QVariant {
        if (sortRole)
            return s;
        return s < 0 ? QStringLiteral("—") : QString::number(s, 'f', s == double(int64_t(s)) ? 0 : 3);
    };
    switch (Column(index.column())) {
    case Id: return qlonglong(j.id.value);
    case Name: return QString::fromStdString(std::string(m_trace->jobNameView(j)));
    case Submit: return seconds(j.submitTimeS);
    case Run: return seconds(j.runTimeS >= 0 ? j.runTimeS : (j.taskCount ? m_trace->tasks[j.firstTask].runTimeS : -1));
    case Requested: return seconds(j.requestedTimeS);
    case Tasks: return int(j.taskCount);
    case Cpu: return qlonglong(cpu);
    case Mem: return qlonglong(mem);
    case Gpus: return qlonglong(gpus);
    case GpuMilli: return qlonglong(gpuMilli);
    case Qos: return j.qos >= 0 ? QString::fromStdString(m_trace->qosClasses[std::size_t(j.qos)]) : QString();
    case LoggedStart: return seconds(loggedStart);
    case ColumnCount: break;
    }
    return {};
}

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[ColumnCount] = { "Job", "Name", "Submit (s)", "Run (s)", "Requested (s)", "Tasks",
        "CPU (milli)", "Memory (MiB)", "GPUs", "GPU (milli)", "QoS", "Logged start (s)" };
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace schedlab::views
