#include "project.h"

#include <QJsonDocument>
#include <QJsonObject>

#include "sqlite_db.h"
#include "store_util.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

namespace schedlab::store {

const char* runStatusName(RunStatus s)
{
    switch (s) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Failed: return "failed";
    case RunStatus::Cancelled: return "cancelled";
    }
    return "failed";
}

namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE traces (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT NOT NULL, files TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE, nodes INTEGER NOT NULL, jobs INTEGER NOT NULL,
    tasks INTEGER NOT NULL, imported_at TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY, trace_id INTEGER REFERENCES traces(id) ON DELETE CASCADE,
    mode TEXT NOT NULL, policy TEXT NOT NULL, queue TEXT NOT NULL DEFAULT '', backfill TEXT NOT NULL DEFAULT '',
    options TEXT NOT NULL DEFAULT '{}', seed INTEGER NOT NULL, version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),
    pid INTEGER, host TEXT, started_at TEXT NOT NULL, finished_at TEXT, wall_seconds REAL, error TEXT);
CREATE TABLE run_summary (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, key TEXT NOT NULL, value REAL NOT NULL,
    PRIMARY KEY (run_id, key));
CREATE TABLE fill_curve (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, arrived_pct INTEGER NOT NULL,
    arrived_exact_pct REAL, gpu_alloc_pct REAL, frag_amount REAL, frag_rate_pct REAL,
    pods_arrived INTEGER, pods_failed INTEGER, PRIMARY KEY (run_id, arrived_pct));
CREATE TABLE series (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, idx INTEGER NOT NULL, t REAL NOT NULL,
    cpu_util REAL, mem_util REAL, gpu_util REAL, active_nodes INTEGER, gpu_frag_rate REAL, cpu_frag_rate REAL,
    gpu_frag_amount REAL, p99_wait REAL, queued INTEGER, running INTEGER, power_w REAL,
    PRIMARY KEY (run_id, idx));
CREATE TABLE job_results (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, unit INTEGER NOT NULL, job INTEGER NOT NULL,
    first_task INTEGER NOT NULL, task_count INTEGER NOT NULL, submit REAL, start REAL, finish REAL,
    failed INTEGER NOT NULL, PRIMARY KEY (run_id, unit));
CREATE TABLE decisions (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, idx INTEGER NOT NULL, t REAL NOT NULL,
    job INTEGER, task INTEGER, node INTEGER, outcome INTEGER NOT NULL, feasible INTEGER,
    candidates BLOB, PRIMARY KEY (run_id, idx));
)sql";

// Schema 2: per-node utilization of a run for the cluster heatmap (sim::NodeHeat), as two blobs:
// x as float64 per column, util as uint8 per (column, node), column-major.
const char* kSchemaV2 = R"sql(
CREATE TABLE node_heat (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, nodes INTEGER NOT NULL,
    x BLOB NOT NULL, util BLOB NOT NULL);
)sql";

// Schema 3: fine-tune rounds of the learned policy, their training curves and evaluations.
const char* kSchemaV3 = R"sql(
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES rounds(id), trace_id INTEGER REFERENCES traces(id),
    mode TEXT NOT NULL, window TEXT NOT NULL, episodes INTEGER NOT NULL, learning_rate REAL NOT NULL,
    weights TEXT NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL DEFAULT '{}',
    checkpoint TEXT, checkpoint_sha256 TEXT,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),
    error TEXT, pid INTEGER, host TEXT, started_at TEXT NOT NULL, finished_at TEXT, wall_seconds REAL);
CREATE TABLE round_curves (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, episode INTEGER NOT NULL,
    loss REAL, loss_min REAL, loss_max REAL, episode_return REAL, epsilon REAL, decisions INTEGER, seconds REAL,
    PRIMARY KEY (round_id, episode));
CREATE TABLE round_eval (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, policy TEXT NOT NULL, seed INTEGER NOT NULL,
    metric TEXT NOT NULL, value REAL, PRIMARY KEY (round_id, policy, seed, metric));
)sql";

