#include "accounting_log.h"

#include "trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <vector>

namespace schedlab::trace {

namespace {

struct Change {
    int32_t node;
    double t;
    int8_t sign; ///< -1 = end (sorts first at equal times), +1 = start
    uint32_t task;
    int64_t allocation; ///< -1: its own; else rows of one allocation, never summed
};

struct Held {
    int64_t cpu = 0, mem = 0, gpu = 0;
};

/// What a node holds at one instant: the sum over allocations, each the largest of its rows
/// running there (a job recorded in several rows holds its resources once).
class NodeLoad {
public:
    void reset()
    {
        m_sum = {};
        m_rows.clear();
    }
    void change(const Change& c, const TaskRequest& r)
    {
        if (c.allocation < 0) {
            add(c.sign, { r.cpuMilli, r.memMiB, r.numGpu });
            return;
        }
        std::vector<Held>& rows = m_rows[c.allocation];
        add(-1, largest(rows));
        if (c.sign > 0) {
            rows.push_back({ r.cpuMilli, r.memMiB, r.numGpu });
        } else {
            const auto it = std::find_if(rows.begin(), rows.end(),
                [&](const Held& h) { return h.cpu == r.cpuMilli && h.mem == r.memMiB && h.gpu == r.numGpu; });
            if (it != rows.end())
                rows.erase(it);
        }
        add(+1, largest(rows));
    }
    const Held& sum() const { return m_sum; }

private:
    static Held largest(const std::vector<Held>& rows)
    {
        Held m;
        for (const Held& h : rows)
            m = { std::max(m.cpu, h.cpu), std::max(m.mem, h.mem), std::max(m.gpu, h.gpu) };
        return m;
    }
    void add(int sign, const Held& h)
    {
        m_sum.cpu += sign * h.cpu;
        m_sum.mem += sign * h.mem;
        m_sum.gpu += sign * h.gpu;
    }
    Held m_sum;
    std::unordered_map<int64_t, std::vector<Held>> m_rows;
};

/// Peak concurrent cpu / memory / GPUs per node over the logged intervals, at least the largest task.
void sizeFromLog(Trace& trace, const std::vector<int64_t>& allocationOf)
{
    const double endOfLog = std::numeric_limits<double>::infinity();
    std::vector<Change> changes;
    const std::size_t n = trace.nodes.size();
    std::vector<int64_t> bigCpu(n, 0), bigMem(n, 0), bigGpu(n, 0);
    for (std::size_t j = 0; j < trace.jobs.size(); ++j) {
        const Job& job = trace.jobs[j];
        const int64_t allocation = j < allocationOf.size() ? allocationOf[j] : -1;
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
            changes.push_back({ node, task.logged.startTimeS, +1, ti, allocation });
            changes.push_back({ node, end, -1, ti, allocation });
        }
    }
    std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        if (a.node != b.node)
            return a.node < b.node;
        if (a.t != b.t)
            return a.t < b.t;
        return a.sign < b.sign;
    });
    NodeLoad load;
    int32_t current = -1;
    for (const Change& c : changes) {
        if (c.node != current) {
            current = c.node;
            load.reset();
        }
        load.change(c, trace.tasks[c.task].request);
        const Held& h = load.sum();
        Node& node = trace.nodes[std::size_t(c.node)];
        node.cpuMilli = std::max(node.cpuMilli, h.cpu);
        node.memMiB = std::max(node.memMiB, h.mem);
        node.numGpu = int32_t(std::min<int64_t>(std::max<int64_t>(node.numGpu, h.gpu), std::numeric_limits<int32_t>::max()));
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

void inferNodeCapacities(Trace& trace, const std::string& prefix, const std::vector<int64_t>& allocationOf)
{
    sizeFromLog(trace, allocationOf);
    trace.metadata[prefix + ".capacity"] = "inferred: per node, the peak the log shows allocated on it at once";
}

void addInferredPool(Trace& trace, const std::string& prefix, const std::vector<int64_t>& allocationOf)
{
    const int32_t pool = int32_t(trace.nodes.size());
    Node node;
    node.name = "pool";
    trace.nodes.push_back(std::move(node));
    for (Task& t : trace.tasks)
        if (t.logged.startTimeS >= 0)
            t.logged.node = NodeId { pool };
    sizeFromLog(trace, allocationOf);
    trace.metadata[prefix + ".capacity"] = "inferred: the log names no hosts; one pool, the peak the log shows allocated at once";
}

} // namespace schedlab::trace
