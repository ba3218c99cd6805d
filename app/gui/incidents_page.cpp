#include "incidents_page.h"

#include "incident_controller.h"

#include <QVBoxLayout>

namespace schedlab::app {

IncidentsPage::IncidentsPage(const ProjectSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_panel = new views::IncidentPanel(this);
    layout->addWidget(m_panel);
    m_controller = new IncidentController(m_panel, this);
    connect(m_panel, &views::IncidentPanel::cursorRequested, this, &IncidentsPage::cursorRequested);
    connect(m_panel, &views::IncidentPanel::forkFinished, this, [this](views::RunResult r) {
        r.fork = true;
        emit forkFinished(r);
    });
    connect(m_panel, &views::IncidentPanel::forkFailed, this, &IncidentsPage::errorOccurred);
}

void IncidentsPage::setRuns(const std::vector<views::RunResult>& runs, std::shared_ptr<const trace::Trace> trace)
{
    m_controller->setProjectPath(m_session->isOpen() ? m_session->path().toStdString() : std::string());
    m_panel->setRuns(runs, std::move(trace));
}

void IncidentsPage::followDashboardClick(double x, int runId) { m_panel->followDashboardClick(x, runId); }

} // namespace schedlab::app