// Schema 4: a copy of an imported trace (our own format, zlib-compressed), so a project replays
// even after the original files moved.
const char* kSchemaV4 = R"sql(
CREATE TABLE trace_data (
    trace_id INTEGER PRIMARY KEY REFERENCES traces(id) ON DELETE CASCADE, format TEXT NOT NULL,
    raw_bytes INTEGER NOT NULL, data BLOB NOT NULL);
)sql";

// Schema 5: state hashes of a run every N decisions (incident replay checks its rebuilds).
const char* kSchemaV5 = R"sql(
CREATE TABLE state_hashes (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, idx INTEGER NOT NULL, hash TEXT NOT NULL,
    PRIMARY KEY (run_id, idx));
)sql";

// Schema 6: each decision's reward by term (6 float32: balance, packing, success, custom, tail, total).
const char* kSchemaV6 = R"sql(
ALTER TABLE decisions ADD COLUMN reward BLOB;
)sql";

// Schema 7: a run's state journal (operations and decision positions, compressed), so incident
// replay can rebuild any decision's state without replaying the run.
const char* kSchemaV7 = R"sql(
CREATE TABLE run_journals (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE, ops INTEGER NOT NULL,
    decisions INTEGER NOT NULL, final_hash TEXT NOT NULL, data BLOB NOT NULL);
)sql";

// Schema 8: the import options that shaped each trace (JSON of its "import.*" metadata), so a run's
// trace reopened from its files is imported the same way (SWF processors per node, sacct zone...).
const char* kSchemaV8 = R"sql(
ALTER TABLE traces ADD COLUMN import_options TEXT NOT NULL DEFAULT '{}';
)sql";

// Schema 10: the safety constraints of a fine-tune round, per training episode: the value, the
// budget and the Lagrange multiplier the episode trained with (core/rl/constraints.h).
const char* kSchemaV10 = R"sql(
CREATE TABLE round_constraints (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, episode INTEGER NOT NULL, name TEXT NOT NULL,
    value REAL, budget REAL NOT NULL, multiplier REAL NOT NULL, PRIMARY KEY (round_id, episode, name));
)sql";

// Schema 11: each episode's validation (rounds trained with validation seeds; NULL before).
const char* kSchemaV11 = R"sql(
ALTER TABLE round_curves ADD COLUMN validation REAL;
)sql";

// Schema 12: the validation of a round's starting weights (episode 0 of its validation; NULL before).
const char* kSchemaV12 = R"sql(
ALTER TABLE rounds ADD COLUMN start_validation REAL;
)sql";

// Schema 13: the start time of a running row's writer (Linux: /proc/PID/stat field 22, clock ticks
// after boot) beside its pid, so a reader tells the writer from a later process given its pid.
const char* kSchemaV13 = R"sql(
ALTER TABLE runs ADD COLUMN pid_start INTEGER;
ALTER TABLE rounds ADD COLUMN pid_start INTEGER;
)sql";

// Autoscaling runs (core/autoscale): the load and service they replayed, the policy, the window,
// named figures, and the per-minute series as float32 rows (autoscale_runs.cpp).
const char* kSchemaV9 = R"sql(
CREATE TABLE autoscale_runs (
    id INTEGER PRIMARY KEY, load TEXT NOT NULL, service TEXT NOT NULL, policy TEXT NOT NULL,
    from_s REAL NOT NULL, duration_s REAL NOT NULL, created_at TEXT NOT NULL,
    series_columns INTEGER NOT NULL, series BLOB);
CREATE TABLE autoscale_summary (
    run_id INTEGER NOT NULL REFERENCES autoscale_runs(id) ON DELETE CASCADE, key TEXT NOT NULL, value REAL NOT NULL,
    PRIMARY KEY (run_id, key));
)sql";

} // namespace

using detail::hostName;
using detail::nowUtc;

Project::~Project() = default;

bool Project::readOnly() const { return m_db->readOnly() && !m_readUntilWrite; }

