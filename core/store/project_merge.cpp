// Copying finished runs from another project file (a sweep shard) into this one, in one
// transaction per file: the run row under a new id, every table keyed by run_id (columns read
// from the schema, so tables added later come along), and its trace, matched by content hash.

#include "project.h"

#include "sqlite_db.h"

#include <algorithm>
#include <map>
#include <cstdlib>
#include <utility>

namespace schedlab::store {

namespace {

/// Tables that hold rows of one run, keyed by run_id.
constexpr const char* kRunTables[] = { "run_summary", "fill_curve", "series", "job_results", "decisions", "node_heat",
    "state_hashes", "run_journals" };

std::string quote(const std::string& name) { return "\"" + name + "\""; }

/// The columns of `schema`.`table`, in order.
Result<std::vector<std::string>> columnsOf(Database& db, const std::string& schema, const std::string& table)
{
    auto q = db.prepare("PRAGMA " + schema + ".table_info(" + quote(table) + ")");
    if (!q)
        return q.error();
    std::vector<std::string> cols;
    while (q->step())
        cols.push_back(q->columnText(1));
    if (q->error())
        return *q->error();
    return cols;
}

} // namespace

Result<std::vector<std::pair<int64_t, bool>>> Project::copyRunsFrom(
    const std::string& otherPath, const std::vector<std::pair<int64_t, std::string>>& runs)
{
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; runs cannot be merged into it", m_path);
    auto attach = m_db->prepare("ATTACH DATABASE ? AS shard");
    if (!attach)
        return attach.error();
    attach->bind(1, otherPath);
    if (Status s = attach->exec(); !s)
        return s.error();
    struct Detach {
        Database& db;
        ~Detach() { (void)db.exec("DETACH DATABASE shard"); }
    } detach { *m_db };
    auto fail = [&](const std::string& what) { return makeError(ErrorCode::Format, what, otherPath); };

    // The statements, built once from the schema (so tables and columns added later come along).
    auto runCols = columnsOf(*m_db, "main", "runs");
    auto traceCols = columnsOf(*m_db, "main", "traces");
    if (!runCols || !traceCols)
        return !runCols ? runCols.error() : traceCols.error();
    std::string into, from, traceList;
    for (const std::string& c : *runCols)
        if (c != "id") {
            into += (into.empty() ? "" : ", ") + quote(c);
            from += std::string(from.empty() ? "" : ", ") + (c == "trace_id" ? "?" : quote(c));
        }
    for (const std::string& c : *traceCols)
        if (c != "id")
            traceList += (traceList.empty() ? "" : ", ") + quote(c);
    auto once = m_db->prepare("SELECT value FROM main.meta WHERE key = ?");
    auto run = m_db->prepare("SELECT trace_id, status FROM shard.runs WHERE id = ?");
    auto hash = m_db->prepare("SELECT content_hash FROM shard.traces WHERE id = ?");
    auto findTrace = m_db->prepare("SELECT id FROM main.traces WHERE content_hash = ?");
    auto insTrace = m_db->prepare("INSERT INTO main.traces(" + traceList + ") SELECT " + traceList + " FROM shard.traces WHERE id = ?");
    auto insTraceData = m_db->prepare("INSERT INTO main.trace_data SELECT ?, format, raw_bytes, data FROM shard.trace_data WHERE trace_id = ?");
    auto insRun = m_db->prepare("INSERT INTO main.runs(" + into + ") SELECT " + from + " FROM shard.runs WHERE id = ?");
    auto mark = m_db->prepare("INSERT INTO main.meta(key, value) VALUES (?, ?)");
    for (auto* q : { &once, &run, &hash, &findTrace, &insTrace, &insTraceData, &insRun, &mark })
        if (!*q)
            return q->error();
    std::vector<Statement> copies; // one per run table the shard has
    for (const char* table : kRunTables) {
        auto cols = columnsOf(*m_db, "shard", table);
        if (!cols)
            return cols.error();
        if (cols->empty())
            continue; // an older shard without this table
        std::string names, values;
        for (const std::string& c : *cols) {
            names += (names.empty() ? "" : ", ") + quote(c);
            values += std::string(values.empty() ? "" : ", ") + (c == "run_id" ? "?" : quote(c));
        }
        auto copy = m_db->prepare("INSERT INTO main." + quote(table) + "(" + names + ") SELECT " + values + " FROM shard." + quote(table)
            + " WHERE run_id = ?");
        if (!copy)
            return copy.error();
        copies.push_back(std::move(copy).value());
    }

    // One transaction for all of them: a crash keeps none of this file's runs, a finished merge all.
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s.error();
    std::vector<std::pair<int64_t, bool>> out;
    std::map<int64_t, int64_t> traceHere; // shard trace -> trace here
    for (const auto& [runId, onceKey] : runs) {
        // Copied before (by another merge, perhaps running now: BEGIN IMMEDIATE orders the two)?
        once->reset();
        once->bind(1, "setting." + onceKey);
        if (once->step()) {
            out.emplace_back(std::atoll(once->columnText(0).c_str()), false);
            continue;
        }
        run->reset();
        run->bind(1, runId);
        if (!run->step())
            return fail("has no run " + std::to_string(runId));
        const int64_t shardTrace = run->columnIsNull(0) ? -1 : run->columnInt(0);
        if (run->columnText(1) != "finished")
            return fail("run " + std::to_string(runId) + " is " + run->columnText(1) + ", not finished");
        // Its trace: the one here with the same content, else a copy of its row and stored data.
        if (shardTrace >= 0 && !traceHere.count(shardTrace)) {
            hash->reset();
            hash->bind(1, shardTrace);
            if (!hash->step())
                return fail("run " + std::to_string(runId) + " names trace " + std::to_string(shardTrace) + ", which it lacks");
            findTrace->reset();
            findTrace->bind(1, hash->columnText(0));
            if (findTrace->step()) {
                traceHere[shardTrace] = findTrace->columnInt(0);
            } else {
                insTrace->reset();
                insTrace->bind(1, shardTrace);
                if (Status s = insTrace->exec(); !s)
                    return s.error();
                traceHere[shardTrace] = m_db->lastInsertId();
                insTraceData->reset();
                insTraceData->bind(1, traceHere[shardTrace]).bind(2, shardTrace);
                if (Status s = insTraceData->exec(); !s)
                    return s.error();
            }
        }
        // The run row under a new id, then every row keyed by it, and the key that says so.
        insRun->reset();
        if (shardTrace >= 0)
            insRun->bind(1, traceHere[shardTrace]);
        else
            insRun->bindNull(1);
        insRun->bind(2, runId);
        if (Status s = insRun->exec(); !s)
            return s.error();
        const int64_t newId = m_db->lastInsertId();
        for (Statement& copy : copies) {
            copy.reset();
            copy.bind(1, newId).bind(2, runId);
            if (Status s = copy.exec(); !s)
                return s.error();
        }
        mark->reset();
        mark->bind(1, "setting." + onceKey).bind(2, std::to_string(newId));
        if (Status s = mark->exec(); !s)
            return s.error();
        out.emplace_back(newId, true);
    }
    if (Status s = tx.commit(); !s)
        return s.error();
    return out;
}

} // namespace schedlab::store
