#pragma once
/// Sweep plan files (docs/sweeps.md, `schedlab.sweep/1`): a study's cells — each a run spec on one
/// of the plan's traces — and their shards. Reading, writing and building plans; running and
/// merging them is core/workflow/sweep.h. Here (in store, beside the run spec codec the cells use)
/// so the plan reader is fuzzed without the learned-policy modules.

#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/import_context.h"

#include <map>
#include <string>
#include <vector>

namespace schedlab::store {

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

/// Hex SHA-256 of a file's bytes (what a plan records of its traces).
Result<std::string> sweepFileSha256(const std::string& path);

} // namespace schedlab::store
