#include "features.h"

#include <algorithm>
#include <cmath>

namespace schedlab::rl {

const std::array<const char*, kFeatureCount>& featureNames()
{
    static const std::array<const char*, kFeatureCount> names = { "free_cpu", "free_mem", "free_gpu", "req_cpu",
        "req_mem", "req_gpu", "frag_delta", "balance_after", "idle", "dominant_after", "heuristic_score", "queue_len",
        "head_wait", "task_wait", "free_gpus_after", "cluster_alloc" };
    return names;
}

FeatureExtractor::FeatureExtractor(metrics::TypicalWorkload workload)
    : m_workload(std::move(workload))
{
    int64_t counted = 0;
    for (const metrics::TaskClass& tc : m_workload.classes)
        counted += tc.count;
    if (counted > 0 && counted == std::max<int64_t>(m_workload.tasksCovered, 1))
        m_grouped.emplace(m_workload);
}

double FeatureExtractor::gpuFrag(const metrics::NodeView& v) const
{
    return m_grouped ? m_grouped->gpuFrag(v) : metrics::nodeGpuFrag(v, m_workload);
}

namespace {
float ratio(double a, double b) { return b > 0 ? float(a / b) : 0.0f; }
float waitShape(double w, double target) { return w <= 0 ? 0.0f : float(w / (w + std::max(1.0, target))); }
} // namespace

FeatureRow FeatureExtractor::compute(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, uint64_t gpuMask,
    double heuristicScore, const DecisionContext& ctx) const
{
    FeatureRow f {};
    const double capCpu = double(c.capCpu(n)), capMem = double(c.capMem(n));
    const int gpus = c.numGpu(n);
    const double capGpu = double(gpus) * cluster::kGpuMilli;
    const double freeCpu = double(c.freeCpu(n)), freeMem = double(c.freeMem(n)), freeGpu = double(c.freeGpuMilli(n));
    f[0] = ratio(freeCpu, capCpu);
    f[1] = ratio(freeMem, capMem);
    f[2] = ratio(freeGpu, capGpu);
    f[3] = ratio(double(r.cpuMilli), capCpu);
    f[4] = ratio(double(r.memMiB), capMem);
    f[5] = ratio(double(r.totalGpuMilli()), capGpu);

    // The node after the placement, for the fragmentation delta and the shares.
    metrics::NodeView view = metrics::viewOf(c, n);
    std::array<int32_t, cluster::kMaxGpusPerNode> after {};
    int freeGpusAfter = 0;
    for (int g = 0; g < gpus; ++g) {
        after[std::size_t(g)] = view.gpuFree[g] - ((gpuMask >> g) & 1 ? r.gpuMilli : 0);
        freeGpusAfter += after[std::size_t(g)] == cluster::kGpuMilli;
    }
    if (gpus > 0 && !m_workload.classes.empty()) {
        const double before = gpuFrag(view);
        metrics::NodeView v2 = view;
        v2.freeCpu -= r.cpuMilli;
        v2.freeMem -= r.memMiB;
        v2.gpuFree = after.data();
        const double delta = (gpuFrag(v2) - before) / 1000.0 / 8.0;
        f[6] = float(std::clamp(delta, -1.0, 1.0));
    }
    const double cpuShare = 1.0 - ratio(freeCpu - double(r.cpuMilli), capCpu);
    const double memShare = 1.0 - ratio(freeMem - double(r.memMiB), capMem);
    const double gpuShare = gpus > 0 ? 1.0 - ratio(freeGpu - double(r.totalGpuMilli()), capGpu) : 0.0;
    f[7] = float(1.0 - std::abs(cpuShare - (gpus > 0 ? gpuShare : memShare)));
    f[8] = c.isActive(n) ? 0.0f : 1.0f;
    f[9] = float(std::max({ cpuShare, memShare, gpuShare }));
    f[10] = float(heuristicScore / 100.0);
    f[11] = float(std::min(1.0, std::log1p(double(std::max(0, ctx.queued))) / std::log1p(1000.0)));
    f[12] = waitShape(ctx.headWaitS, ctx.waitTargetS);
    f[13] = waitShape(ctx.taskWaitS, ctx.waitTargetS);
    f[14] = gpus > 0 ? float(freeGpusAfter) / float(gpus) : 0.0f;
    f[15] = c.totalGpuMilli() > 0 ? ratio(double(c.allocGpuMilli()), double(c.totalGpuMilli()))
                                  : ratio(double(c.allocCpu()), double(c.totalCpu()));
    return f;
}

} // namespace schedlab::rl
