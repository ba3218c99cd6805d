#include "command_table.h"

#include "command_help.h"
#include "commands.h"
#include "import_options.h"
#include "run_option_args.h"

namespace schedlab::cli {

const char* const kUsageHeader = R"(usage: schedlab-cli COMMAND [ARGS]

FILE arguments may be '-' (standard input), a pipe or FIFO (zcat log.swf.gz | schedlab-cli info -), or a folder
(a kubectl or Sonobuoy dump: the files in it that a format recognises)

Import options (info, convert, import, replay, train): --procs-per-node K (SWF), --strict,
  --timezone ZONE (Slurm sacct's local times: UTC (default), UTC-06:00, America/New_York),
  --sacct-fields F1,F2,... (sacct output without a header: its field names, as for sacct --format),
  --sacct-delimiter C (sacct --delimiter C output without a header; with one it is detected),
  --log-year Y (kube-scheduler klog lines carry no year; default: the log file's modification year)

commands:
)";

const char* const kUsageFooter = R"(
Formats are recognised by content: openb node/pod lists (Alibaba GPU 2023), SWF, Google 2011
machine/job/task events (.csv or .csv.gz), and schedlab traces (.sltrace).
)";

namespace {

const OptionSpec kJson { "json", "", "print JSON (docs/cli-json.md) instead of text" };
const OptionSpec kProject { "project", "P", "the project database (created when missing)" };
const OptionSpec kSchedulerConfig { "scheduler-config", "FILE",
    "a KubeSchedulerConfiguration for k8s-default / k8s-sampling (plugin weights, scoring strategy)" };

std::vector<OptionSpec> replayOptions()
{
    return joinOptions({ { { "mode", "fill|timed", "the experiment (without it the trace decides: auto)" },
                             { "policy", "a,b,...", "the placement policies to compare (schedlab-cli policies)" },
                             { "ratio", "1.3", "fill: pods asked for, as a multiple of the cluster's GPUs" },
                             { "no-trim", "", "fill: keep every pod of the list (no random trim to --ratio)" },
                             { "seeds", "42-51", "the seeds, one run each (a list or a range)" },
                             { "tie-break", "order|random|first", "which of equal best nodes a policy takes" },
                             { "jobs", "N", "replays run in parallel (default: the cores)" },
                             { "top-k", "8", "candidates kept per decision in the project's log" },
                             { "sla", "default=3600,LS=600", "timed: the wait per class above which a job misses its SLA" },
                             { "window", "3600", "timed: the width of a series point in seconds" },
                             { "tick", "S", "timed: a scheduling pass every S seconds (default: at each event)" },
                             { "power-off-idle", "", "timed: count idle nodes as powered off" },
                             { "from", "T", "timed: the replay window's start after the first submit (12d, 295h, seconds)" },
                             { "to", "T", "timed: the replay window's end after the first submit" },
                             kProject, kJson, kSchedulerConfig },
        queueOptions(), roomOptions(), importOptions() });
}

// The options train and eval share (cmd_train.cpp: parseCommon).
std::vector<OptionSpec> learningOptions()
{
    std::vector<OptionSpec> room;
    for (const OptionSpec& o : roomOptions())
        if (o.name != "migration-budget") // the fill experiment's; rounds make room in timed replays only
            room.push_back(o);
    return joinOptions({ { { "mode", "fill|timed", "the replay the agent learns in (default fill)" },
                             { "episodes", "E", "training episodes per round (default 3)" },
                             { "lr", "1e-3", "the learning rate" },
                             { "gamma", "0.9", "the discount, in [0, 1)" },
                             { "seed", "S", "the training seed" },
                             { "ratio", "1.3", "fill: pods asked for, as a multiple of the cluster's GPUs" },
                             { "pods", "N", "fill: at most N pods an episode" },
                             { "batch", "64", "the replay batch size" },
                             { "weights", "balance=0.4,packing=0.3,...", "the reward's weights" },
                             { "preset", "default|latency-first|packing-first", "a named set of reward weights" },
                             { "window", "4h", "the span of the trace an episode replays" },
                             { "from", "T", "where that span starts after the first submit" },
                             { "seeds", "42-44", "the evaluation seeds" },
                             { "eval-seeds", "42-44", "the older name of --seeds" },
                             { "baselines", "a,b", "heuristics each round is compared with" },
                             { "preselect-above", "500", "score only the best --preselect-top nodes above this many" },
                             { "preselect-top", "50", "the nodes kept by preselection" },
                             { "wait-action", "", "timed: the agent may hold a job" },
                             { "skip-action", "", "timed: the agent may pass over a job in a scheduling pass" },
                             { "max-waits", "8", "holds in a row (or jobs passed over a pass) at most" },
                             { "budget", "sla=5,migrations=2,...", "timed: budgets kept by Lagrange multipliers" },
                             kProject, kJson },
        queueOptions(), room, importOptions() });
}

std::vector<OptionSpec> trainOptions()
{
    return joinOptions({ learningOptions(),
        { { "rounds", "N", "fine-tune rounds (0..1000; 0 with --teacher: only the imitation round)" },
            { "parent", "ROUND|FILE.slq", "the round or checkpoint the first round starts from" },
            { "out", "FILE.slq", "write the last checkpoint here (without --project)" },
            { "checkpoint-dir", "DIR", "where round checkpoints go (default: next to the project)" },
            { "teacher", "fgd|bestfit|...", "a pre-training round imitating that heuristic comes first" },
            { "teacher-loss", "fgd[:1]", "DQN rounds keep W x a ranking loss toward that heuristic's choices" },
            { "validate", "2000-2001", "fill: each round keeps its best episode on these seeds" },
            { "blend", "0.7", "each round ends with (1 - T) x its start + T x its fine-tuned weights" },
            { "sweep", "weights=RANGES", "one lineage per weight vector (with --project)" } } });
}

std::vector<OptionSpec> trainAutoscaleOptions()
{
    return { { "mode", "autoscale", "train the replica policy" },
        { "service", "FILE", "the service's capacity and cost model" },
        { "from", "T", "where the training span starts in the load" },
        { "window", "T", "the training span" },
        { "episodes", "3", "episodes per round" },
        { "lr", "1e-3", "the learning rate" },
        { "gamma", "0.9", "the discount, in [0, 1)" },
        { "seed", "1", "the training seed" },
        { "weights", "latency=0.3,cost=0.3,sla=0.4", "the reward's weights" },
        { "parent", "ROUND|F.slq", "the round or checkpoint the first round starts from" },
        { "out", "F.slq", "write the last checkpoint here (without --project)" },
        { "eval-from", "T", "evaluate from T (default: right after the training span)" },
        { "eval-window", "T", "the evaluation span" },
        { "baselines", "hpa,forecast", "replica policies each round is compared with" },
        { "project", "P", "store the rounds with their lineage" },
        { "rounds", "N", "fine-tune rounds" },
        { "interpolate", "", "fill missing seconds of the load by interpolation" },
        kJson };
}

std::vector<OptionSpec> evalOptions()
{
    return joinOptions({ learningOptions(),
        { { "policy", "learned:FILE.slq,torchscript:M.pt,bestfit", "the policies to compare" },
            { "round", "R", "evaluate this round of --project" } } });
}

std::vector<OptionSpec> sweepPlanOptions()
{
    return joinOptions({ { { "mode", "fill|timed", "the experiment of every cell" },
                             { "policy", "a,b", "the policies, one cell each" },
                             { "seeds", "42-51", "the seeds, one cell each (training cells: the training seeds)" },
                             { "shards", "N", "split the cells into N shards" },
                             { "out", "S.sweep", "the plan file to write" },
                             { "queue", "fcfs", "timed: the queue order" },
                             { "backfill", "none|easy", "timed: EASY backfilling" },
                             { "ratio", "1.3", "fill: pods asked for, as a multiple of the cluster's GPUs" },
                             { "tie-break", "order", "which of equal best nodes a policy takes" },
                             { "record", "summary|full", "what each cell stores" },
                             { "train-rounds", "N", "training cells: rounds per cell" },
                             { "weights", "balance=0.2:0.6:0.2,packing=0.5", "training cells: weight ranges, one cell per vector" },
                             { "episodes", "3", "training cells: episodes per round" },
                             { "lr", "1e-3", "training cells: the learning rate" },
                             { "gamma", "0.9", "training cells: the discount" },
                             { "batch", "64", "training cells: the batch size" },
                             { "pods", "N", "training cells: at most N pods an episode" },
                             { "window", "4h", "training cells: the span an episode replays" },
                             { "from", "0", "training cells: where that span starts" },
                             { "eval-seeds", "42-44", "training cells: the evaluation seeds" },
                             { "baselines", "a,b", "training cells: heuristics compared with" },
                             kSchedulerConfig },
        importOptions() });
}

std::vector<OptionSpec> autoscaleOptions()
{
    return { { "policy", "hpa,forecast,...", "replica policies: hpa, forecast, forecast:naive, static:N, learned:F.slq, logged" },
        { "service", "FILE", "the service's capacity and cost model" },
        { "from", "T", "where the replay starts in the load" },
        { "window", "T", "the span replayed" },
        { "interpolate", "", "fill missing seconds of the load by interpolation" },
        { "series", "", "print the per-step series" },
        { "incidents", "", "list stretches over the SLO or short of capacity" },
        { "fork-at", "T", "replay the first policy switched to --fork-policy at T" },
        { "fork-policy", "P", "the policy the fork switches to" },
        { "fork-window", "1h", "the span after the fork compared" },
        { "app", "APP|all", "an instance log's app (all: a table of every app)" },
        { "role", "CN|HN", "an instance log's role" },
        { "project", "P", "store each run in the project (without LOAD: list them)" },
        kJson };
}

// Reading traces and replaying them.
std::vector<CommandSpec> traceCommands()
{
    return {
        { "info", "", R"(  info FILE... [--json] [--procs-per-node K] [--strict]
        detect the format, import, and summarise a trace (nodes, jobs, requests, warnings)
)",
            joinOptions({ { kJson }, importOptions() }), runInfo },
        { "convert", "", R"(  convert FILE... --out FILE.sltrace|FILE.jsonl (a decision log) [--procs-per-node K] [--strict]
        import any supported trace and write it in schedlab's own format
)",
            joinOptions({ { { "out", "FILE.sltrace|FILE.jsonl", "the file to write (.jsonl: the trace's decision log)" } }, importOptions() }),
            runConvert },
        { "generate", "", R"(  generate --nodes N --jobs M --seed S (--out FILE.sltrace | --kubectl-dump DIR) [--load L]
        write a synthetic but realistic trace (GPU and CPU nodes, diurnal arrivals); --kubectl-dump writes
        it as nodes/pods/events JSON, placed by FCFS + FirstFit, a snapshot at 90 % of that schedule;
        --kube-scheduler-log DIR [--verbosity 10|2] [--log-format text|json] writes a kubectl dump and the
        log kube-scheduler would have written scheduling it with k8s-default (binds, failures, per-plugin scores),
        under --scheduler-config FILE when given (a KubeSchedulerConfiguration scoring every node)
)",
            { { "nodes", "N", "nodes in the cluster" },
                { "jobs", "M", "jobs in the trace" },
                { "seed", "S", "the generator's seed" },
                { "out", "FILE.sltrace", "the trace to write" },
                { "load", "L", "the offered load" },
                { "span", "T", "the span of the arrivals" },
                { "kubectl-dump", "DIR", "write the trace as a kubectl dump (nodes/pods/events JSON)" },
                { "kube-scheduler-log", "DIR", "write a kubectl dump and kube-scheduler's log of scheduling it" },
                { "verbosity", "10|2", "the log's klog verbosity" },
                { "log-format", "text|json", "the log's format" },
                kSchedulerConfig },
            runGenerate },
        { "import", "", R"(  import FILE... --project P [--json] [--procs-per-node K]
        check a trace and store a compressed copy of it in a project (replays survive moved files)
)",
            joinOptions({ { kProject, kJson }, importOptions() }), runImport },
        { "replay", "", R"(  replay FILE... --mode fill [--policy a,b,...] [--ratio 1.3] [--no-trim] [--seeds 42-51] [--tie-break order|random|first] [--migration none|defragment] [--migration-budget N] [--jobs N] [--project P] [--json]
  replay FILE... --mode timed [--policy a,b] [--queue fcfs|sjf|priority|wfp3|unicep|f1|fair] [--backfill none|easy]
        [--head resort|commit] [--preemption none|priority] [--migration none|defragment] [--migration-restart 60s]
        [--migrations-per-hour N] [--seeds 42] [--sla default=3600,LS=600] [--window 3600] [--tick S] [--power-off-idle] [--project P] [--json]
        [--from T] [--to T] (the replay window from the first submit: 12d, 295h, seconds)
        both: [--top-k 8] [--procs-per-node K] [--strict] [--scheduler-config FILE (a KubeSchedulerConfiguration
        for k8s-default / k8s-sampling: plugin weights, NodeResourcesFit strategy, percentageOfNodesToScore)];
        without --mode the trace decides (auto: fill
        for GPU pod lists and for arrivals below 20 % of the GPUs, else timed over the busiest stretch)
        run placement policies over a trace and compare them (fill: the FGD paper's experiment)
)",
            replayOptions(), runReplay },
        { "runs", "", R"(  runs --project FILE [--json]
        list the runs stored in a project database (status, policy, seed, summary with --json)
)",
            { { "project", "FILE", "the project database" }, kJson }, runRuns },
    };
}

