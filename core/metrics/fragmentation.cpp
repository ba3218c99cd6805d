#include "fragmentation.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace schedlab::metrics {

namespace {
using ClassKey = std::tuple<int64_t, int64_t, int32_t, int32_t, uint32_t>; // cpu, mem, numGpu, gpuMilli, mask

/// Classes from counted keys, most popular first (ties by `tieLess`), kept until `coverage` of the
/// tasks is covered; weights normalised over the kept classes.
template <class TieLess>
TypicalWorkload keepPopular(const std::map<ClassKey, int64_t>& counts, int64_t total, double coverage, TieLess tieLess)
{
    TypicalWorkload w;
    w.tasksTotal = total;
    std::vector<TaskClass> all;
    all.reserve(counts.size());
    for (const auto& [k, c] : counts) {
        TaskClass tc;
        std::tie(tc.request.cpuMilli, tc.request.memMiB, tc.request.numGpu, tc.request.gpuMilli,
            tc.request.gpuModelMask)
            = k;
        tc.count = c;
        all.push_back(tc);
    }
    std::stable_sort(all.begin(), all.end(), [&](const TaskClass& a, const TaskClass& b) {
        return a.count != b.count ? a.count > b.count : tieLess(a.request, b.request);
    });
    const double need = coverage * double(w.tasksTotal);
    for (const TaskClass& tc : all) {
        if (double(w.tasksCovered) >= need && !w.classes.empty())
            break;
        w.classes.push_back(tc);
        w.tasksCovered += tc.count;
    }
    for (TaskClass& tc : w.classes)
        tc.weight = double(tc.count) / double(std::max<int64_t>(w.tasksCovered, 1));
    return w;
}
} // namespace

TypicalWorkload TypicalWorkload::fromTrace(const trace::Trace& trace, double coverage)
{
    std::map<ClassKey, int64_t> counts;
    for (const trace::Task& t : trace.tasks) {
        const trace::TaskRequest& r = t.request;
        ++counts[ClassKey { r.cpuMilli, r.memMiB, r.numGpu, r.gpuMilli, r.gpuModelMask }];
    }
    // Ties keep the key order, so the result does not depend on anything but the requests.
    return keepPopular(counts, int64_t(trace.tasks.size()), coverage,
        [](const trace::TaskRequest&, const trace::TaskRequest&) { return false; });
}

TypicalWorkload TypicalWorkload::fgdTargets(const trace::Trace& trace)
{
    std::map<ClassKey, int64_t> counts;
    for (const trace::Task& t : trace.tasks) {
        const trace::TaskRequest& r = t.request;
        ++counts[ClassKey { r.cpuMilli, 0, r.numGpu, r.gpuMilli, r.gpuModelMask }];
    }
    // Their list is sorted by count, then by request (cpu, per-GPU milli, GPU count, model), and
    // reversed: among equal counts the larger request comes first.
    auto largerFirst = [](const trace::TaskRequest& a, const trace::TaskRequest& b) {
        return std::tie(a.cpuMilli, a.gpuMilli, a.numGpu, a.gpuModelMask)
            > std::tie(b.cpuMilli, b.gpuMilli, b.numGpu, b.gpuModelMask);
    };
    return keepPopular(counts, int64_t(trace.tasks.size()), 0.95, largerFirst);
}

NodeView viewOf(const cluster::ClusterState& c, int n)
{
    return NodeView { c.freeCpu(n), c.freeMem(n), c.numGpu(n), c.gpuModel(n), c.gpuFreeArray(n) };
}

namespace {
bool canHost(const NodeView& n, const trace::TaskRequest& m)
{
    if (m.cpuMilli > n.freeCpu || m.memMiB > n.freeMem)
        return false;
    if (!m.needsGpu())
        return true;
    if (m.gpuModelMask != 0 && (n.model < 0 || !((m.gpuModelMask >> n.model) & 1u)))
        return false;
    if (m.isGpuShare()) {
        for (int i = 0; i < n.numGpu; ++i)
            if (n.gpuFree[i] >= m.gpuMilli)
                return true;
        return false;
    }
    int full = 0;
    for (int i = 0; i < n.numGpu; ++i)
        full += n.gpuFree[i] == cluster::kGpuMilli;
    return full >= m.numGpu;
}
} // namespace

