#pragma once
/// Sweeps (docs/sweeps.md): a plan file lists the cells of a study — each a run spec on one of the
/// plan's traces, or a fine-tune session (training cell: rounds of the learned policy with one
/// weight vector) — and assigns them to shards. A shard runs its cells into its own project file
/// (restart-safe: finished cells are skipped); merging copies the shards' runs into one project,
/// once each. Slurm job arrays and Kubernetes Indexed Jobs run the shards (sweep_emit.cpp).

#include "base/progress.h"
#include "base/result.h"
#include "store/sweep_plan.h"

#include <string>
#include <vector>

namespace schedlab::store {
class Project;
}

namespace schedlab::workflow {

using store::kSweepSchema;
using store::makeSweepPlan;
using store::readSweepPlan;
using store::shardFromEnvironment;
using store::SweepCell;
using store::sweepCellKey;
using store::SweepPlan;
using store::SweepSpec;
using store::SweepTrace;
using store::writeSweepPlan;

struct ShardReport {
    int ran = 0, skipped = 0, failed = 0;
    std::vector<std::string> errors; ///< "cell 7: ..." for each failed cell
};

/// Runs the cells of shard `shard` into `project`: a cell whose run is recorded finished there is
/// skipped; each run is recorded as it goes (an interrupted cell is marked failed on the next
/// open, and runs again). The traces' files must still hash as planned.
Result<ShardReport> runSweepShard(const SweepPlan& plan, int shard, store::Project& project, ProgressFn progress = {},
    CancelToken cancel = {});

/// Runs every cell of the plan that no file of `shardFiles` (other than `project` itself) nor
/// `merged` (may be null) holds finished, into `project` — after a node failure, the cells left
/// over, wherever their shard was. A cell still running elsewhere runs here too; the merge keeps
/// whichever copy it meets first.
Result<ShardReport> runMissingCells(const SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project* merged,
    store::Project& project, ProgressFn progress = {}, CancelToken cancel = {});

struct MergeReport {
    int merged = 0; ///< runs copied in by this merge
    int already = 0; ///< cells the project had merged before
    std::vector<int> missing; ///< cells no shard file holds a finished run of
    std::vector<std::string> refused; ///< shard files of another plan, unreadable or newer
};

/// Copies every finished cell of the shard files into `project` (once: merging again adds nothing).
Result<MergeReport> mergeSweep(const SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project& project);

} // namespace schedlab::workflow
