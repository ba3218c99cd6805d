#pragma once
// The Autoscaling tab's work (JobTracker): reading the load and the service file and replaying the
// load under each checked policy on a worker, with progress and cancel; results go back to the
// view on the GUI thread. Opening files asks the user (dialogs) and remembers the folders.

#include "autoscale_view.h"
#include "job_tracker.h"

#include "store/project.h"

#include <QObject>

#include <functional>

namespace schedlab::app {

/// A load file and a service file (the defaults when empty), read (on a worker).
Result<std::pair<autoscale::LoadSeries, autoscale::ServiceConfig>> readAutoscaleInputs(const QString& loadPath, const QString& servicePath);

class AutoscaleController : public QObject {
    Q_OBJECT
public:
    explicit AutoscaleController(views::AutoscaleView* view, QObject* parent = nullptr);
    /// Replays the view's request now (false with the reason shown when it cannot start).
    bool run();
    bool isRunning() const { return m_jobs.isRunning(); }
    /// Replays run `run` of the view's results switched to `policy` at `atS` (a fork) and adds it.
    bool fork(int run, double atS, const std::string& policy);
    /// The decision run `run`'s policy made at or before `atS`, shown in the view (decisionShown).
    bool decision(int run, double atS);
    /// The project runs are stored in when one is open (the window's session); null = none.
    void setProjectProvider(std::function<store::Project*()> provider) { m_project = std::move(provider); }
    /// Ids of the runs the last replay stored in the project (empty when none was open).
    const std::vector<int64_t>& storedIds() const { return m_storedIds; }

signals:
    void finished(bool ok);
    void decisionShown();

private:
    views::AutoscaleView* m_view;
    views::AutoscaleRequest m_last; ///< what the shown results replayed
    /// The policy spec (as makeAnyReplicaPolicy takes it) of a run shown under `runName`.
    std::string specOf(const std::string& runName) const;
    /// Stores the runs in the open project (the view says so when it cannot).
    void storeRuns(const std::vector<autoscale::AutoscaleResult>& results);
    std::function<store::Project*()> m_project;
    std::vector<int64_t> m_storedIds;
    JobTracker m_jobs;
    JobTracker m_decisionJobs; ///< the decision at a chosen incident (beside runs and forks)
};

} // namespace schedlab::app
