// A project opened only to look (Project::OpenMode::ReadUntilWrite, the workbench): read-only
// until its first write, which reopens it for writing, migrates an older schema and marks the runs
// and rounds of dead writers failed. Looking never changes the file: a build before the migration
// can still open a project that was only looked at.

#include "project.h"

#include "sqlite_db.h"

#include <unistd.h>

namespace schedlab::store {

Result<std::unique_ptr<Project>> Project::openToLook(const std::string& path)
{
    // A file nothing here can write: the usual open (read-only, says so via readOnly()).
    if (::access(path.c_str(), W_OK) != 0)
        return open(path, OpenMode::ExistingOnly);
    auto p = open(path, OpenMode::ReadOnly);
    if (!p) // the usual open's message (or an empty file initialised, as before)
        return open(path, OpenMode::ExistingOnly);
    p.value()->m_readUntilWrite = true;
    return p;
}

Status Project::writable()
{
    if (!m_readUntilWrite)
        return {};
    m_readUntilWrite = false; // tried once: a file that cannot be reopened for writing stays read-only
    auto db = Database::open(m_path, Database::Mode::ReadWrite);
    if (!db)
        return db.error();
    if (db.value()->readOnly())
        return makeError(ErrorCode::Io, "project is read-only", m_path);
    m_db = std::move(db).value();
    if (Status s = m_db->execPatiently("PRAGMA journal_mode=WAL"); !s)
        return s;
    if (Status s = m_db->exec("PRAGMA foreign_keys=ON"); !s)
        return s;
    // Read again: another process (a training worker of the workbench) may have migrated it since.
    if (Status s = readSchemaVersion(); !s)
        return s;
    return upgrade();
}

} // namespace schedlab::store
