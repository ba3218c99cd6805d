// Slurm and Kubernetes descriptions of a sweep (sweep_emit.h).

#include "sweep_emit.h"

#include <algorithm>
#include <cctype>

namespace schedlab::workflow {

namespace {

/// `s` quoted for bash (single quotes; a quote inside closes, escapes and reopens).
std::string sh(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// A Slurm --mem value ("4G") as a Kubernetes quantity ("4Gi").
std::string k8sMemory(const std::string& m)
{
    if (!m.empty() && std::isalpha(static_cast<unsigned char>(m.back())) && m.back() != 'i')
        return m + "i";
    return m;
}

/// `s` as a YAML double-quoted string.
std::string yq(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string emitSlurm(const SweepPlan& plan, const EmitOptions& o)
{
    const std::string array = "0-" + std::to_string(plan.shards - 1) + (o.parallel > 0 ? "%" + std::to_string(o.parallel) : "");
    std::string s;
    s += "#!/bin/bash\n";
    s += "# schedlab sweep " + plan.id + ": " + std::to_string(plan.cells.size()) + " cells in " + std::to_string(plan.shards)
        + " shards (schedlab-cli sweep emit slurm).\n";
    s += "# Run on a Slurm login node; the plan, the trace files and " + o.shardDir + " must be visible on every node.\n";
    s += "set -euo pipefail\n";
    s += "mkdir -p " + sh(o.shardDir) + "\n";
    s += "shards=$(sbatch --parsable --job-name=schedlab-" + plan.id + " --array=" + array + " --cpus-per-task=" + std::to_string(o.cpus)
        + " --mem=" + o.memory + " --time=" + o.timeLimit + " \\\n";
    s += "    --output=" + sh(o.shardDir + "/shard-%a.out") + " <<'SHARD'\n";
    s += "#!/bin/bash\n";
    s += "set -euo pipefail\n";
    s += "exec " + sh(o.cli) + " sweep run " + sh(o.planPath) + " --shard \"$SLURM_ARRAY_TASK_ID\" --project " + sh(o.shardDir)
        + "/shard-\"$SLURM_ARRAY_TASK_ID\".schedlab\n";
    s += "SHARD\n";
    s += ")\n";
    s += "merge=$(sbatch --parsable --job-name=schedlab-" + plan.id + "-merge --dependency=afterok:\"$shards\" --time=00:30:00 \\\n";
    s += "    --output=" + sh(o.shardDir + "/merge.out") + " <<'MERGE'\n";
    s += "#!/bin/bash\n";
    s += "set -euo pipefail\n";
    s += "exec " + sh(o.cli) + " sweep merge " + sh(o.planPath) + " " + sh(o.shardDir) + "/shard-*.schedlab --project " + sh(o.project) + "\n";
    s += "MERGE\n";
    s += ")\n";
    s += "echo \"submitted shards as job $shards, the merge as job $merge (runs when every shard succeeded)\"\n";
    return s;
}

std::string emitKubernetes(const SweepPlan& plan, const EmitOptions& o)
{
    std::string s;
    s += "# schedlab sweep " + plan.id + ": " + std::to_string(plan.cells.size()) + " cells in " + std::to_string(plan.shards)
        + " shards (schedlab-cli sweep emit k8s).\n";
    s += "# Put the plan and its trace files in one folder of the claimed volume (a plan names the files\n";
    s += "# in its folder relative to itself). When the Job completes:\n";
    s += "#   " + o.cli + " sweep merge " + o.planPath + " " + o.shardDir + "/shard-*.schedlab --project " + o.project + "\n";
    s += "apiVersion: batch/v1\n";
    s += "kind: Job\n";
    s += "metadata:\n";
    s += "  name: schedlab-sweep-" + plan.id + "\n";
    s += "  labels:\n";
    s += "    app.kubernetes.io/name: schedlab-sweep\n";
    s += "spec:\n";
    s += "  completionMode: Indexed\n";
    s += "  completions: " + std::to_string(plan.shards) + "\n";
    s += "  parallelism: " + std::to_string(o.parallel > 0 ? std::min(o.parallel, plan.shards) : plan.shards) + "\n";
    s += "  backoffLimit: " + std::to_string(std::max(6, plan.shards)) + "\n";
    s += "  template:\n";
    s += "    spec:\n";
    s += "      restartPolicy: Never\n";
    s += "      containers:\n";
    s += "      - name: shard\n";
    s += "        image: " + yq(o.image) + "\n";
    s += "        command: [" + yq(o.cli) + ", \"sweep\", \"run\", " + yq(o.planPath) + ", \"--project\", "
        + yq(o.shardDir + "/shard-$(JOB_COMPLETION_INDEX).schedlab") + "]\n";
    s += "        resources:\n";
    s += "          requests:\n";
    s += "            cpu: \"" + std::to_string(o.cpus) + "\"\n";
    s += "            memory: " + yq(k8sMemory(o.memory)) + "\n";
    s += "        volumeMounts:\n";
    s += "        - name: sweep\n";
    s += "          mountPath: /sweep\n";
    s += "      volumes:\n";
    s += "      - name: sweep\n";
    s += "        persistentVolumeClaim:\n";
    s += "          claimName: " + yq(o.volumeClaim) + "\n";
    return s;
}

} // namespace schedlab::workflow