// The learned policies: training, evaluation, checkpoints.
std::vector<CommandSpec> learningCommands()
{
    return {
        { "train", "", R"(  train FILE... [--mode fill|timed] [--rounds N] [--episodes E] [--window 4h] [--from T] [--pods N] [--lr 1e-3]
        [--weights balance=0.4,packing=0.3,success=0.2,custom=0.1] [--preset default|latency-first|packing-first]
        [--parent ROUND|FILE.slq] [--baselines a,b] [--seeds 42-44] [--project P | --out FILE.slq] [--json]
        [--gamma 0.9] [--wait-action [--max-waits 8]] (timed: the agent may hold a job, at most N times in a row)
        [--skip-action [--max-waits 16]] (timed: the agent may pass over up to N jobs a scheduling pass, the pass
        going on to the next; a --teacher skips a job while a shorter one waits behind it; kept in the checkpoint)
        [--teacher fgd|bestfit|k8s-default|...] [--teacher-loss fgd[:1]] [--validate 2000-2001] [--blend 0.7]
        [--preselect-above 500 --preselect-top 50]
        [--sweep weights=RANGES] (with --project: one lineage per weight vector, e.g.
        weights=balance=0.2:0.6:0.2,packing=0.3 or "weights=packing=1;balance=1", then the last rounds and the
        baselines side by side, the Pareto front marked)
        [--migration defragment] [--preemption priority] [--migration-restart 60s] [--migrations-per-hour N]
        (timed: the agent decides each move or eviction: make room or wait, then where the moved task goes)
        [--budget sla=5,migrations=2,evictions=1[,slaS=3600,rate=0.5]] (timed: budgets kept by Lagrange
        multipliers learnt while training; a round whose evaluation ends over one is marked OVER BUDGET)
        fine-tune rounds of the learned policy (libtorch DQN), each evaluated against baselines; with
        --teacher a pre-training round imitating that heuristic comes first (--rounds 0: only it); with
        --teacher-loss the DQN rounds keep W x a ranking loss toward that heuristic's choices (DQfD-style); with
        --validate (fill) each round keeps its episode of best GPU allocation on those seeds (or its start, if
        none beats it); with --blend T each DQN round ends with (1 - T) x its start + T x its fine-tuned
        weights (WiSE-FT; validated blended)
)",
            trainOptions(), runTrain },
        { "train", "--mode autoscale", R"(  train --mode autoscale LOAD (--out F.slq | --project P) [--rounds N] [--parent ROUND|F.slq] [--service FILE]
        [--from T] [--window T] [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--seed 1]
        [--weights latency=0.3,cost=0.3,sla=0.4] [--eval-from T] [--eval-window T] [--baselines hpa,forecast] [--json]
        fine-tune rounds of the learned replica policy (DQN over replica deltas), each trained on a span of the
        load and compared with the baselines on what follows (or --eval-from); with --project they are stored
        with their lineage (rounds --project P); the autoscale command takes a checkpoint as learned:F.slq
)",
            trainAutoscaleOptions(), trainAutoscale },
        { "eval", "", R"(  eval FILE... --policy learned:FILE.slq,torchscript:M.pt,bestfit [--round R --project P] [--mode fill|timed]
        [--seeds 42-44] [--window 4h --from T] [--json]
        compare learned policies and heuristics on held-out seeds or a trace window
)",
            evalOptions(), runEval },
        { "export-model", "", R"(  export-model (--checkpoint FILE.slq | --round R --project P) --out MODEL.pt
        write a checkpoint as TorchScript (float [candidates, 16] -> [candidates])
)",
            { { "checkpoint", "FILE.slq", "the checkpoint to export" },
                { "round", "R", "export this round of --project" },
                { "project", "P", "the project holding --round" },
                { "out", "MODEL.pt", "the TorchScript file to write" } },
            runExportModel },
        { "blend-model", "", R"(  blend-model --from START.slq --to TUNED.slq [--t 0.5] --out BLEND.slq
        a checkpoint (1 - t) x START + t x TUNED, weight by weight (WiSE-FT: a fine-tuned round blended
        with the round it started from keeps much of its gain and much of the start's robustness)
)",
            { { "from", "START.slq", "the checkpoint the blend starts from" },
                { "to", "TUNED.slq", "the fine-tuned checkpoint" },
                { "t", "0.5", "the fine-tuned weights' share, in [0, 1]" },
                { "out", "BLEND.slq", "the checkpoint to write" } },
            runBlendModel },
        { "rounds", "", R"(  rounds --project P [--json]
        the fine-tune rounds of a project: lineage, status, evaluation, checkpoints
)",
            { { "project", "P", "the project database" }, kJson }, runRounds },
    };
}

