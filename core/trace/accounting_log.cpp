#include "accounting_log.h"

#include "trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace schedlab::trace {

namespace {

struct Change {
    int32_t node;
    double t;
    int8_t sign; ///< -1 = end (sorts first at equal times), +1 = start
    uint32_t task;
};

/// Peak concurrent cpu / memory / GPUs per node over the logged intervals, at least the largest task.
void sizeFromLog(Trace& trace)
{
    const double endOfLog = std::numeric_limits<double>::infinity();
    std::vector<Change> changes;
    const std::size_t n = trace.nodes.size();
    std::vector<int64_t> bigCpu(n, 0), bigMem(n, 0), bigGpu(n, 0);
    for (const Job& job : trace.jobs) {
        for (uint32_t k = 0; k < job.taskCount; ++k) {
            const uint32_t ti = job.firstTask + k;
            const Task& task = trace.tasks[ti];
            const int32_t node = task.logged.node.value;
            if (node < 0 || std::size_t(node) >= n)
                continue;
            bigCpu[std::size_t(node)] = std::max(bigCpu[std::size_t(node)], task.request.cpuMilli);
            bigMem[std::size_t(node)] = std::max(bigMem[std::size_t(node)], task.request.memMiB);
            bigGpu[std::size_t(node)] = std::max<int64_t>(bigGpu[std::size_t(node)], task.request.numGpu);
            if (task.logged.startTimeS < 0)
                continue;
            const double end = task.logged.endTimeS >= task.logged.startTimeS ? task.logged.endTimeS : endOfLog;
            if (end == task.logged.startTimeS)
                continue; // holds nothing at any instant; covered by the largest-task floor
            changes.push_back({ node, task.logged.startTimeS, +1, ti });
            changes.push_back({ node, end, -1, ti });
        }
    }
    std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        if (a.node != b.node)
            return a.node < b.node;
        if (a.t != b.t)
            return a.t < b.t;
        return a.sign < b.sign;
    });
    int64_t cpu = 0, mem = 0, gpu = 0;
    int32_t current = -1;
    for (const Change& c : changes) {
        if (c.node != current) {
            current = c.node;
            cpu = mem = gpu = 0;
        }
        const TaskRequest& r = trace.tasks[c.task].request;
        cpu += c.sign * r.cpuMilli;
        mem += c.sign * r.memMiB;
        gpu += c.sign * int64_t(r.numGpu);
        Node& node = trace.nodes[std::size_t(c.node)];
        node.cpuMilli = std::max(node.cpuMilli, cpu);
        node.memMiB = std::max(node.memMiB, mem);
        node.numGpu = int32_t(std::min<int64_t>(std::max<int64_t>(node.numGpu, gpu), std::numeric_limits<int32_t>::max()));
    }
    for (std::size_t i = 0; i < n; ++i) {
        Node& node = trace.nodes[i];
        node.cpuMilli = std::max(node.cpuMilli, bigCpu[i]);
        node.memMiB = std::max(node.memMiB, bigMem[i]);
        node.numGpu = int32_t(std::max<int64_t>(node.numGpu, bigGpu[i]));
    }
}

} // namespace

void rebaseToEarliestSubmit(Trace& trace)
{
    double origin = std::numeric_limits<double>::infinity();
    for (const Job& j : trace.jobs)
        if (j.submitTimeS >= 0)
            origin = std::min(origin, j.submitTimeS);
    if (origin == std::numeric_limits<double>::infinity())
        return;
    origin = std::floor(origin); // whole seconds: epoch.unixS + a time is the Unix time again
    auto shift = [&](double& t) {
        if (t >= 0)
            t -= origin;
    };
    for (Job& j : trace.jobs)
        shift(j.submitTimeS);
    for (Task& t : trace.tasks) {
        shift(t.logged.startTimeS);
        shift(t.logged.endTimeS);
    }
    for (LoggedDecision& d : trace.logged.decisions) {
        shift(d.timeS);
        shift(d.lastTimeS);
    }
    trace.metadata["epoch.unixS"] = std::to_string(int64_t(origin));
}

void inferNodeCapacities(Trace& trace, const std::string& prefix)
{
    sizeFromLog(trace);
    trace.metadata[prefix + ".capacity"] = "inferred: per node, the peak the log shows allocated on it at once";
}

void addInferredPool(Trace& trace, const std::string& prefix)
{
    const int32_t pool = int32_t(trace.nodes.size());
    Node node;
    node.name = "pool";
    trace.nodes.push_back(std::move(node));
    for (Task& t : trace.tasks)
        if (t.logged.startTimeS >= 0)
            t.logged.node = NodeId { pool };
    sizeFromLog(trace);
    trace.metadata[prefix + ".capacity"] = "inferred: the log names no hosts; one pool, the peak the log shows allocated at once";
}

} // namespace schedlab::trace
