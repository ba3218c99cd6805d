#pragma once
/// Sweep plan files (docs/sweeps.md, `schedlab.sweep/1`): a study's cells — each a run spec on one
/// of the plan's traces — and their shards. Reading, writing and building plans; running and
/// merging them is core/workflow/sweep.h. Here (in store, beside the run spec codec the cells use)
/// so the plan reader is fuzzed without the learned-policy modules.

#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/import_context.h"

#include <map>
#include <optional>
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

/// A training cell's fine-tune session (workflow/fine_tune_session.h): `rounds` rounds from a
/// fresh network, each `episodes` episodes, with these reward weights (rl::RewardConfig text,
/// checked when planned); the cell's spec gives the mode, seed (training episodes) and options.
struct SweepTraining {
    int rounds = 1;
    int episodes = 3;
    double learningRate = 1e-3;
    double gamma = 0.9;
    int batchSize = 64;
    int64_t maxPods = 0; ///< fill: pods per episode (0 = all)
    std::string weights;
    double fromS = 0, windowS = 4 * 3600.0; ///< timed: training window
    std::vector<uint64_t> evalSeeds { 42, 43, 44 };
    std::vector<std::string> baselines; ///< empty: the round's defaults
};

struct SweepCell {
    int index = 0;
    int trace = 0; ///< into SweepPlan::traces
    int shard = 0;
    sim::RunSpec spec; ///< a training cell: policy "learned", seed = the training seed
    std::optional<SweepTraining> train; ///< set: a training cell (rounds, not a run)
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
    /// Set: training cells, one per (trace, weight vector, seed), instead of policy cells.
    std::optional<SweepTraining> train;
    std::vector<std::string> weights; ///< the weight vectors of training cells (RewardConfig text)
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

/// A training cell's finished key value: "round:<id>" (its last round); a policy cell's is the run id.
inline constexpr const char* kRoundKeyPrefix = "round:";
/// Expands weight ranges into weight vectors: "balance=0.2:0.6:0.2,packing=0.5" -> balance 0.2,
/// 0.4, 0.6 each with packing 0.5 (a range is from:to:step, inclusive; a plain value is fixed);
/// several ranges give their cartesian product, in the order given. ";" separates whole vectors
/// ("balance=1;packing=1"). Errors name the bad part.
Result<std::vector<std::string>> expandWeightRanges(const std::string& text);
/// Hex SHA-256 of a file's bytes (what a plan records of its traces).
Result<std::string> sweepFileSha256(const std::string& path);

} // namespace schedlab::store
