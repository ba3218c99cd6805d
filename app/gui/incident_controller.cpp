#include "incident_controller.h"

#include "store/project.h"
#include "workflow/open_run.h"

#include <QPointer>

namespace schedlab::app {

namespace {
struct IndexOutcome {
    std::shared_ptr<const incident::RunIndex> index;
    bool checkedAgainstLog = false; ///< replayed and compared with a stored decision log
};
} // namespace

IncidentController::IncidentController(views::IncidentPanel* panel, QObject* parent)
    : QObject(parent)
    , m_panel(panel)
    , m_jobs(this)
{
    connect(panel, &views::IncidentPanel::indexRequested, this, &IncidentController::index);
    connect(panel, &views::IncidentPanel::forkRequested, this,
        [this](std::shared_ptr<const incident::RunIndex> index, qint64 k, const std::string& policy, double window) {
            fork(std::move(index), k, policy, window);
        });
    connect(panel, &views::IncidentPanel::cancelRequested, this, [this] { m_jobs.cancel(); });
    connect(panel, &views::IncidentPanel::abandoned, this, [this] { m_jobs.reset(); });
}

void IncidentController::index(const views::RunResult& run, std::shared_ptr<const trace::Trace> trace)
{
    m_jobs.reset();
    const std::string projectPath = run.storedId >= 0 ? m_projectPath : std::string();
    QPointer<views::IncidentPanel> panel(m_panel);
    m_jobs.launch(
        [trace, run, projectPath](ProgressFn progress, CancelToken cancel) -> Result<IndexOutcome> {
            if (projectPath.empty()) {
                auto index = workflow::indexOutcome(run, trace, progress, cancel);
                if (!index)
                    return index.error();
                return IndexOutcome { index.value(), false };
            }
            auto project = store::Project::open(projectPath, store::Project::OpenMode::ReadOnly);
            if (!project)
                return project.error();
            auto opened = workflow::openStoredRun(*project.value(), run.storedId, trace, {}, progress, cancel);
            if (!opened)
                return opened.error();
            return IndexOutcome { opened->index, opened->index->decisionsVerified > 0 };
        },
        [panel, run](Result<IndexOutcome> out) {
            if (!panel)
                return;
            if (out)
                panel->showIndex(out->index, run, out->checkedAgainstLog);
            else
                panel->showIndexError(out.error().isCancelled(), QString::fromStdString(out.error().toString()));
        },
        [panel](double f) {
            if (panel)
                panel->setProgress(f);
        });
}

void IncidentController::fork(std::shared_ptr<const incident::RunIndex> index, int64_t k, const std::string& policy, double window)
{
    // Forks share the index's generation: picking another run drops a fork still running.
    QPointer<views::IncidentPanel> panel(m_panel);
    m_jobs.launch(
        [index, k, policy, window](ProgressFn progress, CancelToken cancel) { return incident::forkRun(*index, k, policy, window, progress, cancel); },
        [panel](Result<incident::ForkResult> out) {
            if (!panel)
                return;
            if (out)
                panel->showFork(out.value());
            else
                panel->showForkError(out.error().isCancelled(), QString::fromStdString(out.error().toString()));
        },
        [panel](double f) {
            if (panel)
                panel->setProgress(f);
        });
}

} // namespace schedlab::app
