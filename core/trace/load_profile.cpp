#include "load_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace schedlab::trace {

namespace {
constexpr double kDayS = 86400;

struct Step {
    double t;
    double delta;
};
} // namespace

double LoadProfile::peakShare() const
{
    if (capacity <= 0 || requested.empty())
        return 0;
    return *std::max_element(requested.begin(), requested.end()) / capacity;
}

bool gpuIsPrimary(const Trace& trace)
{
    if (trace.totalGpus() == 0)
        return false;
    std::size_t gpuTasks = 0;
    for (const Task& t : trace.tasks)
        gpuTasks += t.request.needsGpu() ? 1 : 0;
    return gpuTasks > 0 && double(gpuTasks) >= kGpuPrimaryTaskShare * double(trace.tasks.size());
}

LoadProfile loadProfile(const Trace& trace, std::size_t bins)
{
    LoadProfile p;
    bins = std::max<std::size_t>(bins, 1);
    p.jobs = trace.jobs.size();
    p.tasks = trace.tasks.size();
    for (const Task& t : trace.tasks)
        p.gpuTasks += t.request.needsGpu() ? 1 : 0;
    const bool gpu = gpuIsPrimary(trace);
    p.resource = gpu ? "GPU" : "CPU";
    for (const Node& n : trace.nodes)
        p.capacity += gpu ? double(n.numGpu) : double(n.cpuMilli) / 1000.0;

    // The requested level as steps: +r at a unit's submit, -r at its end.
    std::vector<Step> steps;
    std::vector<double> submits;
    auto add = [&](double submit, double run, double amount) {
        if (submit < 0 || run < 0 || !std::isfinite(submit) || !std::isfinite(run))
            return false;
        submits.push_back(submit);
        steps.push_back({ submit, amount });
        steps.push_back({ submit + run, -amount });
        return true;
    };
    auto amountOf = [gpu](const TaskRequest& r) { return gpu ? double(r.totalGpuMilli()) / 1000.0 : double(r.cpuMilli) / 1000.0; };
    for (const Job& job : trace.jobs) {
        bool timed = false;
        if (job.gang) {
            double amount = 0;
            for (uint32_t k = 0; k < job.taskCount; ++k)
                amount += amountOf(trace.tasks[job.firstTask + k].request);
            timed = add(job.submitTimeS, job.runTimeS, amount);
        } else {
            for (uint32_t k = 0; k < job.taskCount; ++k) {
                const Task& task = trace.tasks[job.firstTask + k];
                const double submit = job.submitTimeS < 0 ? -1 : job.submitTimeS + task.submitOffsetS;
                timed = add(submit, trace.taskRunTimeS(job, task), amountOf(task.request)) || timed;
            }
        }
        p.jobsWithTimes += timed;
    }
    if (steps.empty())
        return p;
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.t < b.t; });
    p.startS = steps.front().t;
    p.endS = steps.back().t;
    if (p.endS <= p.startS) // every job submitted and ended at one instant: one bin of a second
        p.endS = p.startS + 1;
    p.binS = (p.endS - p.startS) / double(bins);
    std::vector<double> area(bins, 0.0);
    // Sweep the steps: the level is constant between two of them; spread it over the bins it covers.
    // Each iteration either reaches the next step or the next bin edge: O(steps + bins).
    double level = 0;
    for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
        level += steps[i].delta;
        double a = steps[i].t;
        const double b = steps[i + 1].t;
        while (a < b) {
            const auto k = std::min(bins - 1, std::size_t(std::max(0.0, (a - p.startS) / p.binS)));
            const double edge = k + 1 == bins ? b : std::max(p.startS + double(k + 1) * p.binS, std::nextafter(a, b));
            const double to = std::min(b, edge);
            area[k] += std::max(level, 0.0) * (to - a); // level >= 0 up to rounding
            a = to;
        }
    }
    p.requested.resize(bins);
    for (std::size_t k = 0; k < bins; ++k)
        p.requested[k] = area[k] / p.binS;
    p.arrivals.assign(bins, 0);
    p.lastSubmit.assign(bins, -1.0);
    for (double t : submits) {
        const std::size_t k = std::min(bins - 1, std::size_t(std::max(0.0, (t - p.startS) / p.binS)));
        ++p.arrivals[k];
        p.lastSubmit[k] = std::max(p.lastSubmit[k], t);
    }
    return p;
}

double defaultWindowLengthS(const LoadProfile& profile)
{
    const double span = profile.spanS();
    if (span <= 2 * kDayS)
        return span;
    return std::clamp(span / 10, kDayS, 7 * kDayS);
}

namespace {

/// Whether the window of `w` bins from bin `at`, its start taken back to a multiple of `roundS`,
/// has a submit in it (`before[k]`: submits in bins 0..k-1).
bool hasArrival(const LoadProfile& p, const std::vector<std::size_t>& before, std::size_t at, std::size_t w, double roundS)
{
    double from = p.startS + double(at) * p.binS;
    if (roundS > 0)
        from = p.startS + std::floor((from - p.startS) / roundS) * roundS;
    const std::size_t first = std::min(at, std::size_t(std::max(0.0, (from - p.startS) / p.binS)));
    if (before[at + w] - before[first + 1] > 0) // bins after the one the start falls in
        return true;
    return p.arrivals[first] > 0 && p.lastSubmit[first] >= from;
}

} // namespace

TimeSpan busiestStretch(const LoadProfile& profile, double lengthS, double roundS)
{
    if (profile.empty() || lengthS >= profile.spanS())
        return { profile.startS, profile.endS };
    const std::size_t n = profile.requested.size();
    const std::size_t w = std::clamp<std::size_t>(std::size_t(std::llround(lengthS / profile.binS)), 1, n);
    const bool counted = profile.arrivals.size() == n && profile.lastSubmit.size() == n;
    std::vector<std::size_t> before(counted ? n + 1 : 0, 0);
    for (std::size_t k = 0; counted && k < n; ++k)
        before[k + 1] = before[k] + profile.arrivals[k];
    double sum = 0, best = -1;
    std::size_t bestAt = 0;
    for (std::size_t k = 0; k < n; ++k) {
        sum += profile.requested[k];
        if (k >= w)
            sum -= profile.requested[k - w];
        if (k + 1 < w || sum <= best + 1e-12 * std::abs(best))
            continue;
        if (counted && !hasArrival(profile, before, k + 1 - w, w, roundS))
            continue;
        best = sum;
        bestAt = k + 1 - w;
    }
    const double from = profile.startS + double(bestAt) * profile.binS;
    return { from, bestAt + w == n ? profile.endS : from + double(w) * profile.binS };
}

std::optional<double> epochOf(const Trace& trace)
{
    for (const char* key : { "epoch.unixS", "swf.UnixStartTime" }) {
        auto it = trace.metadata.find(key);
        if (it == trace.metadata.end())
            continue;
        char* end = nullptr;
        const double v = std::strtod(it->second.c_str(), &end);
        if (end != it->second.c_str() && std::isfinite(v) && v >= 0)
            return v;
    }
    return std::nullopt;
}

} // namespace schedlab::trace
