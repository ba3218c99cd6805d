// `schedlab-cli bench hpc`: timed replay of an HPC-shaped log (issue #47). A generated PWA-style
// SWF log: by default 1,152 nodes of 8 processors, 36,600 rigid jobs of log-uniform size (1 to
// ~4,400 processors, ~2 M node tasks with --procs-per-node 8), log-uniform run times and an
// offered load of 0.7 of the machine (--load), read by the SWF importer as `replay` reads a PWA log.
// Replayed FCFS with FirstFit, BestFit and k8s-default, without backfilling and with EASY; the
// score-every-node policies also with the plain scan over every node (ShapeIndexUse::Never) to
// show what the free-shape index saves. Seconds are the event loop's (TimedResult::simSeconds).

#include "cli_args.h"
#include "commands.h"

#include "base/rng.h"
#include "policy/placement_policy.h"
#include "sim/timed_replay.h"
#include "trace/trace_loader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace schedlab::cli {

namespace {

namespace fs = std::filesystem;

struct HpcShape {
    int64_t nodes = 1152;
    int64_t procsPerNode = 8;
    int64_t jobs = 36600;
    uint64_t seed = 47;
    double load = 0.7; ///< offered processor-seconds over the machine's, across the arrival span
};

// Writes the SWF log; false when the file cannot be written.
bool writeHpcSwf(const HpcShape& shape, const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const int64_t machine = shape.nodes * shape.procsPerNode;
    Rng rng(shape.seed);
    std::vector<int64_t> procs(std::size_t(shape.jobs)), run(std::size_t(shape.jobs)), requested(std::size_t(shape.jobs));
    double work = 0;
    for (std::size_t i = 0; i < procs.size(); ++i) {
        // Sizes log-uniform up to 2^12.1 (~4,400 processors, ~48 % of the machine); powers of two
        // half the time, as in the PWA logs.
        const double p = std::exp2(rng.uniform() * 12.1);
        procs[i] = rng.uniform() < 0.5 ? int64_t(1) << int(std::log2(p)) : std::max<int64_t>(1, int64_t(p));
        procs[i] = std::min(procs[i], machine);
        run[i] = int64_t(60.0 * std::exp(rng.uniform() * std::log(36.0 * 60))); // 1 min .. 36 h
        requested[i] = std::min<int64_t>(run[i] * (1 + int64_t(rng.below(4))), 7 * 86400);
        work += double(procs[i]) * double(run[i]);
    }
    const double spanS = work / (shape.load * double(machine));
    std::fprintf(f, "; Version: 2.2\n; Computer: generated HPC machine (schedlab bench hpc)\n; MaxNodes: %lld\n; MaxProcs: %lld\n",
        static_cast<long long>(shape.nodes), static_cast<long long>(machine));
    double submit = 0;
    for (std::size_t i = 0; i < procs.size(); ++i) {
        submit += -std::log(1.0 - rng.uniform()) * spanS / double(shape.jobs);
        std::fprintf(f, "%zu %lld -1 %lld %lld -1 -1 %lld %lld -1 1 %llu 1 -1 1 1 -1 -1\n", i + 1,
            static_cast<long long>(submit), static_cast<long long>(run[i]), static_cast<long long>(procs[i]),
            static_cast<long long>(procs[i]), static_cast<long long>(requested[i]),
            static_cast<unsigned long long>(1 + rng.below(200)));
    }
    return std::fclose(f) == 0;
}

struct HpcCase {
    const char* policy;
    sim::Backfill backfill;
    bool scan; ///< force the plain scan over every node
};

} // namespace

int benchHpc(const HpcOptions& options)
{
    HpcShape shape;
    shape.nodes = options.nodes;
    shape.jobs = options.jobs;
    shape.load = options.load;
    const fs::path dir = fs::temp_directory_path() / ("schedlab-bench-hpc-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = options.swfOut.empty() ? (dir / "hpc.swf").string() : options.swfOut;
    if (!writeHpcSwf(shape, path))
        return fail("bench: cannot write " + path);
    trace::ImportOptions import;
    import.procsPerNode = int(shape.procsPerNode);
    auto loaded = trace::loadTrace({ path }, import);
    fs::remove_all(dir);
    if (!loaded)
        return fail(loaded.error().toString());
    const trace::Trace& t = loaded->trace;
    std::printf("timed replay of a generated HPC log: %zu nodes x %lld processors, %zu jobs, %zu tasks (gangs), FCFS, "
                "random ties, no decision log; best of %d\n",
        t.nodes.size(), static_cast<long long>(shape.procsPerNode), t.jobs.size(), t.tasks.size(), options.repeat);
    std::printf("%-12s %-9s %-8s %10s %12s %18s\n", "policy", "backfill", "nodes", "seconds", "tasks/s", "schedule hash");
    const HpcCase cases[] = { { "firstfit", sim::Backfill::None, false }, { "firstfit", sim::Backfill::Easy, false },
        { "bestfit", sim::Backfill::None, false }, { "bestfit", sim::Backfill::Easy, false },
        { "bestfit", sim::Backfill::None, true }, { "bestfit", sim::Backfill::Easy, true },
        { "k8s-default", sim::Backfill::None, false }, { "k8s-default", sim::Backfill::Easy, false },
        { "k8s-default", sim::Backfill::None, true } };
    bool ok = true;
    for (const HpcCase& c : cases) {
        if (c.scan && !options.scan)
            continue;
        double best = 1e300;
        uint64_t hash = 0;
        for (int r = 0; r < options.repeat; ++r) {
            auto p = policy::makePlacementPolicy(c.policy);
            if (auto* scoring = dynamic_cast<policy::ScoringPolicy*>(p.get()))
                scoring->setShapeIndexUse(c.scan ? policy::ShapeIndexUse::Never : policy::ShapeIndexUse::Auto);
            sim::TimedOptions o;
            o.backfill = c.backfill;
            sim::Recording rec;
            rec.decisions = false;
            rec.heat = false;
            auto res = sim::runTimedReplay(t, *p, o, rec);
            if (!res) {
                std::printf("  %s: %s\n", c.policy, res.error().toString().c_str());
                ok = false;
                break;
            }
            best = std::min(best, res->simSeconds);
            hash = res->scheduleHash;
        }
        std::printf("%-12s %-9s %-8s %10.2f %12.0f %18llx\n", c.policy, c.backfill == sim::Backfill::Easy ? "easy" : "none",
            c.scan ? "scan" : std::string(c.policy) == "firstfit" ? "-" : "index", best, double(t.tasks.size()) / best, static_cast<unsigned long long>(hash));
        std::fflush(stdout);
    }
    return ok ? 0 : 1;
}

} // namespace schedlab::cli
