#pragma once
// The workbench's link to a project file (.schedlab): which file is open, which session runs are
// not saved in it yet, saving them, listing and loading stored runs, and the recent-projects list
// (QSettings). Runs are saved on demand (Save), so the window can show an unsaved state.

#include "run_result.h"

#include "store/project.h"
#include "trace/trace.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace schedlab::app {

class ProjectSession {
public:
    bool isOpen() const { return m_project != nullptr; }
    QString path() const { return m_path; }
    /// Creates (or opens, when it exists) a project file. Errors name the file. An existing one
    /// (`mustExist`) is opened read-only until the first write (Project::OpenMode::ReadUntilWrite).
    Status open(const QString& path, bool mustExist);
    void close();
    /// A consistent copy of the open project at `path` (which must not exist).
    Status copyTo(const QString& path);
    /// "work" -> "work.schedlab": the CLI and the file dialogs know projects by their extension.
    static QString withExtension(const QString& path);
    /// Every one of `files` exists (false for none).
    static bool filesExist(const std::vector<std::string>& files);
    /// Replaces `path` (and its -wal / -shm files) with a new project and makes it current.
    Status create(const QString& path);
    /// Replaces `path` with a copy of the open project (an empty one when none is open) and makes
    /// the copy current.
    Status saveAs(const QString& path);
    /// The trace of the newest finished run of `rows` (else round) when its files are all still
    /// there: its files and import options.
    std::optional<std::pair<std::vector<std::string>, trace::ImportOptions>> newestTrace(const std::vector<store::RunRow>& rows);
    /// Stores the runs not yet stored (RunResult::storedId < 0) with the trace they ran on;
    /// sets their storedId. Nothing is written when the project is read-only (error).
    Status save(std::vector<views::RunResult>& runs, const trace::Trace& trace, const std::vector<std::string>& traceFiles);
    /// Stored runs, newest last.
    Result<std::vector<store::RunRow>> storedRuns();
    /// A finished stored run as the views see it (id = the given session id).
    Result<views::RunResult> load(int64_t runId, int sessionId);
    /// Same, from any project connection (a worker opens its own, read-only).
    static Result<views::RunResult> loadFrom(store::Project& project, int64_t runId, int sessionId);
    /// Files of the trace a stored run used (empty when unknown).
    std::vector<std::string> traceFilesOf(int64_t traceId);
    /// The import options the trace was read with (defaults when the project does not say).
    trace::ImportOptions traceOptionsOf(int64_t traceId);
    /// The stored round with id `roundId`, or the one whose checkpoint `policy` names
    /// ("learned:CHECKPOINT"); nullopt when the project has none (or no project is open).
    std::optional<store::RoundRow> round(int64_t roundId);
    std::optional<store::RoundRow> roundOfPolicy(const std::string& policy);
    bool readOnly() const { return m_project && m_project->readOnly(); }
    /// The open project is of an older schema and unchanged: the first write migrates it.
    bool migratesOnWrite() const { return m_project && m_project->migratesOnWrite(); }
    /// The open project (nullptr when none); GUI thread only.
    store::Project* project() const { return m_project.get(); }

    static QStringList recentProjects();
    static void addRecentProject(const QString& path);

private:
    std::unique_ptr<store::Project> m_project;
    QString m_path;
};

} // namespace schedlab::app
