// Copying finished runs and fine-tune rounds from another project file (a sweep shard) into this
// one, in one transaction per file: the run (round) row under a new id, every table keyed by it
// (columns read from the schema, so tables added later come along), its trace, matched by content
// hash, and a round's checkpoint file.

#include "project.h"

#include "sqlite_db.h"
#include "sweep_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

/// INSERT ... SELECT statements copying the rows of `tables` keyed by `key` from "shard" to
/// "main" under a new key (bind 1: new, 2: old); tables the shard lacks are skipped.
Result<std::vector<Statement>> keyedCopies(Database& db, const std::vector<std::string>& tables, const std::string& key)
{
    std::vector<Statement> copies;
    for (const std::string& table : tables) {
        auto cols = columnsOf(db, "shard", table);
        if (!cols)
            return cols.error();
        if (cols->empty())
            continue; // an older shard without this table
        std::string names, values;
        for (const std::string& c : *cols) {
            names += (names.empty() ? "" : ", ") + quote(c);
            values += std::string(values.empty() ? "" : ", ") + (c == key ? "?" : quote(c));
        }
        auto copy = db.prepare("INSERT INTO main." + quote(table) + "(" + names + ") SELECT " + values + " FROM shard." + quote(table)
            + " WHERE " + key + " = ?");
        if (!copy)
            return copy.error();
        copies.push_back(std::move(copy).value());
    }
    return copies;
}

/// "a", "b" -> "\"a\", \"b\"" and the matching select list, with `param` columns as "?".
void columnLists(const std::vector<std::string>& cols, const std::set<std::string>& params, std::string& names, std::string& values)
{
    for (const std::string& c : cols) {
        if (c == "id")
            continue;
        names += (names.empty() ? "" : ", ") + quote(c);
        values += std::string(values.empty() ? "" : ", ") + (params.count(c) ? "?" : quote(c));
    }
}

/// The attached file "shard" and its traces brought over once each (matched by content hash).
class ShardTraces {
public:
    explicit ShardTraces(Database& db)
        : m_db(db)
    {
    }
    Status prepare()
    {
        auto traceCols = columnsOf(m_db, "main", "traces");
        if (!traceCols)
            return traceCols.error();
        std::string names, values;
        columnLists(*traceCols, {}, names, values);
        auto hash = m_db.prepare("SELECT content_hash FROM shard.traces WHERE id = ?");
        auto find = m_db.prepare("SELECT id FROM main.traces WHERE content_hash = ?");
        auto ins = m_db.prepare("INSERT INTO main.traces(" + names + ") SELECT " + values + " FROM shard.traces WHERE id = ?");
        auto data = m_db.prepare("INSERT INTO main.trace_data SELECT ?, format, raw_bytes, data FROM shard.trace_data WHERE trace_id = ?");
        for (auto* q : { &hash, &find, &ins, &data })
            if (!*q)
                return q->error();
        m_hash = std::move(hash).value();
        m_find = std::move(find).value();
        m_insert = std::move(ins).value();
        m_data = std::move(data).value();
        return {};
    }
    /// The id here of the shard's trace `id` (copied the first time); an error names `what`.
    Result<int64_t> here(int64_t id, const std::string& what, const std::string& file)
    {
        if (auto it = m_here.find(id); it != m_here.end())
            return it->second;
        m_hash.reset();
        m_hash.bind(1, id);
        if (!m_hash.step())
            return makeError(ErrorCode::Format, what + " names trace " + std::to_string(id) + ", which it lacks", file);
        m_find.reset();
        m_find.bind(1, m_hash.columnText(0));
        if (m_find.step())
            return m_here[id] = m_find.columnInt(0);
        m_insert.reset();
        m_insert.bind(1, id);
        if (Status s = m_insert.exec(); !s)
            return s.error();
        const int64_t newId = m_db.lastInsertId();
        m_data.reset();
        m_data.bind(1, newId).bind(2, id);
        if (Status s = m_data.exec(); !s)
            return s.error();
        return m_here[id] = newId;
    }

private:
    Database& m_db;
    Statement m_hash, m_find, m_insert, m_data;
    std::map<int64_t, int64_t> m_here;
};

/// ATTACH "shard" for the lifetime of this object.
struct Attached {
    Database& db;
    Status status;
    Attached(Database& d, const std::string& path)
        : db(d)
    {
        auto uri = Database::readUri(path); // the connection takes URIs (Database::open)
        if (!uri) {
            status = uri.error();
            return;
        }
        auto attach = db.prepare("ATTACH DATABASE ? AS shard");
        if (!attach) {
            status = attach.error();
            return;
        }
        attach->bind(1, uri.value());
        status = attach->exec();
    }
    ~Attached()
    {
        if (status)
            (void)db.exec("DETACH DATABASE shard");
    }
};