// Looking into runs, the policies, benchmarks.
std::vector<CommandSpec> incidentCommands()
{
    return {
        { "decisions", "", R"(  decisions --project P --run R [--index K | --at T] [--rescore bestfit,fgd] [--scheduler-config FILE] [--json]
  decisions --project P --run R --list [--job J] [--node N] [--outcome placed|failed|waited|evicted|migrated]
            [--from T] [--to T] [--limit 50] [--json]
  decisions --project P --run R --agreement POLICY [--scheduler-config FILE] [--json]
        incident replay of a run: its incidents (p99 above its SLA or jumping, failure bursts, SLA
        violations, fragmentation spikes), or the state decision K (or the one nearest time T, e.g.
        14h) saw, rebuilt and checked against the run's log, its candidates and what other
        policies would have chosen; --list prints the decisions, filtered. Runs recorded by
        replay --project keep their state journal: no replay is needed (--replay forces one,
        checked decision by decision against the stored log). A trace with logged decisions (Kubernetes
        events, kube-scheduler logs) shows the scheduler's own candidates and per-plugin scores next to
        ours; --agreement re-scores every logged placement's state with POLICY (run: the logged replay)
)",
            { { "project", "P", "the project database" },
                { "run", "R", "the run" },
                { "index", "K", "show decision K" },
                { "at", "T", "show the decision nearest time T (14h)" },
                { "rescore", "bestfit,fgd", "what these policies would have chosen there" },
                { "list", "", "list the decisions, filtered" },
                { "job", "J", "--list: only job J" },
                { "node", "N", "--list: only node N" },
                { "outcome", "placed|failed|waited|evicted|migrated", "--list: only this outcome" },
                { "from", "T", "--list: from time T (pods for fill runs)" },
                { "to", "T", "--list: up to time T" },
                { "limit", "50", "--list: at most this many" },
                { "agreement", "POLICY", "re-score every logged placement with POLICY" },
                { "replay", "", "rebuild states by replaying, checked against the stored log" },
                kSchedulerConfig, kJson },
            runDecisions },
        { "fork", "", R"(  fork --project P --run R (--index K | --at T) --policy B [--window W] [--json]
        continue a run from decision K under policy B; prints the deltas against the original
        (over the window W after K when given: a duration for timed runs, pods for fill runs)
)",
            { { "project", "P", "the project database" },
                { "run", "R", "the run" },
                { "index", "K", "fork at decision K" },
                { "at", "T", "fork at the decision nearest time T" },
                { "policy", "B", "the policy the fork continues with" },
                { "window", "W", "compare over W after the fork (a duration; pods for fill runs)" },
                { "replay", "", "rebuild the state by replaying" },
                kJson },
            runFork },
        { "policies", "", R"(  policies [--json]
        list the policies
)",
            { kJson }, runPolicies },
        { "bench", "", R"(  bench replay [--traces DIR] [--repeat R]
        time fill experiments on openb, the paper grid, NASA and Google timed replays
  bench scaling [--max-jobs N] [--max-easy-jobs N]
        timed replay cost from 10k to N (1M) generated jobs with growing queues, FCFS and EASY
  bench hpc [--nodes 1152] [--jobs 36600] [--load 0.7] [--repeat R] [--no-scan] [--swf-out FILE]
        timed replay of a generated HPC log (nodes of 8 processors, ~2 M tasks): FirstFit, BestFit
        and k8s-default, without backfilling and with EASY, seconds and tasks/s; BestFit also with
        the plain scan over every node (--no-scan skips it); --swf-out keeps the log
  bench model [--traces DIR]
        inference latency of the learned policy per decision (all_node) and training steps per second
  bench import [FILE...] [--traces DIR] [--big-mb N] [--repeat R] [--k8s-pods 100000] [--k8s-nodes 5000]
        measure importer throughput (MB/s) on the real traces, on FILE... and on large generated files
        (openb and SWF of N MB, a kubectl dump; --big-mb 0 skips them)
)",
            { { "traces", "DIR", "the real traces (default ../shared/traces)" },
                { "repeat", "R", "best of R runs" },
                { "max-jobs", "N", "scaling: the largest trace (1M)" },
                { "max-easy-jobs", "N", "scaling: the largest trace replayed with EASY" },
                { "nodes", "1152", "hpc: nodes of 8 processors" },
                { "jobs", "36600", "hpc: jobs in the generated log" },
                { "load", "0.7", "hpc: offered processor-seconds over the machine's" },
                { "no-scan", "", "hpc: skip the runs with the plain scan over every node" },
                { "swf-out", "FILE", "hpc: also write the generated log to FILE" },
                { "big-mb", "N", "import: generated files of N MB (0 skips them)" },
                { "k8s-pods", "100000", "import: pods in the generated kubectl dump" },
                { "k8s-nodes", "5000", "import: nodes in the generated kubectl dump" } },
            runBench },
        { "bench seek", "", R"(  bench seek --project P --run R [--seeks N] [--replay]
        incident replay: time to index a run and to rebuild the state of random decisions
)",
            { { "project", "P", "the project database" },
                { "run", "R", "the run" },
                { "seeks", "N", "random decisions rebuilt" },
                { "seed", "S", "the seed drawing them" },
                { "replay", "", "rebuild by replaying instead of from the state journal" },
                kJson },
            runBenchSeek },
    };
}

