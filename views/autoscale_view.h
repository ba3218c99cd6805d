#pragma once
// The Autoscaling tab: a service's request load replayed under replica policies (core/autoscale).
// Controls (load file, service file, policies, window), a summary table per policy, and four
// plots linked in time: load vs ready capacity, replicas (override windows shaded), p99 latency
// (the SLO drawn) and cumulative cost. It asks by signal (runRequested, cancelRequested) and
// shows what it is handed; app/gui/AutoscaleController does the work.

#include "autoscale/autoscale_replay.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace schedlab::views {

/// What to replay.
struct AutoscaleRequest {
    QString loadPath, servicePath; ///< servicePath empty: the defaults
    std::vector<std::string> policies;
    double fromS = 0, durationS = 0; ///< 0 = to the end
};

class AutoscaleView : public QWidget {
    Q_OBJECT
public:
    explicit AutoscaleView(QWidget* parent = nullptr);
    void setLoadPath(const QString& path);
    void setServicePath(const QString& path);
    AutoscaleRequest request() const;
    /// Replays under way: progress 0..1, or -1 when none runs.
    void setProgress(double fraction);
    void showResults(const autoscale::LoadSeries& load, const autoscale::ServiceConfig& service,
        const std::vector<autoscale::AutoscaleResult>& results);
    void showError(const QString& text);

    QTableWidget* summary() const { return m_summary; }
    const std::vector<QCustomPlot*>& plots() const { return m_plots; }
    QString statusText() const;

signals:
    void runRequested();
    void cancelRequested();
    void openLoadRequested();
    void openServiceRequested();

private:
    void linkRange(int from);
    QLabel* m_load;
    QLabel* m_service;
    QLabel* m_status;
    std::vector<std::pair<QCheckBox*, std::string>> m_policyBoxes;
    QCheckBox* m_static;
    QSpinBox* m_staticN;
    QDoubleSpinBox* m_fromH;
    QDoubleSpinBox* m_windowH;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QTableWidget* m_summary;
    std::vector<QCustomPlot*> m_plots;
    QString m_loadPath, m_servicePath;
    bool m_linking = false;
};

} // namespace schedlab::views