/// Copies one finished round of an attached shard, with its keyed rows and its checkpoint file
/// (into `checkpointDir`, listed in `written`), under a new id.
struct RoundCopier {
    Database& db;
    ShardTraces& traces;
    Statement& round; ///< trace_id, status, checkpoint, checkpoint_sha256 of a shard round
    Statement& insRound; ///< binds parent_id, trace_id, checkpoint, then the shard's id
    Statement& setCheckpoint;
    std::vector<Statement>& copies;
    const std::string& otherPath;
    const std::string& checkpointDir;
    std::vector<std::string>& written;

    Error fail(const std::string& what) const { return makeError(ErrorCode::Format, what, otherPath); }

    /// The round's checkpoint where the other file says, else beside it (the folder moved),
    /// checked against its SHA-256.
    Result<std::string> checkpointOf(int64_t roundId)
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        std::string checkpoint = round.columnText(2);
        const std::string sha = round.columnText(3);
        if (!fs::exists(checkpoint, ec))
            checkpoint = (fs::path(otherPath + ".models") / fs::path(checkpoint).filename()).string();
        auto actual = sweepFileSha256(checkpoint);
        if (!actual)
            return fail("round " + std::to_string(roundId) + ": its checkpoint " + checkpoint + " cannot be read");
        if (!sha.empty() && *actual != sha)
            return fail("round " + std::to_string(roundId) + ": checkpoint " + checkpoint + " does not match its SHA-256");
        return checkpoint;
    }

    /// The round's new id here.
    Result<int64_t> copy(int64_t roundId, int64_t parentHere)
    {
        namespace fs = std::filesystem;
        round.reset();
        round.bind(1, roundId);
        if (!round.step())
            return fail("has no round " + std::to_string(roundId));
        if (round.columnText(1) != "finished")
            return fail("round " + std::to_string(roundId) + " is " + round.columnText(1) + ", not finished");
        const int64_t shardTrace = round.columnIsNull(0) ? -1 : round.columnInt(0);
        auto checkpoint = checkpointOf(roundId);
        if (!checkpoint)
            return checkpoint.error();
        int64_t traceHere = -1;
        if (shardTrace >= 0) {
            auto t = traces.here(shardTrace, "round " + std::to_string(roundId), otherPath);
            if (!t)
                return t.error();
            traceHere = *t;
        }
        insRound.reset();
        if (parentHere >= 0)
            insRound.bind(1, parentHere);
        else
            insRound.bindNull(1);
        if (traceHere >= 0)
            insRound.bind(2, traceHere);
        else
            insRound.bindNull(2);
        insRound.bind(3, std::string_view()).bind(4, roundId);
        if (Status s = insRound.exec(); !s)
            return s.error();
        const int64_t newId = db.lastInsertId();
        for (Statement& c : copies) {
            c.reset();
            c.bind(1, newId).bind(2, roundId);
            if (Status s = c.exec(); !s)
                return s.error();
        }
        std::error_code ec;
        const std::string target
            = fs::absolute(fs::path(checkpointDir) / ("round-" + std::to_string(newId) + ".slq"), ec).lexically_normal().string();
        fs::copy_file(*checkpoint, target, fs::copy_options::overwrite_existing, ec);
        if (ec)
            return makeError(ErrorCode::Io, "cannot copy the checkpoint of round " + std::to_string(roundId) + ": " + ec.message(), target);
        written.push_back(target);
        setCheckpoint.reset();
        setCheckpoint.bind(1, target).bind(2, newId);
        if (Status s = setCheckpoint.exec(); !s)
            return s.error();
        return newId;
    }
};

} // namespace

