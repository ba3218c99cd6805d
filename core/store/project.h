#pragma once
/// The project database (one SQLite file, `.schedlab`): imported traces with a content hash, runs
/// with their options, status and timing, summary metrics, time series / fill curves, per-job
/// results and the decision log.
///
/// Crash safety: WAL journal, foreign keys on. A run is inserted as 'running' (with the writer's
/// pid, its start time and host) before it starts and all its results are written in ONE
/// transaction when it finishes, so a crash never leaves half a run; listings show runs and rounds
/// still 'running' whose process is gone (pid missing or taken by a later process) as
/// "interrupted", and the next open for writing marks them 'failed' ("interrupted"). A cancelled
/// run is stored as 'cancelled' with no results.
/// Files that are not SQLite, come from a newer schema, or are corrupted are refused with a clear
/// message and never written to.

#include "base/result.h"
#include "sim/fill_experiment.h"
#include "sim/run_spec.h"
#include "sim/state_journal.h"
#include "sim/timed_replay.h"
#include "trace/import_context.h"
#include "trace/trace.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::store {

class Database;

/// Schema version this build writes; files with a higher version are refused.
inline constexpr int kSchemaVersion = 13;

enum class RunStatus { Running, Finished, Failed, Cancelled };
const char* runStatusName(RunStatus s);

/// What a run is, before it starts.
struct RunInfo {
    int64_t traceId = -1;
    std::string mode; ///< "fill" or "timed"
    std::string policy;
    std::string queue; ///< timed only
    std::string backfill; ///< timed only
    std::string optionsJson; ///< every option, for reproduction
    uint64_t seed = 0;
};

/// A stored run as listed. `status` is as stored, except a 'running' run whose process on this
/// host is gone: "interrupted" (a run on another host stays "running", its error naming the host).
struct RunRow {
    int64_t id = -1;
    int64_t traceId = -1;
    std::string mode, policy, queue, backfill, status, error, startedAt, finishedAt;
    uint64_t seed = 0;
    double wallSeconds = 0;
    std::string optionsJson;
};

/// A finished run read back for the views (summary, series or fill curve, per-job results, heat;
/// not the decision log). Exactly one of timed / fill is set, by mode.
struct StoredRun {
    RunRow row;
    std::optional<sim::TimedResult> timed;
    std::optional<sim::FillResult> fill;
};

/// A run's state journal as stored (incident replay without replaying the run).
struct StoredJournal {
    std::vector<sim::StateJournal::Op> ops;
    std::vector<int64_t> statePos; ///< per decision, in decision order
    uint64_t finalHash = 0; ///< state hash after every operation
};

/// A fine-tune round of the learned policy, before it starts.
/// What a round trained (the rounds table's `mode` column): the placement agent in the fill
/// experiment or in a timed replay, or a replica policy on a load series.
enum class RoundKind { Fill, Timed, Autoscale };
/// "fill", "timed", "autoscale": the text stored in the rounds table.
const char* roundKindName(RoundKind kind);
/// Accepts the names of roundKindName(); false otherwise (kind untouched).
bool parseRoundKind(const std::string& name, RoundKind& kind);
/// The round kind of a placement round in `mode`.
inline RoundKind roundKindOf(sim::RunMode mode) { return mode == sim::RunMode::Fill ? RoundKind::Fill : RoundKind::Timed; }
/// The replay mode of a placement round (Fill or Timed); Timed for Autoscale, which has none.
inline sim::RunMode runModeOf(RoundKind kind) { return kind == RoundKind::Fill ? sim::RunMode::Fill : sim::RunMode::Timed; }

struct RoundInfo {
    int64_t parentId = -1; ///< -1 = trained from scratch
    int64_t traceId = -1;
    RoundKind kind = RoundKind::Fill;
    std::string window; ///< e.g. "4h from 0s" or "all pods"
    int episodes = 0;
    double learningRate = 0;
    std::string weights; ///< RewardConfig::toString()
    uint64_t seed = 0;
    std::string optionsJson;
};

