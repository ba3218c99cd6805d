#include "trace_generator.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace schedlab::trace {

namespace {

struct NodeShape {
    const char* model; // nullptr = CPU-only
    int gpus;
    int64_t cpuMilli;
    int64_t memMiB;
    double idleW, peakW;
    double weight;
};

constexpr NodeShape kShapes[] = {
    { nullptr, 0, 64000, 262144, 120, 350, 0.20 },
    { "V100M32", 8, 96000, 786432, 300, 1200, 0.20 },
    { "T4", 4, 64000, 393216, 150, 500, 0.25 },
    { "P100", 2, 64000, 262144, 150, 600, 0.15 },
    { "A10", 8, 128000, 1048576, 250, 1100, 0.20 },
};

template <class T, std::size_t N>
const T& pickWeighted(Rng& rng, const T (&items)[N], double (*weightOf)(const T&))
{
    double total = 0;
    for (const T& it : items)
        total += weightOf(it);
    double x = rng.uniform() * total;
    for (const T& it : items) {
        x -= weightOf(it);
        if (x < 0)
            return it;
    }
    return items[N - 1];
}

/// Nodes: the first one of each shape is guaranteed so every request class has a home.
void addNodes(const GeneratorOptions& o, Rng& rng, Trace& t)
{
    for (int i = 0; i < o.nodes; ++i) {
        const NodeShape& s = i < int(std::size(kShapes))
            ? kShapes[i]
            : pickWeighted(rng, kShapes, +[](const NodeShape& x) { return x.weight; });
        Node n;
        char name[32];
        std::snprintf(name, sizeof name, "gen-node-%04d", i);
        n.name = name;
        n.cpuMilli = s.cpuMilli;
        n.memMiB = s.memMiB;
        n.numGpu = s.gpus;
        n.gpuModel = s.model ? int16_t(t.internGpuModel(s.model)) : int16_t(-1);
        n.power = PowerModel { s.idleW, s.peakW };
        t.nodes.push_back(std::move(n));
    }
}

/// A job's task request for a draw `kind` in [0, 1); `tasks` gets its gang size.
TaskRequest drawRequest(Rng& rng, double kind, int& tasks)
{
    static constexpr int kShareMilli[] = { 500, 250, 300, 200, 700, 400, 100, 600, 750 };
    static constexpr int kMultiGpu[] = { 2, 4, 8 };
    static constexpr int kCpuOnlyCores[] = { 1, 2, 4, 8, 16 };
    static constexpr int kShareCores[] = { 4, 2, 8, 6 };
    static constexpr int kShareMemGiB[] = { 16, 8, 32, 24 };
    static constexpr int kWholeCores[] = { 8, 4, 12 };
    static constexpr int kWholeMemGiB[] = { 32, 64, 16, 48 };
    tasks = 1;
    TaskRequest r;
    // Requests come from a few standard sizes with skewed popularity, as in real traces (openb
    // needs 53 request classes to cover 95 % of its tasks); skewedPick favours the first sizes.
    auto skewedPick = [&rng](std::size_t n) { return std::size_t(std::floor(double(n) * std::pow(rng.uniform(), 2.0))); };
    if (kind < 0.18) { // CPU-only
        r.cpuMilli = int64_t(kCpuOnlyCores[skewedPick(std::size(kCpuOnlyCores))]) * 1000;
        r.memMiB = r.cpuMilli / 1000 * 4096;
        if (rng.uniform() < 0.1)
            tasks = int(2 + rng.below(3));
    } else if (kind < 0.55) { // GPU share
        r.numGpu = 1;
        r.gpuMilli = kShareMilli[skewedPick(std::size(kShareMilli))];
        r.cpuMilli = int64_t(kShareCores[skewedPick(std::size(kShareCores))]) * 1000;
        r.memMiB = int64_t(kShareMemGiB[skewedPick(std::size(kShareMemGiB))]) * 1024;
    } else if (kind < 0.93) { // one whole GPU
        r.numGpu = 1;
        r.gpuMilli = 1000;
        r.cpuMilli = int64_t(kWholeCores[skewedPick(std::size(kWholeCores))]) * 1000;
        r.memMiB = int64_t(kWholeMemGiB[skewedPick(std::size(kWholeMemGiB))]) * 1024;
    } else { // multi-GPU, sometimes a gang of several such tasks
        r.numGpu = kMultiGpu[rng.below(std::size(kMultiGpu))];
        r.gpuMilli = 1000;
        r.cpuMilli = int64_t(r.numGpu) * 8000;
        r.memMiB = int64_t(r.numGpu) * 65536;
        if (rng.uniform() < 0.25)
            tasks = 2;
    }
    if (r.needsGpu() && rng.uniform() < 0.1) // model constraint on 10 % of GPU tasks
        r.gpuModelMask = rng.uniform() < 0.5 ? (1u << 0) : ((1u << 0) | (1u << 3));
    return r;
}

/// Jobs: requests and run times (arrivals come later); returns their GPU work (gpu-milli x seconds).
double addJobs(const GeneratorOptions& o, Rng& rng, Trace& t)
{
    double gpuWork = 0;
    t.jobs.reserve(std::size_t(o.jobs));
    for (int64_t j = 0; j < o.jobs; ++j) {
        Job job;
        job.id = JobId { j + 1 };
        job.user = int32_t(std::min<double>(49, std::floor(std::pow(rng.uniform(), 2.0) * 50))); // skewed users
        job.group = job.user / 10;
        job.qos = int16_t(rng.uniform() < 0.6 ? 0 : 1);
        job.priority = job.qos == 0 ? 1 : 0;
        // Log-normal run time: median 20 min, sigma 1.4; heavy upper tail, capped at 3 days.
        job.runTimeS = std::clamp(std::round(1200.0 * std::exp(1.4 * rng.normal())), 10.0, 259200.0);
        job.requestedTimeS = std::ceil(job.runTimeS * (1.0 + 2.0 * rng.uniform()) / 60.0) * 60.0;
        job.status = 1;
        const double kind = rng.uniform();
        int tasks = 1;
        const TaskRequest r = drawRequest(rng, kind, tasks);
        job.firstTask = uint32_t(t.tasks.size());
        job.taskCount = uint32_t(tasks);
        for (int k = 0; k < tasks; ++k) {
            Task task;
            task.request = r;
            t.tasks.push_back(task);
        }
        gpuWork += double(r.totalGpuMilli()) * tasks * job.runTimeS;
        t.jobs.push_back(std::move(job));
    }
    return gpuWork;
}

/// Diurnal arrivals over `span`: rate ~ 1 + 0.6 sin(2 pi (t/day - 1/4)), sampled by inverting the
/// cumulative rate on a grid of uniform order statistics (keeps the count exact and the result sorted).
void drawArrivals(Rng& rng, double span, Trace& t)
{
    std::vector<double> u(t.jobs.size());
    for (double& x : u)
        x = rng.uniform();
    std::sort(u.begin(), u.end());
    const double day = 86400.0, amp = 0.6;
    auto cumulative = [&](double x) {
        // integral of 1 + amp sin(2 pi (s/day - 1/4)) ds from 0 to x
        return x - amp * day / (2 * std::numbers::pi) * (std::cos(2 * std::numbers::pi * (x / day - 0.25)) - 0.0);
    };
    const double c0 = cumulative(0), cSpan = cumulative(span) - c0;
    for (std::size_t i = 0; i < u.size(); ++i) {
        const double target = u[i] * cSpan;
        double lo = 0, hi = span;
        for (int it = 0; it < 60; ++it) {
            const double mid = 0.5 * (lo + hi);
            if (cumulative(mid) - c0 < target)
                lo = mid;
            else
                hi = mid;
        }
        t.jobs[i].submitTimeS = std::floor(lo);
    }
}

} // namespace