Result<std::unique_ptr<Project>> Project::open(const std::string& path, OpenMode mode)
{
    if (mode == OpenMode::ReadUntilWrite)
        return openToLook(path); // read_until_write.cpp
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (!exists && mode != OpenMode::CreateIfMissing)
        return makeError(ErrorCode::Io, "project file does not exist", path);
    if (exists && S_ISDIR(st.st_mode))
        return makeError(ErrorCode::Io, "is a directory, not a project file", path);
    if (exists && st.st_size > 0) {
        // Check the SQLite header ourselves: SQLite would only complain at the first query.
        std::ifstream in(path, std::ios::binary);
        char header[16] = {};
        in.read(header, 16);
        if (in.gcount() < 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
            return makeError(ErrorCode::Format,
                "not a schedlab project (not an SQLite database); the file was left untouched", path);
    }
    std::unique_ptr<Project> p(new Project());
    p->m_path = path;
    const Database::Mode dbMode = mode == OpenMode::ReadOnly ? Database::Mode::ReadOnly
        : exists                                             ? Database::Mode::ReadWrite
                                                             : Database::Mode::Create;
    auto db = Database::open(path, dbMode);
    if (!db) {
        // A read-only file opened for writing: fall back to read-only and say so via readOnly().
        if (exists && mode != OpenMode::ReadOnly)
            db = Database::open(path, Database::Mode::ReadOnly);
        if (!db)
            return db.error();
    }
    p->m_db = std::move(db).value();
    Database& d = *p->m_db;

    // Integrity first: a corrupted file gets a message, not a half-read project.
    {
        auto q = d.prepare("PRAGMA quick_check");
        if (!q && d.lastErrorWasCantOpen()) // e.g. a folder it cannot create its -shm file in
            return Error { ErrorCode::Io, "cannot open the project file (" + q.error().message + "); it was not changed", path, -1, -1 };
        if (!q)
            return Error { ErrorCode::Format, "project file is corrupted or not a database: " + q.error().message, path, -1, -1 };
        std::string result;
        if (q->step())
            result = q->columnText(0);
        if (q->error())
            return Error { ErrorCode::Format, "project file is corrupted: " + q->error()->message, path, -1, -1 };
        if (result != "ok")
            return Error { ErrorCode::Format, "project file is corrupted (integrity check: " + result + ")", path, -1, -1 };
    }
    if (!d.readOnly()) {
        if (Status s = d.execPatiently("PRAGMA journal_mode=WAL"); !s)
            return s.error();
    }
    if (Status s = d.exec("PRAGMA foreign_keys=ON"); !s)
        return s.error();

    bool hasMeta = false;
    {
        auto q = d.prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'");
        if (!q)
            return q.error();
        if (q->step())
            hasMeta = q->columnInt(0) > 0;
    }
    if (!hasMeta) {
        int64_t objects = 0;
        {
            // Finalised before the schema's write transaction: a statement left open holds a
            // read snapshot, and a writer with a stale snapshot cannot begin (two processes
            // creating one project would wait for each other until the busy timeout).
            auto q = d.prepare("SELECT count(*) FROM sqlite_master");
            if (!q)
                return q.error();
            objects = q->step() ? q->columnInt(0) : 0;
        }
        if (objects > 0)
            return makeError(ErrorCode::Format,
                "an SQLite database but not a schedlab project (no meta table); the file was left untouched", path);
        if (d.readOnly())
            return makeError(ErrorCode::Io, "empty project file is read-only; cannot initialise it", path);
        if (Status s = p->createSchema(); !s)
            return s.error();
    }
    if (Status s = p->readSchemaVersion(); !s)
        return s.error();
    if (!d.readOnly())
        if (Status s = p->upgrade(); !s)
            return s.error();
    return p;
}

Status Project::readSchemaVersion()
{
    {
        auto q = m_db->prepare("SELECT value FROM meta WHERE key='schema_version'");
        if (!q)
            return q.error();
        if (!q->step())
            return makeError(ErrorCode::Format, "project has no schema version; not a schedlab project", m_path);
        m_schema = std::atoi(q->columnText(0).c_str());
    }
    if (m_schema > kSchemaVersion)
        return makeError(ErrorCode::Format,
            "project was written by a newer schedlab (schema " + std::to_string(m_schema) + ", this build reads up to "
                + std::to_string(kSchemaVersion) + "); not opened, nothing changed",
            m_path);
    if (m_schema < 1)
        return makeError(ErrorCode::Format, "project schema version " + std::to_string(m_schema) + " is invalid", m_path);
    return {};
}

Status Project::upgrade()
{
    if (m_schema < kSchemaVersion)
        if (Status s = migrate(m_schema); !s)
            return s;
    return recoverInterrupted();
}

Status Project::createSchema()
{
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s;
    {
        // Another process may have created it since we looked (two merges into one new project).
        auto q = m_db->prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'");
        if (!q)
            return q.error();
        if (q->step() && q->columnInt(0) > 0)
            return {}; // the transaction rolls back: nothing of ours was written
    }
    if (Status s = m_db->exec(kSchemaV1); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV2); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV3); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV4); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV5); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV6); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV7); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV8); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV9); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV10); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV11); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV12); !s)
        return s;
    if (Status s = m_db->exec(kSchemaV13); !s)
        return s;
    auto ins = m_db->prepare("INSERT INTO meta(key, value) VALUES (?, ?)");
    if (!ins)
        return ins.error();
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>> {
             { "schema_version", std::to_string(kSchemaVersion) }, { "application", "schedlab" }, { "created_at", nowUtc() } })
        if (Status s = ins->bind(1, k).bind(2, v).exec(); !s)
            return s;
    return tx.commit();
}

