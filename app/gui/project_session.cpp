#include "project_session.h"

#include "store/run_spec_codec.h"
#include "workflow/run_recorder.h"

#include <QFileInfo>
#include <QSettings>

namespace schedlab::app {

namespace {
constexpr int kMaxRecent = 8;
}

Status ProjectSession::open(const QString& path, bool mustExist)
{
    auto p = store::Project::open(path.toStdString(),
        mustExist ? store::Project::OpenMode::ExistingOnly : store::Project::OpenMode::CreateIfMissing);
    if (!p)
        return p.error();
    m_project = std::move(p).value();
    m_path = QFileInfo(path).absoluteFilePath();
    addRecentProject(m_path);
    return {};
}

void ProjectSession::close()
{
    m_project.reset();
    m_path.clear();
}

Status ProjectSession::copyTo(const QString& path)
{
    if (!m_project)
        return makeError(ErrorCode::Invalid, "no project is open");
    return m_project->copyTo(path.toStdString());
}

Status ProjectSession::save(std::vector<views::RunResult>& runs, const trace::Trace& trace, const std::vector<std::string>& traceFiles)
{
    if (!m_project)
        return makeError(ErrorCode::Invalid, "no project is open");
    if (m_project->readOnly())
        return makeError(ErrorCode::Io, "the project file is read-only; use Save Project As", m_project->path());
    int64_t traceId = -1;
    for (views::RunResult& r : runs) {
        if (r.storedId >= 0 || r.fork)
            continue;
        if (traceId < 0) {
            auto id = m_project->addTrace(trace, traceFiles);
            if (!id)
                return id.error();
            traceId = id.value();
        }
        // The same rows schedlab-cli replay --project writes for this spec (workflow::RunRecorder).
        auto id = workflow::RunRecorder(*m_project, traceId).store(r);
        if (!id)
            return id.error();
        r.storedId = id.value();
    }
    return {};
}

Result<std::vector<store::RunRow>> ProjectSession::storedRuns()
{
    if (!m_project)
        return std::vector<store::RunRow> {};
    return m_project->runs();
}

Result<views::RunResult> ProjectSession::load(int64_t runId, int sessionId)
{
    if (!m_project)
        return makeError(ErrorCode::Invalid, "no project is open");
    return loadFrom(*m_project, runId, sessionId);
}

Result<views::RunResult> ProjectSession::loadFrom(store::Project& project, int64_t runId, int sessionId)
{
    auto stored = project.loadRun(runId);
    if (!stored)
        return stored.error();
    auto spec = store::specFromRow(stored->row);
    if (!spec)
        return spec.error();
    views::RunResult r;
    r.id = sessionId;
    r.storedId = runId;
    r.spec = std::move(spec).value();
    r.policy = views::colourKey(r.spec);
    r.label = r.spec.policy + " #" + std::to_string(r.seed()) + (r.spec.isFill() ? " fill" : "") + r.spec.roomSuffix() + " (run "
        + std::to_string(runId) + ")";
    if (stored->fill)
        r.fill = std::make_shared<const sim::FillResult>(std::move(*stored->fill));
    else
        r.timed = std::make_shared<const sim::TimedResult>(std::move(*stored->timed));
    return r;
}

std::vector<std::string> ProjectSession::traceFilesOf(int64_t traceId)
{
    if (!m_project || traceId < 0)
        return {};
    auto files = m_project->traceFiles(traceId);
    return files ? files.value() : std::vector<std::string> {};
}

trace::ImportOptions ProjectSession::traceOptionsOf(int64_t traceId)
{
    if (!m_project || traceId < 0)
        return {};
    auto options = m_project->traceImportOptions(traceId);
    return options ? options.value() : trace::ImportOptions {};
}

QStringList ProjectSession::recentProjects() { return QSettings().value("projects/recent").toStringList(); }

void ProjectSession::addRecentProject(const QString& path)
{
    QStringList list = recentProjects();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue("projects/recent", list);
}

} // namespace schedlab::app