double nodeGpuFragForClass(const NodeView& n, const trace::TaskRequest& m)
{
    int64_t freeTotal = 0;
    for (int i = 0; i < n.numGpu; ++i)
        freeTotal += n.gpuFree[i];
    if (freeTotal == 0)
        return 0;
    if (!m.needsGpu() || !canHost(n, m))
        return double(freeTotal);
    const int32_t demand = m.isGpuShare() ? m.gpuMilli : cluster::kGpuMilli;
    int64_t frag = 0;
    for (int i = 0; i < n.numGpu; ++i)
        if (n.gpuFree[i] < demand)
            frag += n.gpuFree[i];
    return double(frag);
}

double nodeGpuFrag(const NodeView& n, const TypicalWorkload& w)
{
    if (n.numGpu == 0)
        return 0;
    double f = 0;
    for (const TaskClass& tc : w.classes)
        f += tc.weight * nodeGpuFragForClass(n, tc.request);
    return f;
}

double nodeCpuFrag(const NodeView& n, const TypicalWorkload& w)
{
    if (n.freeCpu <= 0)
        return 0;
    double share = 0;
    for (const TaskClass& tc : w.classes)
        if (!canHost(n, tc.request))
            share += tc.weight;
    return share * double(n.freeCpu);
}

GroupedWorkload::GroupedWorkload(const TypicalWorkload& workload)
    : m_covered(std::max<int64_t>(workload.tasksCovered, 1))
{
    for (const TaskClass& tc : workload.classes) {
        const trace::TaskRequest& r = tc.request;
        auto g = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& x) {
            return x.gpuPart.numGpu == r.numGpu && x.gpuPart.gpuMilli == r.gpuMilli && x.gpuPart.gpuModelMask == r.gpuModelMask;
        });
        if (g == m_groups.end()) {
            m_groups.push_back(Group { trace::TaskRequest { 0, 0, r.numGpu, r.gpuMilli, r.gpuModelMask }, 0, {} });
            g = std::prev(m_groups.end());
        }
        g->count += tc.count;
        g->members.push_back(Member { r.cpuMilli, r.memMiB, tc.count });
    }
}

double GroupedWorkload::gpuFrag(const NodeView& n) const
{
    int64_t gpu = 0, cpu = 0;
    counts(n, gpu, cpu);
    return double(gpu) / double(m_covered);
}

FragTracker::FragTracker(const cluster::ClusterState& cluster, const TypicalWorkload& workload)
    : m_cluster(cluster)
    , m_workload(workload)
    , m_grouped(workload)
    , m_gpu(std::size_t(cluster.nodeCount()), 0)
    , m_cpu(std::size_t(cluster.nodeCount()), 0)
    , m_cache(std::size_t(cluster.nodeCount()))
    , m_isDirty(std::size_t(cluster.nodeCount()), 0)
    , m_covered(m_grouped.covered())
{
    for (int n = 0; n < cluster.nodeCount(); ++n)
        update(n);
}

namespace {
bool sameState(const NodeView& v, const FragTracker::Cached& c)
{
    return c.valid && v.freeCpu == c.freeCpu && v.freeMem == c.freeMem
        && std::equal(v.gpuFree, v.gpuFree + v.numGpu, c.gpuFree.begin(), c.gpuFree.end());
}
} // namespace

void FragTracker::nodeChanged(int node)
{
    if (!m_isDirty[std::size_t(node)]) {
        m_isDirty[std::size_t(node)] = 1;
        m_dirty.push_back(node);
    }
}

void FragTracker::flush() const
{
    for (int32_t n : m_dirty) {
        m_isDirty[std::size_t(n)] = 0;
        update(n);
    }
    m_dirty.clear();
}

