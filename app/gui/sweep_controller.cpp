#include "sweep_controller.h"

#include "store/project.h"
#include "workflow/sweep.h"
#include "workflow/sweep_progress.h"

#include <QPointer>

namespace schedlab::app {

SweepController::SweepController(views::SweepView* view, QObject* parent)
    : QObject(parent)
    , m_view(view)
    , m_reads(this)
    , m_merges(this)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(3000);
    connect(&m_timer, &QTimer::timeout, this, &SweepController::refresh);
    connect(view, &views::SweepView::refreshRequested, this, &SweepController::refresh);
    connect(view, &views::SweepView::mergeRequested, this, &SweepController::merge);
    connect(view, &views::SweepView::autoRefreshChanged, this, [this](bool on) {
        if (on)
            scheduleNext();
        else
            m_timer.stop();
    });
}

Status SweepController::openPlan(const QString& path)
{
    auto plan = workflow::readSweepPlan(path.toStdString());
    if (!plan)
        return plan.error();
    m_reads.reset();
    m_plan = std::move(plan).value();
    m_view->setPlan(path, m_plan);
    refresh();
    return {};
}

void SweepController::setProjectPath(const std::string& path)
{
    if (path == m_projectPath)
        return;
    m_projectPath = path;
    if (m_view->hasPlan())
        refresh();
}

void SweepController::refresh()
{
    if (!m_view->hasPlan())
        return;
    m_timer.stop();
    m_reads.reset(); // a newer read supersedes one under way
    const store::SweepPlan plan = m_plan;
    const std::string planPath = m_view->planPath().toStdString(), project = m_projectPath;
    QPointer<views::SweepView> view(m_view);
    m_reads.launch(
        [plan, planPath, project](ProgressFn, CancelToken) -> workflow::SweepProgress {
            std::unique_ptr<store::Project> merged;
            std::string problem;
            if (!project.empty()) {
                auto p = store::Project::open(project, store::Project::OpenMode::ReadOnly);
                if (p)
                    merged = std::move(p).value();
                else
                    problem = p.error().toString();
            }
            workflow::SweepProgress out = workflow::readSweepProgress(plan, workflow::findShardFiles(planPath), merged.get());
            if (!problem.empty())
                out.problems.push_back(problem);
            return out;
        },
        [this, view](workflow::SweepProgress progress) {
            if (!view)
                return;
            view->setProgress(progress);
            emit progressRead();
            scheduleNext();
        });
}

void SweepController::scheduleNext()
{
    const auto& p = m_view->model()->progress();
    const bool unfinished = p.count(workflow::CellStatus::Waiting) + p.count(workflow::CellStatus::Running) > 0;
    if (m_view->hasPlan() && m_view->autoRefresh() && unfinished && !m_reads.isRunning())
        m_timer.start();
}

void SweepController::merge()
{
    if (!m_view->hasPlan())
        return;
    if (m_projectPath.empty()) {
        emit failed(tr("Open or create a project to merge the sweep's cells into (File > New Project)."));
        return;
    }
    if (m_merges.isRunning())
        return;
    m_view->setMessage(tr("Merging the finished cells into %1…").arg(QString::fromStdString(m_projectPath)));
    const store::SweepPlan plan = m_plan;
    const std::string planPath = m_view->planPath().toStdString(), project = m_projectPath;
    m_merges.launch(
        [plan, planPath, project](ProgressFn, CancelToken) -> Result<workflow::MergeReport> {
            auto p = store::Project::open(project, store::Project::OpenMode::ExistingOnly);
            if (!p)
                return p.error();
            return workflow::mergeSweep(plan, workflow::findShardFiles(planPath), *p.value());
        },
        [this](Result<workflow::MergeReport> report) {
            if (!report) {
                m_view->setMessage(QString());
                emit failed(QString::fromStdString(report.error().toString()));
                return;
            }
            QString text = tr("Merged %1 cells into the project now (%2 before); %3 of %4 cells not finished in any shard file.")
                               .arg(report->merged)
                               .arg(report->already)
                               .arg(report->missing.size())
                               .arg(m_plan.cells.size());
            for (const std::string& r : report->refused)
                text += "\n" + tr("Refused: %1").arg(QString::fromStdString(r));
            m_view->setMessage(text);
            emit merged(report->merged);
            refresh();
        });
}

} // namespace schedlab::app
