#include "fill_experiment.h"
#include "fill_migration.h"

#include "metrics/fragmentation.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>

namespace schedlab::sim {

namespace {
// Separate, fixed streams for inflation+shuffle and for policy tie-breaks, both from the run seed.
constexpr uint64_t kPolicyStream = 0xD1B54A32D192ED03ull;
constexpr uint64_t kTrimStream = 0x8CB92BA72F3D8DD7ull;
} // namespace

Result<FillResult> runFillExperiment(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const FillOptions& options, ProgressFn progressFn, CancelToken cancel)
{
    if (!(options.ratio > 0 && options.ratio <= 100))
        return makeError(ErrorCode::Invalid, "fill ratio must be in (0, 100]");
    for (const trace::Node& n : trace.nodes)
        if (n.numGpu > cluster::kMaxGpusPerNode)
            return makeError(ErrorCode::Range, "node " + n.name + " has " + std::to_string(n.numGpu)
                    + " GPUs; the simulator supports at most 64 per node");
    cluster::ClusterState cluster(trace);
    if (cluster.totalGpuMilli() == 0)
        return makeError(ErrorCode::Invalid, "the fill experiment needs a cluster with GPUs (no node has any)");
    NodeHeatRecorder heat(cluster.nodeCount());

    // Pods ordered by name (then id), docs/fill-experiment.md §1.
    std::vector<uint32_t> original;
    original.reserve(trace.tasks.size());
    std::vector<uint32_t> jobOrder(trace.jobs.size());
    std::iota(jobOrder.begin(), jobOrder.end(), 0u);
    std::stable_sort(jobOrder.begin(), jobOrder.end(), [&](uint32_t a, uint32_t b) {
        const auto na = trace.jobNameView(trace.jobs[a]), nb = trace.jobNameView(trace.jobs[b]);
        return na != nb ? na < nb : trace.jobs[a].id.value < trace.jobs[b].id.value;
    });
    int64_t requested = 0;
    for (uint32_t j : jobOrder)
        for (uint32_t i = 0; i < trace.jobs[j].taskCount; ++i) {
            original.push_back(trace.jobs[j].firstTask + i);
            requested += trace.tasks[trace.jobs[j].firstTask + i].request.totalGpuMilli();
        }
    if (original.empty())
        return makeError(ErrorCode::Empty, "the trace has no pods");
    if (requested == 0)
        return makeError(ErrorCode::Invalid, "the fill experiment needs pods that ask for GPUs (none does)");

    Rng rng(options.seed);
    std::vector<uint32_t> pods = original;
    const double cap = options.ratio * double(cluster.totalGpuMilli());
    const int64_t originalRequested = requested;
    int64_t removed = 0;
    // A pod list already asking for more than ratio x capacity is trimmed as the FGD authors'
    // simulator does (its tuneDownPods): remove uniformly chosen pods (any pod, also those without
    // GPUs) until the request is at most ratio x capacity. Its own stream of the seed.
    if (options.trimAboveRatio && double(requested) > cap) {
        Rng trimRng(options.seed ^ kTrimStream);
        while (double(requested) > cap && !pods.empty()) {
            const std::size_t k = trimRng.below(pods.size());
            requested -= trace.tasks[pods[k]].request.totalGpuMilli();
            pods.erase(pods.begin() + std::ptrdiff_t(k));
            ++removed;
        }
    }
    // Otherwise inflate with uniformly sampled copies until the next one would exceed ratio x
    // capacity (the pod's total GPU request is tested, so the list never exceeds it; the authors'
    // loop tests the per-GPU request and may overshoot by one multi-GPU pod).
    const std::size_t maxPods = original.size() * 1000 + 1'000'000; // bound for hostile ratios
    while (removed == 0 && double(requested) <= cap && pods.size() < maxPods) {
        const uint32_t pick = original[rng.below(original.size())];
        const int64_t g = trace.tasks[pick].request.totalGpuMilli();
        if (double(requested + g) > cap)
            break;
        requested += g;
        pods.push_back(pick);
    }
    // Shuffle with the same seed (a fresh stream, Fisher-Yates).
    Rng shuffleRng(options.seed);
    for (std::size_t i = pods.size(); i > 1; --i)
        std::swap(pods[i - 1], pods[shuffleRng.below(i)]);

    FillResult out;
    out.policy = policy.name();
    out.seed = options.seed;
    out.ratio = options.ratio;
    out.originalPods = int64_t(original.size());
    out.pods = int64_t(pods.size());
    out.podsRemoved = removed;
    out.originalRequestPct = 100.0 * double(originalRequested) / double(cluster.totalGpuMilli());

    const metrics::TypicalWorkload workload = metrics::TypicalWorkload::fromTrace(trace);
    metrics::FragTracker frag(cluster, workload);
    policy.setTieBreak(options.tieBreak, options.seed);
    policy.reset(policy::PolicyContext { trace, &frag }, cluster);
    Rng policyRng(options.seed ^ kPolicyStream);
    ThrottledProgress progress(std::move(progressFn));
    policy::PlacementPolicy* active = &policy; // the fork's policy from forkAt on
    if (options.journal)
        options.journal->begin(cluster);

    if (options.maxPods > 0 && int64_t(pods.size()) > options.maxPods)
        pods.resize(std::size_t(options.maxPods)); // a prefix of the shuffled order
    out.pods = int64_t(pods.size());
    out.podsRemoved = removed;
    out.originalRequestPct = 100.0 * double(originalRequested) / double(cluster.totalGpuMilli());
    const auto t0 = std::chrono::steady_clock::now();
    const double total = double(cluster.totalGpuMilli());
    int64_t arrived = 0;
    int nextPct = 1;
    const int topK = options.recordDecisions ? options.topK : 0;
    std::optional<detail::PodMover> mover;
    if (options.migration != Migration::None)
        mover.emplace(cluster.nodeCount());
    auto allocate = [&](const cluster::Placement& p, const trace::TaskRequest& r) {
        cluster.allocate(p);
        if (options.journal)
            options.journal->allocate(p, cluster);
        frag.nodeChanged(p.node);
        active->onAllocated(p, r);
        if (mover)
            mover->placed(p, r);
    };
    // Defragment on failure: move the smallest pod that frees room for `r`, then place `r` where it
    // was; the node to place on, or -1.
    auto makeRoom = [&](const trace::TaskRequest& r) {
        if (!mover || (options.migrationBudget > 0 && out.migrations >= options.migrationBudget))
            return -1;
        const auto move = mover->find(cluster, r);
        if (!move)
            return -1;
        const cluster::Placement from = mover->placement(move->pod);
        const trace::TaskRequest& q = mover->request(move->pod);
        cluster.release(from);
        if (options.journal)
            options.journal->release(from, cluster);
        frag.nodeChanged(from.node);
        active->onReleased(from, q);
        const cluster::Placement to = cluster.makePlacement(move->to, q, cluster.bestFitGpus(move->to, q));
        cluster.allocate(to);
        if (options.journal)
            options.journal->allocate(to, cluster);
        frag.nodeChanged(to.node);
        active->onAllocated(to, q);
        mover->moved(move->pod, to);
        ++out.migrations;
        return from.node;
    };
    for (std::size_t i = 0; i < pods.size(); ++i) {
        if ((i & 255) == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "fill experiment cancelled");
            progress.report(double(i) / double(pods.size()));
        }
        const uint32_t taskIndex = pods[i];
        const trace::Task& task = trace.tasks[taskIndex];
        const trace::TaskRequest& r = task.request;
        const int64_t k = int64_t(i);
        if (options.hashEvery > 0 && k > 0 && k % options.hashEvery == 0)
            out.stateHashes.push_back({ k, cluster.stateHash() });
        if (k == options.stopAt) {
            out.state = std::make_shared<const cluster::ClusterState>(cluster);
            out.podIndexStopped = int64_t(taskIndex);
            out.curve.clear();
            return out;
        }
        if (k == options.forkAt && options.forkPolicy) {
            active = options.forkPolicy;
            active->setTieBreak(options.tieBreak, options.seed);
            active->reset(policy::PolicyContext { trace, &frag }, cluster);
        }
        policy::PlacementDecision d = active->place(cluster, policy::PlacementRequest { r, nullptr, &task, double(i) }, policyRng, topK);
        Decision rec;
        rec.timeS = double(i);
        rec.task = int32_t(taskIndex);
        rec.feasible = d.feasible;
        rec.statePos = options.journal ? options.journal->position() : -1;
        if (d.node < 0) {
            if (const int freed = makeRoom(r); freed >= 0) {
                d.node = freed;
                d.gpuMask = cluster.bestFitGpus(freed, r);
            }
        }
        if (d.node >= 0) {
            allocate(cluster.makePlacement(d.node, r, d.gpuMask), r);
            rec.node = d.node;
            ++out.placed;
        } else {
            rec.outcome = Outcome::Failed;
            ++out.failed;
            out.failedGpuMilli += r.totalGpuMilli();
        }
        if (options.recordDecisions)
            out.decisions.add(rec, d.top, d.reward);
        arrived += r.totalGpuMilli();
        const double arrivedPct = double(arrived) * 100.0 / total;
        // Exact integer test: a point for k % is recorded once arrived * 100 >= k * capacity.
        while (arrived * 100 >= int64_t(nextPct) * cluster.totalGpuMilli()) {
            FillPoint pt;
            pt.arrivedPct = nextPct;
            pt.arrivedExactPct = arrivedPct;
            pt.gpuAllocPct = double(cluster.allocGpuMilli()) * 100.0 / total;
            pt.fragAmount = frag.gpuFragAmount();
            pt.fragRatePct = frag.gpuFragRate() * 100.0;
            pt.podsArrived = int64_t(i + 1);
            pt.podsFailed = out.failed;
            out.curve.push_back(pt);
            if (options.recordHeat)
                heat.offer(double(nextPct), cluster);
            ++nextPct;
        }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.finalGpuAllocPct = double(cluster.allocGpuMilli()) * 100.0 / total;
    out.finalFragAmount = frag.gpuFragAmount();
    out.finalFragRatePct = frag.gpuFragRate() * 100.0;
    out.stateHash = cluster.stateHash();
    out.heat = heat.take();
    progress.report(1.0);
    return out;
}

} // namespace schedlab::sim
