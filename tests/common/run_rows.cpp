#include "run_rows.h"

#include <sqlite3.h>

#include <set>
#include <vector>

namespace schedlab::test {

namespace {

std::string hex(const void* p, int n)
{
    static const char* d = "0123456789abcdef";
    std::string out;
    const auto* b = static_cast<const unsigned char*>(p);
    for (int i = 0; i < n; ++i) {
        out += d[b[i] >> 4];
        out += d[b[i] & 15];
    }
    return out;
}

} // namespace

std::string runRows(const std::string& dbPath, int64_t runId)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(dbPath.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return "error: cannot open " + dbPath;
    }
    const std::set<std::string> skip = { "id", "run_id", "started_at", "finished_at", "wall_seconds", "pid", "pid_start", "host" };
    const std::vector<std::pair<std::string, std::string>> tables = { { "runs", "id" }, { "run_summary", "run_id" },
        { "fill_curve", "run_id" }, { "series", "run_id" }, { "job_results", "run_id" }, { "decisions", "run_id" },
        { "node_heat", "run_id" }, { "state_hashes", "run_id" }, { "run_journals", "run_id" } };
    std::string out;
    for (const auto& [table, key] : tables) {
        sqlite3_stmt* q = nullptr;
        const std::string sql = "SELECT * FROM " + table + " WHERE " + key + " = ? ORDER BY rowid";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) != SQLITE_OK) {
            out += table + ": " + sqlite3_errmsg(db) + "\n";
            continue;
        }
        sqlite3_bind_int64(q, 1, runId);
        int rows = 0;
        while (sqlite3_step(q) == SQLITE_ROW) {
            ++rows;
            out += table + ":";
            for (int c = 0; c < sqlite3_column_count(q); ++c) {
                if (skip.count(sqlite3_column_name(q, c)))
                    continue;
                out += std::string(" ") + sqlite3_column_name(q, c) + "=";
                switch (sqlite3_column_type(q, c)) {
                case SQLITE_NULL: out += "null"; break;
                case SQLITE_BLOB: out += hex(sqlite3_column_blob(q, c), sqlite3_column_bytes(q, c)); break;
                default: out += reinterpret_cast<const char*>(sqlite3_column_text(q, c)); break;
                }
            }
            out += "\n";
        }
        out += table + ": " + std::to_string(rows) + " row(s)\n";
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return out;
}

} // namespace schedlab::test
