#pragma once
// The Sweeps tab: a sweep plan's cells with their status as the shard files report it (table),
// and the finished cells as points on two chosen metrics with the Pareto front over up to three
// marked (plot). A point or row opens its cell on the dashboard. The reading, merging and
// polling are the workbench's (app/gui/sweep_controller.h); this widget shows and asks.

#include "sweep_cell_model.h"

#include "base/result.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace schedlab::views {

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    /// A plan opened (its path shown); every cell waiting until progress arrives.
    void setPlan(const QString& path, const store::SweepPlan& plan);
    void setProgress(const workflow::SweepProgress& progress);
    /// A line under the title: reading, merging, errors.
    void setMessage(const QString& text);
    QString planPath() const { return m_planPath; }
    bool hasPlan() const { return !m_planPath.isEmpty(); }
    bool autoRefresh() const;
    void setMetrics(const QString& x, const QString& y, const QString& z);

    SweepCellModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    QString titleText() const;
    QString messageText() const;
    /// The cell the table's current row shows, -1 when none.
    int currentCell() const;
    void selectCell(int cell);
    /// Writes the table (every cell, every summary metric of the finished ones) as CSV.
    Status exportCsv(const QString& path) const;

signals:
    void openPlanRequested();
    void refreshRequested();
    void mergeRequested();
    void openCellRequested(int cell);
    void autoRefreshChanged(bool on);

private:
    void replot();
    void updateTitle();
    void fillMetricCombos();
    void plotClicked(QMouseEvent* e, bool open);

    SweepCellModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QCustomPlot* m_plot;
    QLabel* m_title;
    QLabel* m_message;
    QProgressBar* m_bar;
    QComboBox* m_x;
    QComboBox* m_y;
    QComboBox* m_z;
    QCheckBox* m_auto;
    QPushButton* m_merge;
    QString m_planPath;
    std::vector<std::pair<double, double>> m_points; ///< (x, y) per cell as plotted (NaN = none)
};

} // namespace schedlab::views