Status Project::migrate(int from)
{
    // One step per version, each in its own transaction so a crash leaves a consistent version.
    auto step = [this](int to, const char* sql) -> Status {
        Transaction tx(*m_db);
        if (Status s = tx.begin(); !s)
            return s;
        if (Status s = m_db->exec(sql); !s)
            return s;
        auto up = m_db->prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'");
        if (!up)
            return up.error();
        if (Status s = up->bind(1, std::to_string(to)).exec(); !s)
            return s;
        if (Status s = tx.commit(); !s)
            return s;
        m_schema = to;
        return {};
    };
    if (from < 2)
        if (Status s = step(2, kSchemaV2); !s)
            return s;
    if (from < 3)
        if (Status s = step(3, kSchemaV3); !s)
            return s;
    if (from < 4)
        if (Status s = step(4, kSchemaV4); !s)
            return s;
    if (from < 5)
        if (Status s = step(5, kSchemaV5); !s)
            return s;
    if (from < 6)
        if (Status s = step(6, kSchemaV6); !s)
            return s;
    if (from < 7)
        if (Status s = step(7, kSchemaV7); !s)
            return s;
    if (from < 8)
        if (Status s = step(8, kSchemaV8); !s)
            return s;
    if (from < 9)
        if (Status s = step(9, kSchemaV9); !s)
            return s;
    if (from < 10)
        if (Status s = step(10, kSchemaV10); !s)
            return s;
    if (from < 11)
        if (Status s = step(11, kSchemaV11); !s)
            return s;
    if (from < 12)
        if (Status s = step(12, kSchemaV12); !s)
            return s;
    if (from < 13)
        if (Status s = step(13, kSchemaV13); !s)
            return s;
    return {};
}

Result<std::vector<int64_t>> Project::staleRows(const std::string& table)
{
    // Not alive: gone from this host (pid missing, or taken by a process that started later), or
    // on another host, which a writer opening the project takes as interrupted too.
    auto q = m_db->prepare("SELECT id, coalesce(pid, 0), pid_start, coalesce(host, '') FROM " + table + " WHERE status='running'");
    if (!q)
        return q.error();
    std::vector<int64_t> out;
    while (q->step()) {
        const std::optional<int64_t> start = q->columnIsNull(2) ? std::nullopt : std::optional<int64_t>(q->columnInt(2));
        if (detail::writerState(q->columnInt(1), start, q->columnText(3)) != detail::WriterState::Alive)
            out.push_back(q->columnInt(0));
    }
    if (q->error())
        return *q->error();
    return out;
}

Status Project::recoverInterrupted()
{
    auto dead = staleRows("runs");
    if (!dead)
        return dead.error();
    for (int64_t id : dead.value())
        if (Status s = endRun(id, RunStatus::Failed, "interrupted (the process running it stopped)"); !s)
            return s;
    m_recovered = int(dead->size());
    return recoverInterruptedRounds();
}