Result<std::vector<std::pair<int64_t, bool>>> Project::copyRunsFrom(
    const std::string& otherPath, const std::vector<std::pair<int64_t, std::string>>& runs)
{
    if (Status s = writable(); !s)
        return s.error();
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; runs cannot be merged into it", m_path);
    Attached attached(*m_db, otherPath);
    if (!attached.status)
        return attached.status.error();
    auto fail = [&](const std::string& what) { return makeError(ErrorCode::Format, what, otherPath); };

    // The statements, built once from the schema (so tables and columns added later come along).
    auto runCols = columnsOf(*m_db, "main", "runs");
    if (!runCols)
        return runCols.error();
    std::string into, from;
    columnLists(*runCols, { "trace_id" }, into, from);
    ShardTraces traces(*m_db);
    if (Status s = traces.prepare(); !s)
        return s.error();
    auto once = m_db->prepare("SELECT value FROM main.meta WHERE key = ?");
    auto run = m_db->prepare("SELECT trace_id, status FROM shard.runs WHERE id = ?");
    auto insRun = m_db->prepare("INSERT INTO main.runs(" + into + ") SELECT " + from + " FROM shard.runs WHERE id = ?");
    auto mark = m_db->prepare("INSERT INTO main.meta(key, value) VALUES (?, ?)");
    for (auto* q : { &once, &run, &insRun, &mark })
        if (!*q)
            return q->error();
    auto copies = keyedCopies(*m_db, { std::begin(kRunTables), std::end(kRunTables) }, "run_id");
    if (!copies)
        return copies.error();

    // One transaction for all of them: a crash keeps none of this file's runs, a finished merge all.
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s.error();
    std::vector<std::pair<int64_t, bool>> out;
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
        int64_t traceHere = -1;
        if (shardTrace >= 0) {
            auto t = traces.here(shardTrace, "run " + std::to_string(runId), otherPath);
            if (!t)
                return t.error();
            traceHere = *t;
        }
        // The run row under a new id, then every row keyed by it, and the key that says so.
        insRun->reset();
        if (traceHere >= 0)
            insRun->bind(1, traceHere);
        else
            insRun->bindNull(1);
        insRun->bind(2, runId);
        if (Status s = insRun->exec(); !s)
            return s.error();
        const int64_t newId = m_db->lastInsertId();
        for (Statement& copy : *copies) {
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

Result<std::vector<std::pair<int64_t, bool>>> Project::copyRoundsFrom(
    const std::string& otherPath, const std::vector<RoundChain>& chains, const std::string& checkpointDir)
{
    if (Status s = writable(); !s)
        return s.error();
    namespace fs = std::filesystem;
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; rounds cannot be merged into it", m_path);
    std::error_code ec;
    fs::create_directories(checkpointDir, ec);
    if (ec)
        return makeError(ErrorCode::Io, "cannot create the checkpoint folder: " + ec.message(), checkpointDir);
    Attached attached(*m_db, otherPath);
    if (!attached.status)
        return attached.status.error();
    auto roundCols = columnsOf(*m_db, "main", "rounds");
    if (!roundCols)
        return roundCols.error();
    std::string into, from; // binds: parent_id, trace_id, checkpoint (column order), then the id
    columnLists(*roundCols, { "parent_id", "trace_id", "checkpoint" }, into, from);
    ShardTraces traces(*m_db);
    if (Status s = traces.prepare(); !s)
        return s.error();
    auto once = m_db->prepare("SELECT value FROM main.meta WHERE key = ?");
    auto round = m_db->prepare("SELECT trace_id, status, checkpoint, checkpoint_sha256 FROM shard.rounds WHERE id = ?");
    auto insRound = m_db->prepare("INSERT INTO main.rounds(" + into + ") SELECT " + from + " FROM shard.rounds WHERE id = ?");
    auto setCheckpoint = m_db->prepare("UPDATE main.rounds SET checkpoint = ? WHERE id = ?");
    auto mark = m_db->prepare("INSERT INTO main.meta(key, value) VALUES (?, ?)");
    for (auto* q : { &once, &round, &insRound, &setCheckpoint, &mark })
        if (!*q)
            return q->error();
    auto copies = keyedCopies(*m_db, { "round_curves", "round_eval", "round_constraints" }, "round_id");
    if (!copies)
        return copies.error();

    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s.error();
    std::vector<std::pair<int64_t, bool>> out;
    std::vector<std::string> written; // checkpoint files of this transaction, removed if it fails
    auto undoFiles = [&] {
        for (const std::string& f : written)
            fs::remove(f, ec);
    };
    RoundCopier copier { *m_db, traces, *round, *insRound, *setCheckpoint, *copies, otherPath, checkpointDir, written };
    for (const RoundChain& chain : chains) {
        once->reset();
        once->bind(1, "setting." + chain.onceKey);
        if (once->step()) {
            const std::string v = once->columnText(0);
            out.emplace_back(std::atoll(v.c_str() + std::min(v.size(), std::strlen(kRoundKeyPrefix))), false);
            continue;
        }
        int64_t parentHere = -1;
        for (int64_t roundId : chain.rounds) {
            auto newId = copier.copy(roundId, parentHere);
            if (!newId)
                return undoFiles(), newId.error();
            parentHere = *newId;
        }
        mark->reset();
        mark->bind(1, "setting." + chain.onceKey).bind(2, kRoundKeyPrefix + std::to_string(parentHere));
        if (Status s = mark->exec(); !s)
            return undoFiles(), s.error();
        out.emplace_back(parentHere, true);
    }
    if (Status s = tx.commit(); !s)
        return undoFiles(), s.error();
    return out;
}

} // namespace schedlab::store
