// `schedlab-cli bench import`: importer throughput on the real traces and on large generated files.
// Figures are best-of-R wall times; MB/s counts uncompressed text bytes (1 MB = 1e6 bytes).

#include "command_table.h"
#include "cli_args.h"
#include "commands.h"
#include "kubectl_dump.h"
#include "scheduler_log.h"

#include "policy/placement_policy.h"
#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "trace/trace_loader.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sys/resource.h>
#include <unistd.h>

namespace schedlab::cli {

namespace {

namespace fs = std::filesystem;

struct BenchCase {
    std::string label;
    std::vector<std::string> files;
    int logYear = 0; ///< klog lines' year (generated scheduler logs)
};

double peakRssMiB()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

bool runCase(const BenchCase& c, int repeat)
{
    double best = 1e300;
    int64_t textBytes = 0, diskBytes = 0;
    std::size_t jobs = 0, nodes = 0;
    int64_t warnings = 0;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        trace::ImportOptions options;
        options.logYear = c.logYear;
        auto loaded = trace::loadTrace(c.files, options);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!loaded) {
            std::printf("%-34s  error: %s\n", c.label.c_str(), loaded.error().toString().c_str());
            return false;
        }
        best = std::min(best, s);
        textBytes = diskBytes = 0;
        for (const auto& f : loaded->files) {
            textBytes += f.uncompressedBytes;
            diskBytes += f.bytes;
        }
        jobs = loaded->trace.jobs.size();
        nodes = loaded->trace.nodes.size();
        warnings = loaded->diagnostics.total();
    }
    std::printf("%-34s %10.1f MB %9.3f s %9.1f MB/s %10zu jobs %6zu nodes %8lld warnings\n", c.label.c_str(),
        double(textBytes) / 1e6, best, double(textBytes) / 1e6 / best, jobs, nodes, static_cast<long long>(warnings));
    (void)diskBytes;
    std::fflush(stdout);
    return true;
}

// Writes roughly `mb` MB of synthetic rows in the given format; returns the path or empty.
std::string writeBigFile(const fs::path& dir, const std::string& kind, int64_t mb)
{
    const fs::path path = dir / (kind == "swf" ? "big.swf" : "big_pods.csv");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return {};
    std::string buf;
    buf.reserve(1 << 21);
    if (kind == "swf")
        buf += "; Version: 2.2\n; MaxProcs: 4096\n";
    else
        buf += "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
               "scheduled_time\n";
    const int64_t target = mb * 1000 * 1000;
    int64_t written = 0;
    char line[256];
    for (int64_t i = 0; written < target; ++i) {
        int n;
        if (kind == "swf")
            n = std::snprintf(line, sizeof line,
                "%8lld %9lld %6lld %7lld %4lld %7.2f -1 %4lld %7lld -1 1 %3lld 1 -1 -1 1 -1 -1\n",
                static_cast<long long>(i + 1), static_cast<long long>(i * 7), static_cast<long long>(i % 97),
                static_cast<long long>(60 + i % 5000), static_cast<long long>(1 + i % 64), double(i % 1000) * 1.25,
                static_cast<long long>(1 + i % 64), static_cast<long long>(3600 + i % 7200),
                static_cast<long long>(i % 300));
        else
            n = std::snprintf(line, sizeof line, "openb-pod-%09lld,%lld,%lld,1,%lld,,LS,Running,%lld,%lld,%lld\n",
                static_cast<long long>(i), static_cast<long long>(1000 + (i % 32) * 500),
                static_cast<long long>(1024 + (i % 64) * 512), static_cast<long long>(100 + (i % 10) * 90),
                static_cast<long long>(i * 3), static_cast<long long>(i * 3 + 5000), static_cast<long long>(i * 3 + 2));
        buf.append(line, std::size_t(n));
        written += n;
        if (buf.size() > (1u << 20)) {
            std::fwrite(buf.data(), 1, buf.size(), f);
            buf.clear();
        }
    }
    std::fwrite(buf.data(), 1, buf.size(), f);
    std::fclose(f);
    return path.string();
}

} // namespace

