#pragma once
// The jobs of a trace as a table (one row per job). Qt Core only, so it is testable headless.

#include "trace/trace.h"

#include <QAbstractTableModel>

#include <memory>

namespace schedlab::views {

class JobTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Submit, Run, Requested, Tasks, Cpu, Mem, Gpus, GpuMilli, Qos, LoggedStart, ColumnCount };
    explicit JobTableModel(QObject* parent = nullptr);
    void setTrace(std::shared_ptr<const trace::Trace> trace);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const trace::Trace> m_trace;
};

} // namespace schedlab::views