/// One episode of a round's training curve.
struct CurvePoint {
    int episode = 0;
    double loss = -1, lossMin = -1, lossMax = -1, episodeReturn = 0, epsilon = 0, seconds = 0;
    int64_t decisions = 0;
    double validation = -1; ///< schema 11: the episode's validation (fill GPU allocation %), -1 = none
};

/// The weights a round trained with validation seeds kept (those its checkpoint holds): the first
/// episode of highest validation (lowest with `lowerIsBetter`: a timed round's p99 wait), or
/// episode 0, the starting weights, when none beat `startValidation` (schema 12; -1 = not
/// validated, rounds of older builds).
struct KeptWeights {
    int episode = 0; ///< 1-based; 0 = the starting weights
    double validation = -1;
};
/// Nullopt when no episode has a validation.
std::optional<KeptWeights> keptWeights(const std::vector<CurvePoint>& curve, double startValidation = -1, bool lowerIsBetter = false);

/// One evaluation figure: policy ("learned" or a baseline) x seed x metric.
struct EvalValue {
    std::string policy;
    uint64_t seed = 0;
    std::string metric;
    double value = 0;
};

/// One constraint of a round in one training episode (schema 10): its value (-1 when unmeasured),
/// budget and the Lagrange multiplier the episode trained with.
struct ConstraintPoint {
    int episode = 0;
    std::string name; ///< "sla", "migrations", "evictions"
    double value = -1, budget = 0, multiplier = 0;
};

/// A stored round as listed; `status` as RunRow's ("interrupted" when its process is gone).
struct RoundRow {
    int64_t id = -1, parentId = -1, traceId = -1;
    RoundKind kind = RoundKind::Fill;
    std::string window, weights, checkpoint, checkpointSha256, status, error, startedAt, finishedAt;
    int episodes = 0;
    double learningRate = 0, wallSeconds = 0;
    uint64_t seed = 0;
    std::string optionsJson; ///< RoundInfo::optionsJson ("{}" when none)
    double startValidation = -1; ///< schema 12: the starting weights' validation, -1 = none
};

/// An autoscaling run as stored (schema 9): what it replayed and its figures. The store keeps it
/// opaque (core/autoscale is not a dependency): `summary` holds named figures, `series` the
/// per-minute rows, `seriesColumns` floats each.
struct AutoscaleRunRecord {
    int64_t id = 0;
    std::string load, service, policy, createdAt;
    double fromS = 0, durationS = 0;
    std::vector<std::pair<std::string, double>> summary;
    int seriesColumns = 0;
    std::vector<float> series;
    double value(const std::string& key, double fallback = 0) const;
};

class Project {
public:
    /// ReadUntilWrite: an existing project for a user who may only look (the workbench). It opens
    /// read-only (an older schema is read as it is: readers skip what it lacks) and its first
    /// write reopens it for writing, migrating an older schema and marking runs and rounds of
    /// dead writers failed; so looking never changes the file. A file nothing here can write
    /// opens as with ExistingOnly (read-only).
    enum class OpenMode { CreateIfMissing, ExistingOnly, ReadOnly, ReadUntilWrite };
    /// Opens or creates a project; migrates older schemas; recovers interrupted runs.
    static Result<std::unique_ptr<Project>> open(const std::string& path, OpenMode mode = OpenMode::CreateIfMissing);
    ~Project();

    int schemaVersion() const { return m_schema; }
    /// Writes fail ("project is read-only"). False for a project opened ReadUntilWrite.
    bool readOnly() const;
    /// An older project opened ReadUntilWrite and not written yet: its first write migrates it.
    bool migratesOnWrite() const { return m_readUntilWrite && m_schema < kSchemaVersion; }
    const std::string& path() const { return m_path; }
    /// Runs found 'running' from a dead process and marked failed when this project was opened.
    int recoveredRuns() const { return m_recovered; }

