#pragma once
// The Incidents tab: a run's decisions, stepped and inspected, and forks from any of them
// (IncidentPanel), indexed and forked off the GUI thread (IncidentController). It follows the
// dashboard's cursor and moves it; a finished fork is a run the window lists.

#include "incident_panel.h"
#include "project_session.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace schedlab::app {

class IncidentController;

class IncidentsPage : public QWidget {
    Q_OBJECT
public:
    /// Stored runs are read from `session`'s project (not owned; outlives the page).
    explicit IncidentsPage(const ProjectSession* session, QWidget* parent = nullptr);
    views::IncidentPanel* panel() const { return m_panel; }
    /// The runs that can be replayed (no forks) on the open trace.
    void setRuns(const std::vector<views::RunResult>& runs, std::shared_ptr<const trace::Trace> trace);
    /// A click on the dashboard at `x` about run `runId`: the nearest decision is selected.
    void followDashboardClick(double x, int runId);

signals:
    /// The dashboard cursor should move here (dashboard units).
    void cursorRequested(double x);
    /// A fork finished: a run (RunResult::fork set) for the window to list.
    void forkFinished(const schedlab::views::RunResult& result);
    void errorOccurred(const QString& text);

private:
    const ProjectSession* m_session;
    views::IncidentPanel* m_panel = nullptr;
    IncidentController* m_controller = nullptr;
};

} // namespace schedlab::app