Result<Trace> generateTrace(const GeneratorOptions& o)
{
    if (o.nodes < 1 || o.nodes > 1'000'000)
        return makeError(ErrorCode::Invalid, "--nodes must be between 1 and 1000000");
    if (o.jobs < 1 || o.jobs > 100'000'000)
        return makeError(ErrorCode::Invalid, "--jobs must be between 1 and 100000000");
    if (!(o.targetGpuLoad > 0 && o.targetGpuLoad < 10))
        return makeError(ErrorCode::Invalid, "target GPU load must be in (0, 10)");

    Rng rng(o.seed);
    Trace t;
    t.sourceFormat = "generated";
    t.metadata["generator.seed"] = std::to_string(o.seed);
    t.metadata["generator.nodes"] = std::to_string(o.nodes);
    t.metadata["generator.jobs"] = std::to_string(o.jobs);
    t.internQos("LS");
    t.internQos("BE");
    addNodes(o, rng, t);
    const int64_t totalGpuMilli = t.totalGpus() * 1000;
    const double gpuWork = addJobs(o, rng, t);

    double span = o.spanS;
    if (span <= 0)
        span = std::max(3600.0, gpuWork / (o.targetGpuLoad * double(std::max<int64_t>(totalGpuMilli, 1))));
    t.metadata["generator.spanS"] = std::to_string(int64_t(span));
    drawArrivals(rng, span, t);
    return t;
}

} // namespace schedlab::trace
