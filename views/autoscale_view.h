#pragma once
// The Autoscaling tab: a service's request load replayed under replica policies (core/autoscale).
// Controls (load file, service file, policies, window), a summary table per policy, and four
// plots linked in time: load vs ready capacity, replicas (override windows shaded), p99 latency
// (the SLO drawn) and cumulative cost. It asks by signal (runRequested, cancelRequested) and
// shows what it is handed; app/gui/AutoscaleController does the work.

#include "autoscale/autoscale_replay.h"
#include "base/result.h"

#include <QWidget>

#include <vector>

class QHBoxLayout;
class QVBoxLayout;
class QCheckBox;
class QComboBox;
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
    /// A learned replica policy's checkpoint (train --mode autoscale): adds "learned" to the
    /// policies, checked (learned:path in the request).
    void setModelPath(const QString& path);
    AutoscaleRequest request() const;
    /// Replays under way: progress 0..1, or -1 when none runs.
    void setProgress(double fraction);
    void showResults(const autoscale::LoadSeries& load, const autoscale::ServiceConfig& service,
        const std::vector<autoscale::AutoscaleResult>& results);
    void showError(const QString& text);
    /// A forked run (autoscale_replay.h, AutoscaleOptions::switchTo) added to the plots and the
    /// table; the plots zoom to the fork.
    void addFork(const autoscale::AutoscaleResult& result, double atS);

    /// Incidents of the run chosen in the incidents row (worst first), as listed.
    const std::vector<autoscale::AutoscaleIncident>& incidents() const { return m_incidents; }
    /// Selects incident `i` of the listed ones: the plots zoom to it.
    void selectIncident(int i);
    /// Asks to fork the chosen run at the chosen incident under `policy` (forkRequested).
    void requestFork(const std::string& policy);
    const std::vector<autoscale::AutoscaleResult>& results() const { return m_results; }
    /// The decision at the chosen incident: its state and, for a learned policy, each action's Q.
    void showDecision(const autoscale::AutoscaleDecision& d);
    QString decisionText() const;
    /// Every run's per-minute series as CSV (policy, t, rate, ready, replicas, capacity, p99,
    /// missed share, backlog) after a '#' line per run with its summary.
    Status exportCsv(const QString& path) const;
    /// The four plots as one PNG.
    bool exportPng(const QString& path);

    QTableWidget* summary() const { return m_summary; }
    const std::vector<QCustomPlot*>& plots() const { return m_plots; }
    QString statusText() const;

signals:
    void runRequested();
    void cancelRequested();
    void openLoadRequested();
    void openServiceRequested();
    void openModelRequested();
    /// Replay run `run` (of results()) again, switched to `policy` at `atS`.
    void forkRequested(int run, double atS, const std::string& policy);
    /// An incident was chosen: the decision its run made there is wanted (showDecision).
    void decisionRequested(int run, double atS);

private:
    void buildPolicyRow(QVBoxLayout* layout);
    void buildRunRow(QVBoxLayout* layout, QHBoxLayout* files);
    void buildIncidentRow(QVBoxLayout* layout);
    void buildResults(QVBoxLayout* layout);
    void linkRange(int from);
    void render();
    void listIncidents();
    void zoomTo(double fromS, double toS);
    QLabel* m_load;
    QLabel* m_service;
    QLabel* m_status;
    QLabel* m_decision;
    std::vector<std::pair<QCheckBox*, std::string>> m_policyBoxes;
    QCheckBox* m_learned;
    QString m_modelPath;
    QCheckBox* m_static;
    QSpinBox* m_staticN;
    QDoubleSpinBox* m_fromH;
    QDoubleSpinBox* m_windowH;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QTableWidget* m_summary;
    std::vector<QCustomPlot*> m_plots;
    QComboBox* m_incidentRun;
    QComboBox* m_incidentList;
    QComboBox* m_forkPolicy;
    QPushButton* m_fork;
    QString m_loadPath, m_servicePath;
    bool m_linking = false;
    std::string m_loadName, m_loadSource;
    double m_loadRequests = 0;
    std::size_t m_loadSteps = 0;
    autoscale::ServiceConfig m_shownService;
    std::vector<autoscale::AutoscaleResult> m_results;
    std::vector<autoscale::AutoscaleIncident> m_incidents;
};

} // namespace schedlab::views
