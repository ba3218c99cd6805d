#include "project_session.h"

#include "store/run_spec_codec.h"
#include "workflow/run_recorder.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace schedlab::app {

namespace {
constexpr int kMaxRecent = 8;
}

Status ProjectSession::open(const QString& path, bool mustExist)
{
    // An existing project is opened to look: it is written (an older schema migrated, runs of
    // dead writers marked failed) only when something is saved into it.
    auto p = store::Project::open(path.toStdString(),
        mustExist ? store::Project::OpenMode::ReadUntilWrite : store::Project::OpenMode::CreateIfMissing);
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

QString ProjectSession::withExtension(const QString& path) { return QFileInfo(path).suffix().isEmpty() ? path + ".schedlab" : path; }

namespace {
Status removeProjectFiles(const QString& path)
{
    // The file dialog asked before replacing an existing file.
    for (const QString& f : { path, path + "-wal", path + "-shm" })
        if (QFileInfo::exists(f) && !QFile::remove(f))
            return makeError(ErrorCode::Io, "cannot replace the existing file", f.toStdString());
    return {};
}
} // namespace

bool ProjectSession::filesExist(const std::vector<std::string>& files)
{
    return !files.empty()
        && std::all_of(files.begin(), files.end(), [](const std::string& f) { return QFileInfo::exists(QString::fromStdString(f)); });
}

Status ProjectSession::create(const QString& path)
{
    if (Status s = removeProjectFiles(path); !s)
        return s;
    return open(path, false);
}

Status ProjectSession::saveAs(const QString& path)
{
    if (Status s = removeProjectFiles(path); !s)
        return s;
    if (isOpen())
        if (Status s = copyTo(path); !s)
            return s;
    ProjectSession next;
    if (Status s = next.open(path, false); !s)
        return s;
    *this = std::move(next);
    return {};
}

std::optional<std::pair<std::vector<std::string>, trace::ImportOptions>> ProjectSession::newestTrace(const std::vector<store::RunRow>& rows)
{
    std::vector<int64_t> traceIds;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it)
        if (it->status == "finished")
            traceIds.push_back(it->traceId);
    if (auto rounds = m_project ? m_project->rounds() : Result<std::vector<store::RoundRow>>(std::vector<store::RoundRow> {}))
        for (auto it = rounds->rbegin(); it != rounds->rend(); ++it)
            if (it->status == "finished")
                traceIds.push_back(it->traceId);
    for (int64_t traceId : traceIds) {
        if (traceId < 0)
            continue;
        const std::vector<std::string> files = traceFilesOf(traceId);
        if (!filesExist(files))
            return std::nullopt;
        return std::make_pair(files, traceOptionsOf(traceId));
    }
    return std::nullopt;
}

std::optional<store::RoundRow> ProjectSession::round(int64_t roundId)
{
    if (auto rounds = m_project ? m_project->rounds() : Result<std::vector<store::RoundRow>>(std::vector<store::RoundRow> {}))
        for (const store::RoundRow& r : rounds.value())
            if (r.id == roundId)
                return r;
    return std::nullopt;
}

std::optional<store::RoundRow> ProjectSession::roundOfPolicy(const std::string& policy)
{
    if (auto rounds = m_project ? m_project->rounds() : Result<std::vector<store::RoundRow>>(std::vector<store::RoundRow> {}))
        for (const store::RoundRow& r : rounds.value())
            if ("learned:" + r.checkpoint == policy)
                return r;
    return std::nullopt;
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
