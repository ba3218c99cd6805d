#pragma once
// schedlab-cli command handlers (command_table.cpp lists them with their usage and options). Each
// takes the arguments after its name, parses them with its table entry's options, calls the
// workflow layer and prints; it returns the exit code: 0 success, 1 failure (message on stderr),
// 2 usage error.

#include <cstdint>
#include <string>
#include <vector>

namespace schedlab::cli {

int runInfo(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runGenerate(const std::vector<std::string>& args);
int runBench(const std::vector<std::string>& args);
int runReplay(const std::vector<std::string>& args);
int runPolicies(const std::vector<std::string>& args);
int runRuns(const std::vector<std::string>& args);
int runTrain(const std::vector<std::string>& args);
int runImport(const std::vector<std::string>& args);
int runDecisions(const std::vector<std::string>& args);
int runFork(const std::vector<std::string>& args);
/// `bench seek --project P --run R [--seeks N]` (cmd_incident.cpp): seek time of incident replay.
int runBenchSeek(const std::vector<std::string>& args);
int runEval(const std::vector<std::string>& args);
int runExportModel(const std::vector<std::string>& args);
int runRounds(const std::vector<std::string>& args);
/// `blend-model` (cmd_blend_model.cpp): interpolate two checkpoints.
int runBlendModel(const std::vector<std::string>& args);
/// `sweep plan|run|merge|status|emit` (cmd_sweep.cpp).
int sweepPlan(const std::vector<std::string>& args);
int sweepRun(const std::vector<std::string>& args);
int sweepMerge(const std::vector<std::string>& args);
int sweepStatus(const std::vector<std::string>& args);
int sweepEmit(const std::vector<std::string>& args);

/// `autoscale` and `bench autoscale` (cmd_autoscale.cpp).
int runAutoscale(const std::vector<std::string>& args);
int benchAutoscale(const std::vector<std::string>& args);
int trainAutoscale(const std::vector<std::string>& args);

/// `bench model` (cmd_bench_model.cpp).
int benchModel(const std::string& tracesDir);
/// `bench scaling` (cmd_bench_scaling.cpp): timed replay seconds against jobs and queue length.
int benchScaling(int64_t maxJobs, int64_t maxEasyJobs);

/// `bench hpc` (cmd_bench_hpc.cpp): timed replay of a generated HPC log, FirstFit against BestFit.
struct HpcOptions {
    int64_t nodes = 1152; ///< of 8 processors
    int64_t jobs = 36600;
    double load = 0.7; ///< offered processor-seconds / the machine's over the arrival span
    int repeat = 1; ///< best of
    bool scan = true; ///< also time the plain scan over every node
    std::string swfOut; ///< also keep the generated log here; empty = a temporary file
};
int benchHpc(const HpcOptions& options);

/// Prints "schedlab-cli: <message>" to stderr and returns `code`.
int fail(const std::string& message, int code = 1);

} // namespace schedlab::cli
