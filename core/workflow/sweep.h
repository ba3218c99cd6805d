#pragma once
/// Sweeps (docs/sweeps.md): a plan file lists the cells of a study — each a run spec on one of the
/// plan's traces — and assigns them to shards. A shard runs its cells into its own project file
/// (restart-safe: finished cells are skipped); merging copies the shards' runs into one project,
/// once each. Slurm job arrays and Kubernetes Indexed Jobs run the shards (sweep_emit.cpp).

#include "base/progress.h"
#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/import_context.h"

#include <map>
#include <string>
#include <vector>

namespace schedlab::store {
class Project;
}

namespace schedlab::workflow {

/// The schema written into plan files; a plan of another schema is refused.
inline constexpr const char* kSweepSchema = "schedlab.sweep/1";

struct SweepTrace {
    /// Absolute paths, as bytes; the plan file names those in its folder relative to itself.
    std::vector<std::string> files;
    std::vector<std::string> sha256; ///< of each file's content, when planned
    std::map<std::string, std::string> importOptions; ///< the trace's "import.*" metadata
};

struct SweepCell {
    int index = 0;
    int trace = 0; ///< into SweepPlan::traces
    int shard = 0;
    sim::RunSpec spec;
};

struct SweepPlan {
    std::string id; ///< hex SHA-256 of the plan's traces and cells: shards and merges must agree on it
    int shards = 1;
    /// Cells keep their decision logs and state journals ("full"), or results, series and
    /// summaries only ("summary", the default: a fraction of the bytes).
    bool recordDecisions = false;
    std::vector<SweepTrace> traces;
    std::vector<SweepCell> cells;

    /// Cells of shard `s`, in index order.
    std::vector<const SweepCell*> cellsOf(int s) const;
};

/// What `sweep plan` builds from: the traces (each a list of files read together), the policies,
/// the seeds, the base options of the mode and the number of shards; cells are assigned to shards
/// round-robin in (trace, policy, seed) order.
struct SweepSpec {
    std::vector<std::vector<std::string>> traces;
    trace::ImportOptions importOptions;
    std::vector<std::string> policies;
    std::vector<uint64_t> seeds;
    sim::RunSpec base; ///< mode and options (the policy and seed are the cells')
    int shards = 1;
    bool recordDecisions = false;
};

/// Hashes the traces' files, checks each trace imports, and lays out the cells.
Result<SweepPlan> makeSweepPlan(const SweepSpec& spec);
/// Reads a plan; errors name the file and the JSON path of a bad field.
Result<SweepPlan> readSweepPlan(const std::string& path);
Status writeSweepPlan(const SweepPlan& plan, const std::string& path);

/// The shard index from the engine running it: SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX
/// (Kubernetes Indexed Jobs); -1 when neither is set.
int shardFromEnvironment();

/// The project setting naming the run of cell `index` of plan `planId` ("sweep.<id>.cell.<index>").
std::string sweepCellKey(const std::string& planId, int index);

struct ShardReport {
    int ran = 0, skipped = 0, failed = 0;
    std::vector<std::string> errors; ///< "cell 7: ..." for each failed cell
};

/// Runs the cells of shard `shard` into `project`: a cell whose run is recorded finished there is
/// skipped; each run is recorded as it goes (an interrupted cell is marked failed on the next
/// open, and runs again). The traces' files must still hash as planned.
Result<ShardReport> runSweepShard(const SweepPlan& plan, int shard, store::Project& project, ProgressFn progress = {},
    CancelToken cancel = {});

struct MergeReport {
    int merged = 0; ///< runs copied in by this merge
    int already = 0; ///< cells the project had merged before
    std::vector<int> missing; ///< cells no shard file holds a finished run of
    std::vector<std::string> refused; ///< shard files of another plan, unreadable or newer
};

/// Copies every finished cell of the shard files into `project` (once: merging again adds nothing).
Result<MergeReport> mergeSweep(const SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project& project);

} // namespace schedlab::workflow
