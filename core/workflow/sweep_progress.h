#pragma once
/// How far a sweep is (docs/sweeps.md): each cell waiting, running, finished or failed, read from
/// the shard files as they appear (the workbench's Sweeps view and `sweep status` read them while
/// the shards are still running); finished cells carry their run's summary. A project the cells
/// were merged into counts too.

#include "base/result.h"
#include "store/sweep_plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace schedlab::store {
class Project;
}

namespace schedlab::workflow {

enum class CellStatus { Waiting, Running, Failed, Finished, Merged };
const char* cellStatusName(CellStatus s);

struct CellProgress {
    CellStatus status = CellStatus::Waiting;
    std::string file; ///< the shard file (or merged project) holding its run
    int64_t runId = -1; ///< in `file`
    std::string error; ///< of a failed cell's last attempt
    std::map<std::string, double> summary; ///< of a finished or merged cell
};

struct SweepProgress {
    std::vector<CellProgress> cells; ///< by cell index
    std::vector<std::string> shardFiles; ///< read
    std::vector<std::string> problems; ///< "F: not a shard of this sweep", unreadable files
    int count(CellStatus s) const;
};

/// The shard files of a plan where `sweep run` and `sweep emit` put them: `S.sweep.shard-I.schedlab`
/// beside the plan, `S.sweep.shards/shard-I.schedlab` (emit slurm) and `shards/shard-I.schedlab`
/// (emit k8s), those that exist, sorted.
std::vector<std::string> findShardFiles(const std::string& planPath);

/// Reads each shard file (read-only; a file being written is read as of its last commit) and
/// `merged` (may be null). A running or failed run of a shard is matched to the first of that
/// shard's unfinished cells with its policy and seed. Unreadable files are problems, not errors.
SweepProgress readSweepProgress(const store::SweepPlan& plan, const std::vector<std::string>& shardFiles, store::Project* merged = nullptr);

} // namespace schedlab::workflow
