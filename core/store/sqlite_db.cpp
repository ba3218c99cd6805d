#include "sqlite_db.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include <sqlite3.h>

namespace schedlab::store {

Statement::Statement(sqlite3_stmt* stmt, std::string file)
    : m_stmt(stmt)
    , m_file(std::move(file))
{
}

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& o) noexcept
    : m_stmt(o.m_stmt)
    , m_file(std::move(o.m_file))
    , m_error(std::move(o.m_error))
{
    o.m_stmt = nullptr;
}

Statement& Statement::operator=(Statement&& o) noexcept
{
    if (this != &o) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_stmt = o.m_stmt;
        m_file = std::move(o.m_file);
        m_error = std::move(o.m_error);
        o.m_stmt = nullptr;
    }
    return *this;
}

Statement& Statement::bind(int i, int64_t v)
{
    sqlite3_bind_int64(m_stmt, i, v);
    return *this;
}
Statement& Statement::bind(int i, double v)
{
    sqlite3_bind_double(m_stmt, i, v);
    return *this;
}
Statement& Statement::bind(int i, std::string_view v)
{
    sqlite3_bind_text(m_stmt, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bindBlob(int i, const void* data, int bytes)
{
    sqlite3_bind_blob(m_stmt, i, data, bytes, SQLITE_TRANSIENT);
    return *this;
}
Statement& Statement::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE)
        m_error = Error { ErrorCode::Io, std::string("database: ") + sqlite3_errmsg(sqlite3_db_handle(m_stmt)), m_file, -1, -1 };
    return false;
}

Status Statement::exec()
{
    m_error.reset();
    while (step()) {
    }
    reset();
    if (m_error)
        return *m_error;
    return {};
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t Statement::columnInt(int i) const { return sqlite3_column_int64(m_stmt, i); }
double Statement::columnDouble(int i) const { return sqlite3_column_double(m_stmt, i); }
std::string Statement::columnText(int i) const
{
    const auto* p = sqlite3_column_text(m_stmt, i);
    return p ? std::string(reinterpret_cast<const char*>(p), std::size_t(sqlite3_column_bytes(m_stmt, i))) : std::string();
}
std::vector<unsigned char> Statement::columnBlob(int i) const
{
    const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(m_stmt, i));
    const int n = sqlite3_column_bytes(m_stmt, i);
    return p && n > 0 ? std::vector<unsigned char>(p, p + n) : std::vector<unsigned char>();
}
bool Statement::columnIsNull(int i) const { return sqlite3_column_type(m_stmt, i) == SQLITE_NULL; }

namespace {
/// `path` as an SQLite URI ("file:" + the path, bytes outside [A-Za-z0-9/._-] percent-encoded).
std::string fileUri(const std::string& path)
{
    static const char* const hex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-')
            uri += char(c);
        else
            uri += { '%', hex[c >> 4], hex[c & 15] };
    }
    return uri;
}

/// True when nothing can write the file's folder from here (a read-only mount): SQLite cannot
/// create the -shm file a WAL database needs even to read.
bool folderReadOnly(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    return ::access(dir.c_str(), W_OK) != 0 && errno == EROFS;
}
} // namespace

Result<std::string> Database::readUri(const std::string& path)
{
    if (!folderReadOnly(path))
        return fileUri(path);
    // A finished project on a read-only mount: nothing can change it, so SQLite may read it as
    // immutable (no locks, no -shm). Unless its write-ahead log holds unmerged writes, which only
    // a writable copy can take in.
    struct stat wal {};
    if (::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0)
        return Error { ErrorCode::Io,
            "cannot open read-only: its write-ahead log (" + path + "-wal) holds writes not yet merged into it, and the folder "
            "is on a read-only file system; copy the project with its -wal file to a writable folder",
            path, -1, -1 };
    return fileUri(path) + "?immutable=1";
}

Result<std::unique_ptr<Database>> Database::open(const std::string& path, Mode mode)
{
    std::unique_ptr<Database> db(new Database());
    db->m_path = path;
    int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
        : mode == Mode::Create         ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                       : SQLITE_OPEN_READWRITE;
    if (mode == Mode::ReadOnly) {
        auto uri = readUri(path);
        if (!uri)
            return uri.error();
        db->m_uri = uri.value();
    } else {
        db->m_uri = fileUri(path);
    }
    const int rc = sqlite3_open_v2(db->m_uri.c_str(), &db->m_db, flags | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        Error e { ErrorCode::Io, std::string("cannot open project: ") + (db->m_db ? sqlite3_errmsg(db->m_db) : "out of memory"),
            path, -1, -1 };
        return e;
    }
    db->m_readOnly = mode == Mode::ReadOnly || sqlite3_db_readonly(db->m_db, "main") == 1;
    sqlite3_busy_timeout(db->m_db, kBusyTimeoutMs);
    return db;
}

Database::~Database()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

bool Database::lastErrorWasCantOpen() const { return (sqlite3_errcode(m_db) & 0xff) == SQLITE_CANTOPEN; }

Error Database::error(const std::string& what) const
{
    return Error { ErrorCode::Io, what + ": " + sqlite3_errmsg(m_db), m_path, -1, -1 };
}

Status Database::exec(const std::string& sql)
{
    char* msg = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
        std::string text = msg ? msg : "unknown error";
        sqlite3_free(msg);
        return Error { ErrorCode::Io, "database: " + text, m_path, -1, -1 };
    }
    return {};
}

Status Database::execPatiently(const std::string& sql)
{
    // SQLite does not call the busy handler for every lock it may meet (changing the journal
    // mode while another connection writes a new file's schema returns SQLITE_BUSY at once).
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
    for (;;) {
        const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            return {};
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || std::chrono::steady_clock::now() >= until)
            return Error { ErrorCode::Io, std::string("database: ") + sqlite3_errmsg(m_db), m_path, -1, -1 };
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

Result<Statement> Database::prepare(const std::string& sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), int(sql.size()), &stmt, nullptr) != SQLITE_OK)
        return error("database");
    return Statement(stmt, m_path);
}

int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }

} // namespace schedlab::store
