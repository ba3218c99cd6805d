#pragma once
// The incident panel's background work (JobTracker): indexing a run (a stored run through
// workflow::openStoredRun on a worker with its own read-only project connection; a session run
// from its own journal, else a replay) and forking it. Results go back to the panel on the GUI
// thread; work the panel abandoned (another run or trace picked) is dropped.

#include "incident_panel.h"
#include "job_tracker.h"

#include <QObject>

#include <string>

namespace schedlab::app {

class IncidentController : public QObject {
    Q_OBJECT
public:
    /// Serves `panel` (not owned; outlives the controller as its sibling under one window).
    explicit IncidentController(views::IncidentPanel* panel, QObject* parent = nullptr);
    /// The open project's file ("" = none): stored runs are read from it.
    void setProjectPath(const std::string& path) { m_projectPath = path; }

private:
    void index(const views::RunResult& run, std::shared_ptr<const trace::Trace> trace);
    void fork(std::shared_ptr<const incident::RunIndex> index, int64_t k, const std::string& policy, double window);
    views::IncidentPanel* m_panel;
    JobTracker m_jobs;
    std::string m_projectPath;
};

} // namespace schedlab::app