/// Sum over classes m of count_m x F_n(m) and of count_m x [n cannot host m] x free cpu, grouped:
/// a class n cannot host counts all free gpu-milli, one it can host (needing a GPU) the free
/// gpu-milli of GPUs below its per-GPU demand, one needing no GPU all free gpu-milli.
void GroupedWorkload::counts(const NodeView& n, int64_t& gpu, int64_t& cpu) const
{
    int64_t freeTotal = 0;
    int32_t maxFree = 0;
    int full = 0;
    for (int i = 0; i < n.numGpu; ++i) {
        freeTotal += n.gpuFree[i];
        maxFree = std::max(maxFree, n.gpuFree[i]);
        full += n.gpuFree[i] == cluster::kGpuMilli;
    }
    int64_t f = 0, unhosted = 0;
    for (const Group& g : m_groups) {
        const trace::TaskRequest& m = g.gpuPart;
        bool gpuOk = true;
        if (m.needsGpu()) {
            if (m.gpuModelMask != 0 && (n.model < 0 || !((m.gpuModelMask >> n.model) & 1u)))
                gpuOk = false;
            else
                gpuOk = m.isGpuShare() ? maxFree >= m.gpuMilli : full >= m.numGpu;
        }
        int64_t hosted = 0;
        if (gpuOk)
            for (const Member& c : g.members)
                if (c.cpuMilli <= n.freeCpu && c.memMiB <= n.freeMem)
                    hosted += c.count;
        unhosted += g.count - hosted;
        if (freeTotal == 0)
            continue;
        if (!m.needsGpu() || hosted == 0) {
            f += g.count * freeTotal;
            continue;
        }
        const int32_t demand = m.isGpuShare() ? m.gpuMilli : cluster::kGpuMilli;
        int64_t frag = 0;
        for (int i = 0; i < n.numGpu; ++i)
            if (n.gpuFree[i] < demand)
                frag += n.gpuFree[i];
        f += hosted * frag + (g.count - hosted) * freeTotal;
    }
    gpu = n.numGpu == 0 ? 0 : f;
    cpu = n.freeCpu <= 0 ? 0 : unhosted * n.freeCpu;
}

void FragTracker::update(int node) const
{
    const NodeView v = viewOf(m_cluster, node);
    auto& [cur, prev] = m_cache[std::size_t(node)];
    if (sameState(v, cur))
        return; // changed and changed back since the last read
    if (sameState(v, prev)) {
        // Back to the state before the last change (a tentative placement taken back, a task
        // leaving a node another just left): the same values, without evaluating M again.
        std::swap(cur, prev);
    } else {
        std::swap(cur, prev);
        cur.valid = true;
        cur.freeCpu = v.freeCpu;
        cur.freeMem = v.freeMem;
        cur.gpuFree.assign(v.gpuFree, v.gpuFree + v.numGpu);
        m_grouped.counts(v, cur.gpu, cur.cpu);
    }
    m_gpuSum += cur.gpu - m_gpu[std::size_t(node)];
    m_cpuSum += cur.cpu - m_cpu[std::size_t(node)];
    m_gpu[std::size_t(node)] = cur.gpu;
    m_cpu[std::size_t(node)] = cur.cpu;
}

double FragTracker::gpuFragAmount() const
{
    flush();
    return double(m_gpuSum) / double(m_covered);
}

double FragTracker::cpuFragAmount() const
{
    flush();
    return double(m_cpuSum) / double(m_covered);
}

double FragTracker::nodeGpuFragValue(int node) const
{
    flush();
    return double(m_gpu[std::size_t(node)]) / double(m_covered);
}

double FragTracker::gpuFragRate() const
{
    const int64_t free = m_cluster.totalGpuMilli() - m_cluster.allocGpuMilli();
    return free > 0 ? gpuFragAmount() / double(free) : 0.0;
}

double FragTracker::cpuFragRate() const
{
    const int64_t free = m_cluster.totalCpu() - m_cluster.allocCpu();
    return free > 0 ? cpuFragAmount() / double(free) : 0.0;
}

} // namespace schedlab::metrics