// Replay figures of the replay-engine issue: fill runs on openb, the paper grid, NASA and Google.
int benchReplay(const fs::path& traces, int repeat)
{
    auto timeIt = [&](auto&& fn) {
        double best = 1e300;
        for (int r = 0; r < repeat; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            if (!fn())
                return -1.0;
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        return best;
    };
    const fs::path ob = traces / "alibaba-gpu-v2023";
    bool ok = true;
    if (fs::exists(ob)) {
        auto t = trace::loadTrace({ (ob / "openb_node_list_gpu_node.csv").string(), (ob / "openb_pod_list_default.csv").string() });
        if (!t)
            return fail(t.error().toString());
        std::printf("fill experiment, openb gpu_node x pod_list_default, ratio 1.3, seed 42 (best of %d):\n", repeat);
        for (const char* name : { "bestfit", "fgd", "random", "firstfit", "k8s-default", "dotproduct", "gpupacking", "gpuclustering" }) {
            double alloc = 0;
            const double s = timeIt([&] {
                auto p = policy::makePlacementPolicy(name);
                sim::Recording rec;
                rec.decisions = false;
                auto r = sim::runFillExperiment(t->trace, *p, sim::FillOptions {}, rec);
                alloc = r ? r->finalGpuAllocPct : -1;
                return r.ok();
            });
            std::printf("  %-14s %8.3f s   final GPU allocation %.2f %%\n", name, s, alloc);
        }
        const auto g0 = std::chrono::steady_clock::now();
        for (const char* name : { "random", "dotproduct", "gpupacking", "gpuclustering", "bestfit", "fgd" })
            for (uint64_t seed = 42; seed <= 51; ++seed) {
                auto p = policy::makePlacementPolicy(name);
                sim::FillOptions o;
                o.seed = seed;
                sim::Recording rec;
                rec.decisions = false;
                ok = sim::runFillExperiment(t->trace, *p, o, rec).ok() && ok;
            }
        std::printf("  paper grid (6 policies x 10 seeds): %.2f s\n",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count());
    }
    const fs::path nasa = traces / "pwa-swf" / "NASA-iPSC-1993-3.1-cln.swf";
    if (fs::exists(nasa)) {
        auto t = trace::loadTrace({ nasa.string() });
        if (!t)
            return fail(t.error().toString());
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        sim::Recording rec;
        rec.decisions = false;
        const double s = timeIt([&] {
            auto p = policy::makePlacementPolicy("firstfit");
            return sim::runTimedReplay(t->trace, *p, o, rec).ok();
        });
        std::printf("timed replay NASA-iPSC (18066 jobs), FCFS + EASY, FirstFit: %.1f ms of simulation\n", s * 1000);
    }
    const fs::path g = traces / "google-2011";
    if (fs::exists(g)) {
        const double s = timeIt([&] {
            auto t = trace::loadTrace({ (g / "machine_events/part-00000-of-00001.csv.gz").string(),
                (g / "task_events/part-00000-of-00500.csv.gz").string() });
            if (!t)
                return false;
            auto p = policy::makePlacementPolicy("firstfit");
            sim::Recording rec;
            rec.decisions = false;
            return sim::runTimedReplay(t->trace, *p, sim::TimedOptions {}, rec).ok();
        });
        std::printf("timed replay Google task_events part 0 (190926 tasks), import + FCFS FirstFit: %.2f s\n", s);
    }
    std::printf("peak RSS: %.0f MiB\n", peakRssMiB());
    return ok ? 0 : 1;
}

namespace {

// The real traces' importer cases found under `traces`.
std::vector<BenchCase> realTraceCases(const fs::path& traces)
{
    std::vector<BenchCase> cases;
    const fs::path ob = traces / "alibaba-gpu-v2023", swf = traces / "pwa-swf", g = traces / "google-2011";
    if (fs::exists(ob)) {
        cases.push_back({ "openb node list all_node", { (ob / "openb_node_list_all_node.csv").string() } });
        cases.push_back({ "openb pod list default", { (ob / "openb_pod_list_default.csv").string() } });
        cases.push_back({ "openb gpu_node + pod default",
            { (ob / "openb_node_list_gpu_node.csv").string(), (ob / "openb_pod_list_default.csv").string() } });
    }
    if (fs::exists(swf)) {
        cases.push_back({ "SWF NASA-iPSC", { (swf / "NASA-iPSC-1993-3.1-cln.swf").string() } });
        cases.push_back({ "SWF hpc2n", { (swf / "hpc2n.swf").string() } });
    }
    if (fs::exists(g)) {
        cases.push_back({ "Google task_events part 0 (gz)", { (g / "task_events/part-00000-of-00500.csv.gz").string() } });
        cases.push_back({ "Google machine+job+task events",
            { (g / "machine_events/part-00000-of-00001.csv.gz").string(),
                (g / "job_events/part-00000-of-00500.csv.gz").string(),
                (g / "task_events/part-00000-of-00500.csv.gz").string() } });
    }
    return cases;
}

// Large generated files: openb and SWF of `bigMb` MB, a kubectl dump, a verbosity-10
// kube-scheduler log. False when one could not be written or read.
bool benchGeneratedFiles(int64_t bigMb, int repeat, int64_t k8sPods, int64_t k8sNodes)
{
    bool ok = true;
    const fs::path dir = fs::temp_directory_path() / ("schedlab-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* kind : { "openb", "swf" }) {
        const std::string path = writeBigFile(dir, kind, bigMb);
        if (path.empty()) {
            std::printf("cannot write a generated file in %s\n", dir.c_str());
            ok = false;
            continue;
        }
        ok = runCase({ std::string("generated ") + kind + " " + std::to_string(bigMb) + " MB", { path } }, 1) && ok;
        fs::remove(path);
    }
    // A kubectl dump (nodes, pods, events JSON) of a generated cluster: ~100k pods on 5k nodes.
    trace::GeneratorOptions g;
    g.nodes = int(k8sNodes);
    g.jobs = k8sPods * 95 / 100; // gangs make ~5 % more pods than jobs
    g.seed = 5;
    g.targetGpuLoad = 0.9;
    const fs::path dump = dir / "kubectl-dump";
    auto written = writeGeneratedKubectlDump(g, dump.string());
    if (!written) {
        std::printf("cannot write a kubectl dump: %s\n", written.error().toString().c_str());
        ok = false;
    } else {
        ok = runCase({ "kubectl dump " + std::to_string(written->pods / 1000) + "k pods, " + std::to_string(written->nodes / 1000)
                             + "k nodes",
                         { dump.string() } },
                 repeat)
            && ok;
    }
    // A verbosity-10 kube-scheduler log of N MB (every candidate's plugin scores) with its
    // cluster's kubectl dump: 500 nodes, as many pods as the size takes.
    trace::GeneratorOptions lg;
    lg.nodes = 500;
    lg.jobs = std::max<int64_t>(200, bigMb * 6);
    lg.seed = 6;
    lg.targetGpuLoad = 1.2;
    SchedulerLogOptions lo;
    lo.maxBytes = bigMb * 1000 * 1000;
    const fs::path logDir = dir / "kube-scheduler";
    auto logged = writeGeneratedSchedulerLog(lg, lo, logDir.string());
    if (!logged) {
        std::printf("cannot write a kube-scheduler log: %s\n", logged.error().toString().c_str());
        ok = false;
    } else {
        ok = runCase({ "kube-scheduler v10 log " + std::to_string(logged->bytes / 1000000) + " MB + dump",
                         { logDir.string() }, logged->year },
                 1)
            && ok;
    }
    fs::remove_all(dir);
    return ok;
}

} // namespace

int runBench(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("bench")); !e.empty())
        return fail("bench: " + e, 2);
    if (args.positional().empty()
        || (args.positional()[0] != "import" && args.positional()[0] != "replay" && args.positional()[0] != "model"
            && args.positional()[0] != "scaling" && args.positional()[0] != "hpc"))
        return fail("bench: usage: bench import|replay|model|scaling|hpc|seek|autoscale [FILE...] [--traces DIR] [--big-mb N] [--repeat R]", 2);
    std::string error;
    if (args.positional()[0] == "hpc") {
        HpcOptions o;
        o.nodes = args.integer("nodes", o.nodes, error);
        o.jobs = args.integer("jobs", o.jobs, error);
        o.load = args.real("load", o.load, error);
        o.repeat = int(args.integer("repeat", o.repeat, error));
        o.scan = !args.flag("no-scan");
        o.swfOut = args.value("swf-out").value_or("");
        if (!error.empty() || o.nodes < 1 || o.jobs < 1 || o.repeat < 1 || !(o.load > 0))
            return fail("bench: " + (error.empty() ? std::string("bad --nodes, --jobs, --load or --repeat") : error), 2);
        return benchHpc(o);
    }
    if (args.positional()[0] == "scaling") {
        const int64_t maxJobs = args.integer("max-jobs", 1000000, error);
        const int64_t maxEasy = args.integer("max-easy-jobs", 1000000, error);
        if (!error.empty() || maxJobs < 1 || maxEasy < 0)
            return fail("bench: " + (error.empty() ? std::string("bad --max-jobs") : error), 2);
        return benchScaling(maxJobs, maxEasy);
    }
    const int64_t bigMb = args.integer("big-mb", 1024, error);
    const int64_t k8sPods = args.integer("k8s-pods", 100000, error), k8sNodes = args.integer("k8s-nodes", 5000, error);
    const int repeat = int(args.integer("repeat", 3, error));
    if (!error.empty() || bigMb < 0 || repeat < 1)
        return fail("bench: " + (error.empty() ? std::string("bad --big-mb or --repeat") : error), 2);
    const fs::path traces = args.value("traces").value_or("../shared/traces");
    if (args.positional()[0] == "replay")
        return benchReplay(traces, repeat);
    if (args.positional()[0] == "model")
        return benchModel(traces.string());

    std::printf("importer throughput, best of %d (MB = 1e6 bytes of text)\n", repeat);
    std::vector<BenchCase> cases = realTraceCases(traces);
    // Files named after "import" are benchmarked as one trace.
    if (args.positional().size() > 1)
        cases.push_back({ "given files", std::vector<std::string>(args.positional().begin() + 1, args.positional().end()) });
    if (cases.empty())
        std::printf("(no real traces under %s; pass --traces DIR)\n", traces.c_str());
    bool ok = true;
    for (const BenchCase& c : cases)
        ok = runCase(c, repeat) && ok;

    if (bigMb > 0)
        ok = benchGeneratedFiles(bigMb, repeat, k8sPods, k8sNodes) && ok;
    std::printf("peak RSS: %.0f MiB\n", peakRssMiB());
    return ok ? 0 : 1;
}

} // namespace schedlab::cli