Result<int64_t> Project::addTrace(const trace::Trace& t, const std::vector<std::string>& files)
{
    if (Status s = writable(); !s)
        return s.error();
    // The options that shaped the trace: the same files read differently are another trace.
    QJsonObject optionsJson;
    for (const auto& [k, v] : t.metadata)
        if (k.rfind("import.", 0) == 0)
            optionsJson.insert(QString::fromStdString(k.substr(7)), QString::fromStdString(v));
    const QByteArray options = QJsonDocument(optionsJson).toJson(QJsonDocument::Compact);
    auto hashed = detail::hashTraceFiles(files, options.toStdString());
    if (!hashed)
        return hashed.error();
    const std::string& digest = hashed->digest;
    const std::string& fileList = hashed->fileList;
    auto find = m_db->prepare("SELECT id FROM traces WHERE content_hash = ?");
    if (!find)
        return find.error();
    find->bind(1, digest);
    if (find->step())
        return find->columnInt(0);
    auto ins = m_db->prepare("INSERT INTO traces(name, format, files, content_hash, nodes, jobs, tasks, imported_at, import_options) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    const std::string name = t.sourceFiles.empty() ? std::string("trace") : t.sourceFiles.back();
    ins->bind(1, name).bind(2, t.sourceFormat).bind(3, fileList).bind(4, digest);
    ins->bind(5, int64_t(t.nodes.size())).bind(6, int64_t(t.jobs.size())).bind(7, int64_t(t.tasks.size()));
    ins->bind(8, nowUtc()).bind(9, options.toStdString());
    if (Status s = ins->exec(); !s)
        return s.error();
    return m_db->lastInsertId();
}

Result<std::vector<RunRow>> Project::runs()
{
    auto q = m_db->prepare("SELECT id, coalesce(trace_id, -1), mode, policy, queue, backfill, status, coalesce(error, ''), "
                           "started_at, coalesce(finished_at, ''), seed, coalesce(wall_seconds, 0), options, "
                           "coalesce(pid, 0), coalesce(host, ''), "
        + std::string(m_schema >= 13 ? "pid_start" : "NULL") // an older project opened read-only
        + " FROM runs ORDER BY id");
    if (!q)
        return q.error();
    std::vector<RunRow> out;
    while (q->step()) {
        RunRow r;
        r.id = q->columnInt(0);
        r.traceId = q->columnInt(1);
        r.mode = q->columnText(2);
        r.policy = q->columnText(3);
        r.queue = q->columnText(4);
        r.backfill = q->columnText(5);
        r.status = q->columnText(6);
        r.error = q->columnText(7);
        r.startedAt = q->columnText(8);
        r.finishedAt = q->columnText(9);
        r.seed = uint64_t(q->columnInt(10));
        r.wallSeconds = q->columnDouble(11);
        r.optionsJson = q->columnText(12);
        // A listing never writes: a run whose process on this host is gone (or whose pid another
        // process took since) is shown as interrupted, and only the next write marks it failed.
        // One on another host (a shard on a cluster node) cannot be checked from here: it stays
        // running, and the error says where.
        const std::optional<int64_t> start = q->columnIsNull(15) ? std::nullopt : std::optional<int64_t>(q->columnInt(15));
        detail::showWriterState(r.status, r.error, detail::writerState(q->columnInt(13), start, q->columnText(14)), q->columnText(14),
            "running");
        out.push_back(std::move(r));
    }
    if (q->error())
        return *q->error();
    return out;
}

Result<std::vector<std::pair<std::string, double>>> Project::summary(int64_t runId)
{
    auto q = m_db->prepare("SELECT key, value FROM run_summary WHERE run_id = ? ORDER BY key");
    if (!q)
        return q.error();
    q->bind(1, runId);
    std::vector<std::pair<std::string, double>> out;
    while (q->step())
        out.push_back({ q->columnText(0), q->columnDouble(1) });
    if (q->error())
        return *q->error();
    return out;
}

Result<int64_t> Project::countRows(const std::string& table, int64_t runId)
{
    if (table != "decisions" && table != "job_results" && table != "series" && table != "fill_curve"
        && table != "run_summary")
        return makeError(ErrorCode::Invalid, "unknown table " + table);
    auto q = m_db->prepare("SELECT count(*) FROM " + table + " WHERE run_id = ?");
    if (!q)
        return q.error();
    q->bind(1, runId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Internal, "count failed");
    return q->columnInt(0);
}

} // namespace schedlab::store
