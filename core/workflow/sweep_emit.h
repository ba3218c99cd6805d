#pragma once
/// Job descriptions that run a sweep's shards on the engines users already operate
/// (docs/sweeps.md): a Slurm submit script (a job array of the shards, then the merge as a
/// dependent job) and a Kubernetes Indexed Job manifest. Each shard runs `schedlab-cli sweep run
/// PLAN` into its own project file; the shard index comes from SLURM_ARRAY_TASK_ID or
/// JOB_COMPLETION_INDEX.

#include "sweep.h"

#include <string>

namespace schedlab::workflow {

struct EmitOptions {
    std::string cli = "schedlab-cli"; ///< the command as the nodes run it
    std::string planPath; ///< the plan as the nodes see it
    std::string shardDir; ///< where the shard project files go (shared by the nodes)
    std::string project; ///< the merged project
    int parallel = 0; ///< at most this many shards at once (0 = no limit)
    int cpus = 1; ///< per shard
    std::string memory = "4G"; ///< per shard (Slurm: --mem; Kubernetes: Gi/Mi request)
    std::string timeLimit = "04:00:00"; ///< per shard (Slurm --time)
    std::string image = "schedlab:latest"; ///< Kubernetes: the container image
    std::string volumeClaim = "schedlab-sweep"; ///< Kubernetes: the PersistentVolumeClaim mounted at /sweep
};

/// A bash script to run on a Slurm login node: sbatch of the shard array
/// (--array=0-(N-1)[%M]), then sbatch of the merge with --dependency=afterok on it.
std::string emitSlurm(const SweepPlan& plan, const EmitOptions& options);

/// A batch/v1 Job with completionMode Indexed, completions = shards, the plan and shard files on
/// the claimed volume at /sweep.
std::string emitKubernetes(const SweepPlan& plan, const EmitOptions& options);

} // namespace schedlab::workflow
