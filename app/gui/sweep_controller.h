#pragma once
// The Sweeps tab's background work (JobTracker): reading a plan's shard files (and the open
// project, for merged cells) on a worker with read-only connections, every few seconds while cells
// are unfinished and auto-refresh is on; merging the finished cells into the open project on a
// worker with its own connection. The window opens cells on the dashboard (main_window_sweep.cpp).

#include "job_tracker.h"
#include "sweep_view.h"

#include <QObject>
#include <QTimer>

#include <string>

namespace schedlab::app {

class SweepController : public QObject {
    Q_OBJECT
public:
    /// Serves `view` (not owned; outlives the controller as its sibling under one window).
    explicit SweepController(views::SweepView* view, QObject* parent = nullptr);
    /// Reads the plan and shows it; errors name the file and the JSON path.
    Status openPlan(const QString& path);
    /// The open project's file ("" = none): merged cells are read from it and merged into it.
    void setProjectPath(const std::string& path);
    /// Reads the shard files again (now, on a worker).
    void refresh();
    /// Copies the finished cells into the open project; `merged` when done.
    void merge();
    bool isBusy() const { return m_reads.isRunning() || m_merges.isRunning(); }
    /// Seconds between automatic reads.
    void setInterval(int ms) { m_timer.setInterval(ms); }

signals:
    /// A read finished (the view shows it).
    void progressRead();
    /// A merge finished: `copied` runs are new in the project (0 when nothing was new).
    void merged(int copied);
    void failed(const QString& error);

private:
    void scheduleNext();
    views::SweepView* m_view;
    store::SweepPlan m_plan;
    std::string m_projectPath;
    JobTracker m_reads, m_merges;
    QTimer m_timer;
};

} // namespace schedlab::app