    /// Records an imported trace; the same content (SHA-256 of the files) returns the existing id.
    Result<int64_t> addTrace(const trace::Trace& trace, const std::vector<std::string>& files);
    /// Records the trace (addTrace) and stores a compressed copy of it in our format, all in one
    /// transaction: a crash leaves either the whole import or none of it. Returns the trace id.
    Result<int64_t> importTrace(const trace::Trace& trace, const std::vector<std::string>& files);
    /// The stored copy of an imported trace; an error when the trace has none.
    Result<trace::Trace> storedTrace(int64_t traceId);
    /// Inserts a run as 'running'; returns its id.
    Result<int64_t> beginRun(const RunInfo& info);
    /// Writes everything of a finished run in one transaction and marks it 'finished'.
    Status finishFillRun(int64_t runId, const sim::FillResult& result);
    Status finishTimedRun(int64_t runId, const sim::TimedResult& result);
    /// Marks a run cancelled or failed (no results are kept).
    Status endRun(int64_t runId, RunStatus status, const std::string& error = {});

    Result<std::vector<RunRow>> runs();
    /// Copies finished runs of the project file `otherPath` (same schema) into this one, in one
    /// transaction: each run's row under a new id, its results, decisions, journal, and its trace
    /// (the one here with the same content hash, else a copy). Each run comes with a setting key
    /// that records its new id in the same transaction; a run whose key is set already is not
    /// copied (two merges at once copy a run once). Returns, per run, (its id here, copied now)
    /// (project_merge.cpp; used by sweep merge).
    Result<std::vector<std::pair<int64_t, bool>>> copyRunsFrom(const std::string& otherPath,
        const std::vector<std::pair<int64_t, std::string>>& runs);

    /// A lineage of rounds of another project file to copy: ids oldest first (each the parent of
    /// the next; the first a root or a round whose parent is not copied), and the setting key that
    /// records the copy (its value "round:<id here of the last>").
    struct RoundChain {
        std::vector<int64_t> rounds;
        std::string onceKey;
    };
    /// Copies finished rounds of `otherPath` (same schema) with their curves, evaluations, trace
    /// and checkpoint files (into `checkpointDir`, as round-<new id>.slq, checked against their
    /// SHA-256; a checkpoint not where the other file says is looked for in "<otherPath>.models")
    /// in one transaction, remapping parents. A chain whose key is set is not copied again.
    /// Returns, per chain, (the last round's id here, copied now) (project_merge.cpp).
    Result<std::vector<std::pair<int64_t, bool>>> copyRoundsFrom(const std::string& otherPath, const std::vector<RoundChain>& chains,
        const std::string& checkpointDir);