// Sweeps, autoscaling, completion.
std::vector<CommandSpec> sweepAndAutoscaleCommands()
{
    return {
        { "sweep plan", "", R"(  sweep plan TRACE... --mode fill|timed [--policy a,b] [--seeds 42-51] [--shards N] --out S.sweep
        [--queue fcfs] [--backfill none|easy] [--ratio 1.3] [--tie-break order] [--scheduler-config FILE]
        [--record summary|full]
        training cells instead of policies: [--train-rounds N] --weights balance=0.2:0.6:0.2,packing=0.5
        [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--batch 64] [--pods N] [--window 4h] [--from 0]
        [--eval-seeds 42-44] [--baselines a,b]  (--seeds: the training seeds, one cell each)
)",
            sweepPlanOptions(), sweepPlan },
        { "sweep run", "", R"(  sweep run S.sweep [--shard I] [--of N] [--project SHARD.schedlab]
  sweep run S.sweep --only-missing [--merged P.schedlab] [--project OUT.schedlab]
)",
            { { "shard", "I", "the shard to run (else SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)" },
                { "of", "N", "the number of shards" },
                { "project", "SHARD.schedlab", "the project the shard runs into" },
                { "only-missing", "", "run only the cells missing from --merged" },
                { "merged", "P.schedlab", "the merged project --only-missing checks" } },
            sweepRun },
        { "sweep merge", "", R"(  sweep merge S.sweep SHARD.schedlab... --project P
)",
            { { "project", "P", "the merged project" } }, sweepMerge },
        { "sweep status", "", R"(  sweep status S.sweep [SHARD.schedlab...] [--project MERGED]
)",
            { { "project", "MERGED", "the merged project" } }, sweepStatus },
        { "sweep emit", "", R"(  sweep emit slurm|k8s S.sweep [--dir SHARDS] [--project P] [--parallel M] [--cpus C] [--mem 4G]
        [--time 04:00:00] [--cli PATH] [--plan-path PATH] [--image IMG] [--claim PVC]
        a study as a plan of cells (trace x policy x seed) in shards; each shard runs into its own
        project (the index from --shard, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; finished cells
        are skipped on a re-run); merge copies every finished cell once; emit prints a Slurm submit
        script (job array + dependent merge) or a Kubernetes Indexed Job (docs/sweeps.md)
)",
            { { "dir", "SHARDS", "where the shard projects go" },
                { "project", "P", "the merged project" },
                { "parallel", "M", "shards running at once" },
                { "cpus", "C", "CPUs per shard" },
                { "mem", "4G", "memory per shard" },
                { "time", "04:00:00", "Slurm: the time limit per shard" },
                { "cli", "PATH", "the schedlab-cli the jobs run" },
                { "plan-path", "PATH", "the plan's path as the jobs see it" },
                { "image", "IMG", "k8s: the container image" },
                { "claim", "PVC", "k8s: the volume claim holding the plan and projects" } },
            sweepEmit },
        { "autoscale", "", R"(  autoscale LOAD [--policy hpa,forecast,forecast:naive,static:N,learned:F.slq] [--service FILE] [--from T] [--window T]
        [--interpolate] [--json] [--series] [--incidents] [--fork-at T --fork-policy P [--fork-window 1h]]
        replay a service's request load (per-second counts, .tbz2 of them, arrivals CSV with TIMESTAMP,
        or timestamp,value CSV) under replica policies: replica-hours, cost, SLO-violation minutes,
        missed requests, scaling actions, scale-up lags, utilisation (core/autoscale/README.md); --incidents
        lists stretches over the SLO or short of capacity; --fork-at replays the first policy switched to
        another at T and compares the two over the window after it
  autoscale LOAD ... --project P | autoscale --project P [--json]
        store each run in the project; without LOAD, list the stored autoscaling runs
  autoscale INSTANCE_LOG --app APP|all [--role CN|HN] [--policy logged,hpa,...] [--service FILE] [--json]
        an instance log with recorded replica counts (the DLRM serving trace): `logged` replays an app's
        recorded replicas, the other policies run on the demand those replicas served; --app all gives
        a table of every app with totals
)",
            autoscaleOptions(), runAutoscale },
        { "bench autoscale", "", R"(  bench autoscale LOAD [--runs 100] [--jobs N] [--service FILE]
        time one HPA run over the whole load and --runs runs of several policies in parallel
)",
            { { "service", "FILE", "the service's capacity and cost model" },
                { "runs", "100", "runs of several policies in parallel" },
                { "jobs", "N", "runs at once" },
                { "from", "T", "where the replay starts in the load" },
                { "window", "T", "the span replayed" },
                { "interpolate", "", "fill missing seconds of the load by interpolation" } },
            benchAutoscale },
        { "completion", "", R"(  completion bash
        print a bash completion script: source <(schedlab-cli completion bash)
)",
            {}, runCompletion },
    };
}

std::vector<CommandSpec> makeTable()
{
    std::vector<CommandSpec> table;
    for (std::vector<CommandSpec> (*group)() : { traceCommands, learningCommands, incidentCommands, sweepAndAutoscaleCommands })
        for (CommandSpec& c : group())
            table.push_back(std::move(c));
    return table;
}

const std::vector<OptionSpec> kNoOptions;

} // namespace

const std::vector<CommandSpec>& commandTable()
{
    static const std::vector<CommandSpec> table = makeTable();
    return table;
}

const CommandSpec* findCommand(const std::string& name, const std::string& form)
{
    for (const CommandSpec& c : commandTable())
        if (c.name == name && c.form == form)
            return &c;
    return nullptr;
}

const std::vector<OptionSpec>& commandOptions(const std::string& name, const std::string& form)
{
    const CommandSpec* c = findCommand(name, form);
    return c ? c->options : kNoOptions;
}

} // namespace schedlab::cli
