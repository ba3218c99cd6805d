// schedlab-cli: the headless entry point over the core library.

#include "commands.h"

#include "base/process_tuning.h"

#include <QCoreApplication>

#include <cstdio>
#include <cctype>
#include <algorithm>
#include <sstream>
#include <set>
#include <map>
#include <cstring>
#include <string>
#include <vector>

namespace {
const char* kUsage = R"(usage: schedlab-cli COMMAND [ARGS]

FILE arguments may be '-' (standard input), a pipe or FIFO (zcat log.swf.gz | schedlab-cli info -), or a folder
(a kubectl or Sonobuoy dump: the files in it that a format recognises)

Import options (info, convert, import, replay, train): --procs-per-node K (SWF), --strict,
  --timezone ZONE (Slurm sacct's local times: UTC (default), UTC-06:00, America/New_York),
  --sacct-fields F1,F2,... (sacct output without a header: its field names, as for sacct --format),
  --log-year Y (kube-scheduler klog lines carry no year; default: the log file's modification year)

commands:
  info FILE... [--json] [--procs-per-node K] [--strict]
        detect the format, import, and summarise a trace (nodes, jobs, requests, warnings)
  convert FILE... --out FILE.sltrace|FILE.jsonl (a decision log) [--procs-per-node K] [--strict]
        import any supported trace and write it in schedlab's own format
  generate --nodes N --jobs M --seed S (--out FILE.sltrace | --kubectl-dump DIR) [--load L]
        write a synthetic but realistic trace (GPU and CPU nodes, diurnal arrivals); --kubectl-dump writes
        it as nodes/pods/events JSON, placed by FCFS + FirstFit, a snapshot at 90 % of that schedule;
        --kube-scheduler-log DIR [--verbosity 10|2] [--log-format text|json] writes a kubectl dump and the
        log kube-scheduler would have written scheduling it with k8s-default (binds, failures, per-plugin scores),
        under --scheduler-config FILE when given (a KubeSchedulerConfiguration scoring every node)
  import FILE... --project P [--json] [--procs-per-node K]
        check a trace and store a compressed copy of it in a project (replays survive moved files)
  replay FILE... --mode fill [--policy a,b,...] [--ratio 1.3] [--no-trim] [--seeds 42-51] [--tie-break order|random|first] [--migration none|defragment] [--migration-budget N] [--jobs N] [--project P] [--json]
  replay FILE... --mode timed [--policy a,b] [--queue fcfs|sjf|priority|wfp3|unicep|f1|fair] [--backfill none|easy]
        [--head resort|commit] [--preemption none|priority] [--migration none|defragment] [--migration-restart 60s]
        [--migrations-per-hour N] [--seeds 42] [--sla default=3600,LS=600] [--window 3600] [--tick S] [--power-off-idle] [--project P] [--json]
        [--from T] [--to T] (the replay window from the first submit: 12d, 295h, seconds)
        both: [--top-k 8] [--procs-per-node K] [--strict] [--scheduler-config FILE (a KubeSchedulerConfiguration
        for k8s-default / k8s-sampling: plugin weights, NodeResourcesFit strategy, percentageOfNodesToScore)];
        without --mode the trace decides (auto: fill
        for GPU pod lists and for arrivals below 20 % of the GPUs, else timed over the busiest stretch)
        run placement policies over a trace and compare them (fill: the FGD paper's experiment)
  runs --project FILE [--json]
        list the runs stored in a project database (status, policy, seed, summary with --json)
  train FILE... [--mode fill|timed] [--rounds N] [--episodes E] [--window 4h] [--from T] [--pods N] [--lr 1e-3]
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
  train --mode autoscale LOAD (--out F.slq | --project P) [--rounds N] [--parent ROUND|F.slq] [--service FILE]
        [--from T] [--window T] [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--seed 1]
        [--weights latency=0.3,cost=0.3,sla=0.4] [--eval-from T] [--eval-window T] [--baselines hpa,forecast] [--json]
        fine-tune rounds of the learned replica policy (DQN over replica deltas), each trained on a span of the
        load and compared with the baselines on what follows (or --eval-from); with --project they are stored
        with their lineage (rounds --project P); the autoscale command takes a checkpoint as learned:F.slq
  eval FILE... --policy learned:FILE.slq,torchscript:M.pt,bestfit [--round R --project P] [--mode fill|timed]
        [--seeds 42-44] [--window 4h --from T] [--json]
        compare learned policies and heuristics on held-out seeds or a trace window
  export-model (--checkpoint FILE.slq | --round R --project P) --out MODEL.pt
        write a checkpoint as TorchScript (float [candidates, 16] -> [candidates])
  blend-model --from START.slq --to TUNED.slq [--t 0.5] --out BLEND.slq
        a checkpoint (1 - t) x START + t x TUNED, weight by weight (WiSE-FT: a fine-tuned round blended
        with the round it started from keeps much of its gain and much of the start's robustness)
  rounds --project P [--json]
        the fine-tune rounds of a project: lineage, status, evaluation, checkpoints
  decisions --project P --run R [--index K | --at T] [--rescore bestfit,fgd] [--scheduler-config FILE] [--json]
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
  fork --project P --run R (--index K | --at T) --policy B [--window W] [--json]
        continue a run from decision K under policy B; prints the deltas against the original
        (over the window W after K when given: a duration for timed runs, pods for fill runs)
  policies [--json]
        list the policies
  bench replay [--traces DIR] [--repeat R]
        time fill experiments on openb, the paper grid, NASA and Google timed replays
  bench scaling [--max-jobs N] [--max-easy-jobs N]
        timed replay cost from 10k to N (1M) generated jobs with growing queues, FCFS and EASY
  bench model [--traces DIR]
        inference latency of the learned policy per decision (all_node) and training steps per second
  bench seek --project P --run R [--seeks N] [--replay]
        incident replay: time to index a run and to rebuild the state of random decisions
  bench import [FILE...] [--traces DIR] [--big-mb N] [--repeat R] [--k8s-pods 100000] [--k8s-nodes 5000]
        measure importer throughput (MB/s) on the real traces, on FILE... and on large generated files
        (openb and SWF of N MB, a kubectl dump; --big-mb 0 skips them)
  sweep plan TRACE... --mode fill|timed [--policy a,b] [--seeds 42-51] [--shards N] --out S.sweep
        [--queue fcfs] [--backfill none|easy] [--ratio 1.3] [--tie-break order] [--scheduler-config FILE]
        [--record summary|full]
        training cells instead of policies: [--train-rounds N] --weights balance=0.2:0.6:0.2,packing=0.5
        [--episodes 3] [--lr 1e-3] [--gamma 0.9] [--batch 64] [--pods N] [--window 4h] [--from 0]
        [--eval-seeds 42-44] [--baselines a,b]  (--seeds: the training seeds, one cell each)
  sweep run S.sweep [--shard I] [--of N] [--project SHARD.schedlab]
  sweep run S.sweep --only-missing [--merged P.schedlab] [--project OUT.schedlab]
  sweep merge S.sweep SHARD.schedlab... --project P
  sweep status S.sweep [SHARD.schedlab...] [--project MERGED]
  sweep emit slurm|k8s S.sweep [--dir SHARDS] [--project P] [--parallel M] [--cpus C] [--mem 4G]
        [--time 04:00:00] [--cli PATH] [--plan-path PATH] [--image IMG] [--claim PVC]
        a study as a plan of cells (trace x policy x seed) in shards; each shard runs into its own
        project (the index from --shard, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; finished cells
        are skipped on a re-run); merge copies every finished cell once; emit prints a Slurm submit
        script (job array + dependent merge) or a Kubernetes Indexed Job (docs/sweeps.md)
  autoscale LOAD [--policy hpa,forecast,forecast:naive,static:N,learned:F.slq] [--service FILE] [--from T] [--window T]
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
  bench autoscale LOAD [--runs 100] [--jobs N] [--service FILE]
        time one HPA run over the whole load and --runs runs of several policies in parallel
  completion bash
        print a bash completion script: source <(schedlab-cli completion bash)

Formats are recognised by content: openb node/pod lists (Alibaba GPU 2023), SWF, Google 2011
machine/job/task events (.csv or .csv.gz), and schedlab traces (.sltrace).
)";
// The usage entries of one command (its lines of kUsage, several for bench and replay).
std::string commandUsage(const std::string& command)
{
    std::string out, line;
    bool in = false;
    for (const char* p = kUsage;; ++p) {
        if (*p != '\n' && *p != '\0') {
            line += *p;
            continue;
        }
        const bool entry = line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ';
        if (entry)
            in = line.compare(2, command.size() + 1, command + " ") == 0 || line.substr(2) == command;
        else if (line.compare(0, 2, "  ") != 0)
            in = false;
        if (in)
            out += line + "\n";
        line.clear();
        if (*p == '\0')
            break;
    }
    return out;
}
// `schedlab-cli completion bash`: a bash completion script made from the usage text, so it always
// offers the commands and options this build has. Install: source it, or copy it to
// /etc/bash_completion.d/schedlab-cli.
int printBashCompletion()
{
    std::map<std::string, std::set<std::string>> options; // command -> its --options
    std::vector<std::string> commands;
    std::istringstream usage(kUsage);
    std::string line;
    std::string current; // the command whose entry (and continuation lines) we are in
    while (std::getline(usage, line)) {
        if (line.compare(0, 2, "  ") != 0) {
            current.clear(); // "commands:", "Formats are ...": outside every entry
            continue;
        }
        if (line.size() > 2 && line[2] != ' ') {
            std::istringstream words(line.substr(2));
            words >> current;
            if (current.empty() || !std::isalpha(static_cast<unsigned char>(current[0]))) {
                current.clear();
                continue;
            }
            if (std::find(commands.begin(), commands.end(), current) == commands.end())
                commands.push_back(current);
            options[current].insert("--help");
        }
        if (current.empty())
            continue;
        auto& opts = options[current];
        for (std::size_t at = line.find("--"); at != std::string::npos; at = line.find("--", at + 2)) {
            std::size_t end = at + 2;
            while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-'))
                ++end;
            if (end > at + 2)
                opts.insert(line.substr(at, end - at));
        }
    }
    std::string all;
    for (const std::string& c : commands)
        all += (all.empty() ? "" : " ") + c;
    std::printf("# bash completion for schedlab-cli (made by schedlab-cli completion bash)\n"
                "_schedlab_cli() {\n"
                "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" opts=\"\"\n"
                "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                "        COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n"
                "        return\n"
                "    fi\n"
                "    case \"${COMP_WORDS[1]}\" in\n",
        all.c_str());
    for (const std::string& c : commands) {
        std::string o;
        for (const std::string& x : options[c])
            o += (o.empty() ? "" : " ") + x;
        std::printf("        %s) opts=\"%s\" ;;\n", c.c_str(), o.c_str());
    }
    std::printf("    esac\n"
                "    if [[ \"$cur\" == -* ]]; then\n"
                "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
                "    else\n"
                "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                "    fi\n"
                "}\n"
                "complete -o filenames -F _schedlab_cli schedlab-cli\n");
    return 0;
}
} // namespace

int main(int argc, char** argv)
{
    // Huge pages for malloc pay on large inputs and long work; small commands keep their 20 ms start.
    {
        const std::string c = argc > 1 ? argv[1] : "";
        if (c == "bench" || c == "generate" || c == "train" || c == "eval"
            || (argc > 2 && schedlab::inputBytes(argv + 2, 32ll << 20) >= (32ll << 20)))
            schedlab::enableMallocHugePages(argv); // may re-execute once; before any thread starts
    }
    QCoreApplication app(argc, argv); // Qt Core only: JSON output and future project database
    QCoreApplication::setApplicationName("schedlab-cli");
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0
        || std::strcmp(argv[1], "help") == 0) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") {
            const std::string u = commandUsage(command);
            if (u.empty())
                break; // unknown command: said below
            std::printf("usage: schedlab-cli\n%s", u.c_str());
            return 0;
        }
    if (command == "info")
        return schedlab::cli::runInfo(args);
    if (command == "convert")
        return schedlab::cli::runConvert(args);
    if (command == "generate")
        return schedlab::cli::runGenerate(args);
    if (command == "replay")
        return schedlab::cli::runReplay(args);
    if (command == "runs")
        return schedlab::cli::runRuns(args);
    if (command == "policies")
        return schedlab::cli::runPolicies(args);
    if (command == "decisions")
        return schedlab::cli::runDecisions(args);
    if (command == "fork")
        return schedlab::cli::runFork(args);
    if (command == "import")
        return schedlab::cli::runImport(args);
    if (command == "train")
        return schedlab::cli::runTrain(args);
    if (command == "eval")
        return schedlab::cli::runEval(args);
    if (command == "export-model")
        return schedlab::cli::runExportModel(args);
    if (command == "rounds")
        return schedlab::cli::runRounds(args);
    if (command == "blend-model")
        return schedlab::cli::runBlendModel(args);
    if (command == "bench")
        return schedlab::cli::runBench(args);
    if (command == "sweep")
        return schedlab::cli::runSweep(args);
    if (command == "autoscale")
        return schedlab::cli::runAutoscale(args);
    if (command == "completion") {
        if (args.size() != 1 || args[0] != "bash") {
            std::fprintf(stderr, "schedlab-cli: completion takes one shell: bash\n");
            return 2;
        }
        return printBashCompletion();
    }
    std::fprintf(stderr, "schedlab-cli: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
}