    // Fine-tune rounds (rounds.cpp); same crash rules as runs: inserted 'running', finished in one
    // transaction with curves and evaluation, interrupted ones marked failed on the next open.
    Result<int64_t> beginRound(const RoundInfo& info);
    /// Stores an autoscaling run (one transaction); its id.
    Result<int64_t> addAutoscaleRun(const AutoscaleRunRecord& run);
    /// The stored autoscaling runs, oldest first; series only when `withSeries`.
    Result<std::vector<AutoscaleRunRecord>> autoscaleRuns(bool withSeries = false) const;
    Status finishRound(int64_t roundId, const std::string& checkpoint, const std::string& sha256,
        const std::vector<CurvePoint>& curve, const std::vector<EvalValue>& eval, double wallSeconds,
        const std::vector<ConstraintPoint>& constraints = {}, double startValidation = -1);
    Status endRound(int64_t roundId, RunStatus status, const std::string& error = {});
    Result<std::vector<RoundRow>> rounds();
    Result<std::vector<CurvePoint>> roundCurve(int64_t roundId);
    /// The round's constraints by episode, then name (empty for a round without budgets).
    Result<std::vector<ConstraintPoint>> roundConstraints(int64_t roundId);
    Result<std::vector<EvalValue>> roundEval(int64_t roundId);
    /// Writes a consistent copy of the whole project to `path` (SQLite VACUUM INTO; the file
    /// must not exist).
    Status copyTo(const std::string& path);
    /// Project-wide settings (e.g. "reward_weights"), kept in the meta table. Empty when unset.
    Result<std::string> setting(const std::string& key);
    Status setSetting(const std::string& key, const std::string& value);
    /// The decision log of a run (decisions and their stored candidates).
    Result<sim::DecisionLog> decisions(int64_t runId);
    /// State hashes recorded during a run: (decision index, hash of the state that decision saw).
    Result<std::vector<std::pair<int64_t, uint64_t>>> stateHashes(int64_t runId);
    /// Files a stored trace was imported from (as recorded; they may have moved since).
    Result<std::vector<std::string>> traceFiles(int64_t traceId);
    /// Whether the trace has a stored copy (importTrace), without reading it.
    Result<bool> hasStoredTrace(int64_t traceId);
    /// Whether `files` are the trace's (its files moved or copied: the same bytes in the same
    /// order, under any names): they must hash, with the recorded import options, to the trace's
    /// content hash; else an error naming the first file. Reads only (trace_location.cpp).
    Status checkTraceFiles(int64_t traceId, const std::vector<std::string>& files);
    /// Records that the trace's files are now `files`, once checkTraceFiles accepts them; stored
    /// absolute like addTrace's (the `files` column, no schema change). An error on a read-only
    /// project.
    Status relocateTrace(int64_t traceId, const std::vector<std::string>& files);
    /// The import options that shaped the trace (its "import.*" metadata when it was added; see
    /// trace::recordImportOptions): reopen its files with these to get the same trace.
    Result<trace::ImportOptions> traceImportOptions(int64_t traceId);
    /// Stores a finished run's state journal: its operations and each decision's position
    /// (`log`), compressed, and the final state hash, in one transaction (replacing any earlier one).
    Status storeJournal(int64_t runId, const sim::StateJournal& journal, const sim::DecisionLog& log, uint64_t finalHash);
    /// The stored journal of a run; nullopt when none was stored. A blob that does not unpack is
    /// an error naming the run.
    Result<std::optional<StoredJournal>> journal(int64_t runId);
    /// Reads a finished run back; an unfinished one is an error naming its status.
    Result<StoredRun> loadRun(int64_t runId);
    /// Summary metrics of a run, by key ("finalGpuAllocPct", "wait.p99", ...).
    Result<std::vector<std::pair<std::string, double>>> summary(int64_t runId);
    /// Number of stored rows of a run in a table ("decisions", "job_results", "series", "fill_curve").
    Result<int64_t> countRows(const std::string& table, int64_t runId);

private:
    Project() = default;
    static Result<std::unique_ptr<Project>> openToLook(const std::string& path);
    /// Every write starts here: a project opened ReadUntilWrite is reopened for writing, migrated
    /// and recovered first (read_until_write.cpp). Call before any transaction begins.
    Status writable();
    Status readSchemaVersion();
    /// Migrates an older schema, then recovers interrupted runs and rounds (a writer's open).
    Status upgrade();
    Status createSchema();
    Status migrate(int from);
    /// Ids of 'runs' or 'rounds' rows left 'running' by a writer that is not alive here.
    Result<std::vector<int64_t>> staleRows(const std::string& table);
    Status recoverInterrupted();
    Status recoverInterruptedRounds();
    Status writeSummary(int64_t runId, const std::vector<std::pair<std::string, double>>& values);
    Status writeDecisions(int64_t runId, const sim::DecisionLog& log);
    Status writeHeat(int64_t runId, const sim::NodeHeat& heat);
    Status writeStateHashes(int64_t runId, const std::vector<std::pair<int64_t, uint64_t>>& hashes);
    Status readHeat(int64_t runId, sim::NodeHeat& heat);
    Status markFinished(int64_t runId, double wallSeconds);

    std::unique_ptr<Database> m_db;
    std::string m_path;
    int m_schema = 0;
    int m_recovered = 0;
    bool m_readUntilWrite = false; ///< opened ReadUntilWrite, not written yet
};

} // namespace schedlab::store
