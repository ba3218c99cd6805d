#pragma once
/// Thin RAII wrapper over the SQLite C API: every failure becomes an Error naming the file and
/// SQLite's message; nothing throws.

#include "base/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace schedlab::store {

class Statement {
public:
    Statement() = default;
    Statement(sqlite3_stmt* stmt, std::string file);
    ~Statement();
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, int64_t v);
    Statement& bind(int index, double v);
    Statement& bind(int index, std::string_view v);
    Statement& bindBlob(int index, const void* data, int bytes);
    Statement& bindNull(int index);
    /// Next row: true = a row is ready, false = done; check error() after false.
    bool step();
    /// Runs a statement that returns no rows, then resets it for reuse.
    Status exec();
    void reset();
    int64_t columnInt(int i) const;
    double columnDouble(int i) const;
    std::string columnText(int i) const;
    bool columnIsNull(int i) const;
    /// Bytes of a blob column (empty for NULL).
    std::vector<unsigned char> columnBlob(int i) const;
    const std::optional<Error>& error() const { return m_error; }

private:
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_file;
    std::optional<Error> m_error;
};

class Database {
public:
    enum class Mode { ReadWrite, ReadOnly, Create };
    /// Opens (or creates with Mode::Create) a database file.
    static Result<std::unique_ptr<Database>> open(const std::string& path, Mode mode);
    ~Database();
    Status exec(const std::string& sql);
    /// exec(), retried while another connection holds a lock SQLite does not wait for by itself,
    /// up to kBusyTimeoutMs.
    Status execPatiently(const std::string& sql);
    Result<Statement> prepare(const std::string& sql);
    int64_t lastInsertId() const;
    /// How long a statement waits for another connection's lock before failing.
    static constexpr int kBusyTimeoutMs = 5000;
    bool readOnly() const { return m_readOnly; }
    const std::string& path() const { return m_path; }
    Error error(const std::string& what) const;
    /// The last failure was SQLite's "unable to open database file" (not a damaged file).
    bool lastErrorWasCantOpen() const;
    /// The SQLite URI that reads `path` (for ATTACH too): the file itself, or, in a folder on a
    /// read-only file system, the file as immutable (SQLite could not create its -shm file there).
    /// An error when such a file has a write-ahead log with unmerged writes.
    static Result<std::string> readUri(const std::string& path);

private:
    Database() = default;
    sqlite3* m_db = nullptr;
    std::string m_path;
    std::string m_uri; ///< what SQLite opened (readUri, or the path as a URI)
    bool m_readOnly = false;
};

/// RAII transaction: rolls back unless commit() succeeded.
class Transaction {
public:
    explicit Transaction(Database& db)
        : m_db(db)
    {
    }
    Status begin() { return m_db.execPatiently("BEGIN IMMEDIATE"); }
    Status commit()
    {
        Status st = m_db.exec("COMMIT");
        m_done = st.ok();
        return st;
    }
    ~Transaction()
    {
        if (!m_done)
            (void)m_db.exec("ROLLBACK");
    }

private:
    Database& m_db;
    bool m_done = false;
};

} // namespace schedlab::store
