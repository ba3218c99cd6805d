#include "fill_experiment.h"
#include "fill_migration.h"
#include "recorders.h"

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

namespace {
Status checkFillCluster(const trace::Trace& trace, const FillOptions& options, const cluster::ClusterState& cluster)
{
    if (!(options.ratio > 0 && options.ratio <= 100))
        return makeError(ErrorCode::Invalid, "fill ratio must be in (0, 100]");
    for (const trace::Node& n : trace.nodes)
        if (n.numGpu > cluster::kMaxGpusPerNode)
            return makeError(ErrorCode::Range, "node " + n.name + " has " + std::to_string(n.numGpu)
                    + " GPUs; the simulator supports at most 64 per node");
    if (cluster.totalGpuMilli() == 0)
        return makeError(ErrorCode::Invalid, "the fill experiment needs a cluster with GPUs (no node has any)");
    return {};
}

/// The pod list a run places: the trace's pods, trimmed or inflated to the ratio, shuffled.
struct PodList {
    std::vector<uint32_t> original; ///< task indices ordered by job name (then id)
    std::vector<uint32_t> pods; ///< what is placed, in order
    int64_t originalRequested = 0; ///< gpu-milli of `original`
    int64_t removed = 0; ///< pods trimmed away
};

/// Pods ordered by name (then id), docs/fill-experiment.md §1; their total GPU request.
void orderPods(const trace::Trace& trace, PodList& list)
{
    list.original.reserve(trace.tasks.size());
    std::vector<uint32_t> jobOrder(trace.jobs.size());
    std::iota(jobOrder.begin(), jobOrder.end(), 0u);
    std::stable_sort(jobOrder.begin(), jobOrder.end(), [&](uint32_t a, uint32_t b) {
        const auto na = trace.jobNameView(trace.jobs[a]), nb = trace.jobNameView(trace.jobs[b]);
        return na != nb ? na < nb : trace.jobs[a].id.value < trace.jobs[b].id.value;
    });
    for (uint32_t j : jobOrder)
        for (uint32_t i = 0; i < trace.jobs[j].taskCount; ++i) {
            list.original.push_back(trace.jobs[j].firstTask + i);
            list.originalRequested += trace.tasks[trace.jobs[j].firstTask + i].request.totalGpuMilli();
        }
}

/// Trims (a list asking for more than `cap`) or inflates the ordered pods, then shuffles them.
void sizeToRatio(const trace::Trace& trace, const FillOptions& options, double cap, PodList& list)
{
    Rng rng(options.seed);
    list.pods = list.original;
    int64_t requested = list.originalRequested;
    // A pod list already asking for more than ratio x capacity is trimmed as the FGD authors'
    // simulator does (its tuneDownPods): remove uniformly chosen pods (any pod, also those without
    // GPUs) until the request is at most ratio x capacity. Its own stream of the seed.
    if (options.trimAboveRatio && double(requested) > cap) {
        Rng trimRng(options.seed ^ kTrimStream);
        while (double(requested) > cap && !list.pods.empty()) {
            const std::size_t k = trimRng.below(list.pods.size());
            requested -= trace.tasks[list.pods[k]].request.totalGpuMilli();
            list.pods.erase(list.pods.begin() + std::ptrdiff_t(k));
            ++list.removed;
        }
    }
    // Otherwise inflate with uniformly sampled copies until the next one would exceed ratio x
    // capacity (the pod's total GPU request is tested, so the list never exceeds it; the authors'
    // loop tests the per-GPU request and may overshoot by one multi-GPU pod).
    const std::size_t maxPods = list.original.size() * 1000 + 1'000'000; // bound for hostile ratios
    while (list.removed == 0 && double(requested) <= cap && list.pods.size() < maxPods) {
        const uint32_t pick = list.original[rng.below(list.original.size())];
        const int64_t g = trace.tasks[pick].request.totalGpuMilli();
        if (double(requested + g) > cap)
            break;
        requested += g;
        list.pods.push_back(pick);
    }
    // Shuffle with the same seed (a fresh stream, Fisher-Yates).
    Rng shuffleRng(options.seed);
    for (std::size_t i = list.pods.size(); i > 1; --i)
        std::swap(list.pods[i - 1], list.pods[shuffleRng.below(i)]);
    if (options.maxPods > 0 && int64_t(list.pods.size()) > options.maxPods)
        list.pods.resize(std::size_t(options.maxPods)); // a prefix of the shuffled order
}

/// One run's state while pods are placed: the cluster, its fragmentation, the policy in charge
/// (the fork's from fork.at on), the pod mover when defragmenting, and the result being filled.
class FillRun {
public:
    FillRun(const trace::Trace& trace, policy::PlacementPolicy& policy, const FillOptions& options,
        const Recording& recording, const Observers& observers, cluster::ClusterState& cluster, FillResult& out)
        : m_trace(trace)
        , m_options(options)
        , m_observers(observers)
        , m_cluster(cluster)
        , m_frag(cluster, metrics::TypicalWorkload::fromTrace(trace))
        , m_active(&policy)
        , m_policyRng(options.seed ^ kPolicyStream)
        , m_out(out)
        , m_logDecisions(recording.decisions)
        , m_statePositions(recording.statePositions())
        , m_topK(recording.decisions ? recording.topK : 0)
    {
        for (ReplayObserver* o : m_observers)
            o->started(cluster);
        policy.setTieBreak(options.tieBreak, options.seed);
        resetPolicy();
        if (options.migration != Migration::None)
            m_mover.emplace(cluster.nodeCount());
    }

    /// Places pod number i (task `taskIndex`); false when the run stops before it (stopAt).
    bool placePod(std::size_t i, uint32_t taskIndex);
    /// The final figures; tells the observers (`stoppedBefore`: FinishedEvent's).
    void finish(int64_t stoppedBefore = -1);

private:
    /// Resets the deciding policy on the cluster of now and tells the observers.
    void resetPolicy()
    {
        const policy::PolicyContext ctx { m_trace, &m_frag };
        m_active->reset(ctx, m_cluster);
        for (ReplayObserver* o : m_observers)
            o->policyReset(ctx, m_cluster);
    }
    void allocate(const cluster::Placement& p, const trace::TaskRequest& r);
    void release(const cluster::Placement& p, const trace::TaskRequest& r);
    /// Defragment on failure: moves the smallest pod that frees room for `r`; the node it left
    /// (where `r` goes), or -1.
    int makeRoom(const trace::TaskRequest& r);
    /// The curve points (and samples) every whole percent of arrived GPU workload reached.
    void recordCurve(std::size_t i);

    const trace::Trace& m_trace;
    const FillOptions& m_options;
    const Observers& m_observers;
    cluster::ClusterState& m_cluster;
    metrics::FragTracker m_frag;
    policy::PlacementPolicy* m_active;
    Rng m_policyRng;
    std::optional<detail::PodMover> m_mover;
    FillResult& m_out;
    const bool m_logDecisions, m_statePositions;
    const int m_topK;
    int64_t m_statePos = 0; ///< allocations and releases so far (replay_observer.h)
    int64_t m_arrived = 0;
    int m_nextPct = 1;
};

void FillRun::allocate(const cluster::Placement& p, const trace::TaskRequest& r)
{
    m_cluster.allocate(p);
    ++m_statePos;
    for (ReplayObserver* o : m_observers)
        o->allocated(p, m_cluster);
    m_frag.nodeChanged(p.node);
    m_active->onAllocated(p, r);
}

void FillRun::release(const cluster::Placement& p, const trace::TaskRequest& r)
{
    m_cluster.release(p);
    ++m_statePos;
    for (ReplayObserver* o : m_observers)
        o->released(p, m_cluster);
    m_frag.nodeChanged(p.node);
    m_active->onReleased(p, r);
}

int FillRun::makeRoom(const trace::TaskRequest& r)
{
    if (!m_mover || (m_options.migrationBudget > 0 && m_out.migrations >= m_options.migrationBudget))
        return -1;
    const auto move = m_mover->find(m_cluster, r);
    if (!move)
        return -1;
    const cluster::Placement from = m_mover->placement(move->pod);
    const trace::TaskRequest& q = m_mover->request(move->pod);
    release(from, q);
    const cluster::Placement to = m_cluster.makePlacement(move->to, q, m_cluster.bestFitGpus(move->to, q));
    allocate(to, q);
    m_mover->moved(move->pod, to);
    ++m_out.migrations;
    return from.node;
}

bool FillRun::placePod(std::size_t i, uint32_t taskIndex)
{
    const trace::Task& task = m_trace.tasks[taskIndex];
    const trace::TaskRequest& r = task.request;
    const int64_t k = int64_t(i);
    if (k == m_options.stopAt) {
        m_out.state = std::make_shared<const cluster::ClusterState>(m_cluster);
        m_out.podIndexStopped = int64_t(taskIndex);
        m_out.curve.clear();
        return false;
    }
    if (k == m_options.fork.at && m_options.fork.policy) {
        m_active = m_options.fork.policy;
        m_active->setTieBreak(m_options.tieBreak, m_options.seed);
        resetPolicy();
    }
    const policy::PlacementRequest req { r, nullptr, &task, double(i) };
    policy::PlacementDecision d = m_active->place(m_cluster, req, m_policyRng, m_topK);
    for (ReplayObserver* o : m_observers)
        o->decided(DecidedEvent { m_cluster, req, d, 0 });
    Decision rec;
    rec.timeS = double(i);
    rec.task = int32_t(taskIndex);
    rec.feasible = d.feasible;
    rec.statePos = m_statePositions ? m_statePos : -1;
    if (d.node < 0) {
        if (const int freed = makeRoom(r); freed >= 0) {
            d.node = freed;
            d.gpuMask = m_cluster.bestFitGpus(freed, r);
        }
    }
    if (d.node >= 0) {
        const cluster::Placement p = m_cluster.makePlacement(d.node, r, d.gpuMask);
        allocate(p, r);
        if (m_mover)
            m_mover->placed(p, r);
        rec.node = d.node;
        ++m_out.placed;
    } else {
        rec.outcome = Outcome::Failed;
        ++m_out.failed;
        m_out.failedGpuMilli += r.totalGpuMilli();
    }
    if (m_logDecisions) {
        const std::size_t logged = m_out.decisions.add(rec, d.top);
        for (ReplayObserver* o : m_observers)
            o->logged(m_out.decisions, logged, 0);
    }
    m_arrived += r.totalGpuMilli();
    recordCurve(i);
    return true;
}

void FillRun::recordCurve(std::size_t i)
{
    const double total = double(m_cluster.totalGpuMilli());
    const double arrivedPct = double(m_arrived) * 100.0 / total;
    // Exact integer test: a point for k % is recorded once arrived * 100 >= k * capacity.
    while (m_arrived * 100 >= int64_t(m_nextPct) * m_cluster.totalGpuMilli()) {
        FillPoint pt;
        pt.arrivedPct = m_nextPct;
        pt.arrivedExactPct = arrivedPct;
        pt.gpuAllocPct = double(m_cluster.allocGpuMilli()) * 100.0 / total;
        pt.fragAmount = m_frag.gpuFragAmount();
        pt.fragRatePct = m_frag.gpuFragRate() * 100.0;
        pt.podsArrived = int64_t(i + 1);
        pt.podsFailed = m_out.failed;
        m_out.curve.push_back(pt);
        for (ReplayObserver* o : m_observers)
            o->sampled(double(m_nextPct), m_cluster);
        ++m_nextPct;
    }
}

void FillRun::finish(int64_t stoppedBefore)
{
    if (stoppedBefore < 0) {
        const double total = double(m_cluster.totalGpuMilli());
        m_out.finalGpuAllocPct = double(m_cluster.allocGpuMilli()) * 100.0 / total;
        m_out.finalFragAmount = m_frag.gpuFragAmount();
        m_out.finalFragRatePct = m_frag.gpuFragRate() * 100.0;
        m_out.stateHash = m_cluster.stateHash();
    }
    for (ReplayObserver* o : m_observers)
        o->finished(FinishedEvent { m_cluster, m_out.decisions, stoppedBefore });
}
} // namespace

Result<FillResult> runFillExperiment(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const FillOptions& options, ProgressFn progressFn, CancelToken cancel)
{
    return runFillExperiment(
        trace, policy, options, Recording {}, Observers {}, std::move(progressFn), std::move(cancel));
}

Result<FillResult> runFillExperiment(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const FillOptions& options, const Recording& recording, const Observers& observers, ProgressFn progressFn,
    CancelToken cancel)
{
    cluster::ClusterState cluster(trace);
    if (Status s = checkFillCluster(trace, options, cluster); !s)
        return s.error();
    PodList list;
    orderPods(trace, list);
    if (list.original.empty())
        return makeError(ErrorCode::Empty, "the trace has no pods");
    if (list.originalRequested == 0)
        return makeError(ErrorCode::Invalid, "the fill experiment needs pods that ask for GPUs (none does)");
    sizeToRatio(trace, options, options.ratio * double(cluster.totalGpuMilli()), list);

    FillResult out;
    out.policy = policy.name();
    out.seed = options.seed;
    out.ratio = options.ratio;
    out.originalPods = int64_t(list.original.size());
    out.pods = int64_t(list.pods.size());
    out.podsRemoved = list.removed;
    out.originalRequestPct = 100.0 * double(list.originalRequested) / double(cluster.totalGpuMilli());
    Recorders recorders(recording, cluster.nodeCount(), Recorders::Hashes::Live, observers);
    FillRun run(trace, policy, options, recording, recorders.observers(), cluster, out);
    ThrottledProgress progress(std::move(progressFn));
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < list.pods.size(); ++i) {
        if ((i & 255) == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "fill experiment cancelled");
            progress.report(double(i) / double(list.pods.size()));
        }
        if (!run.placePod(i, list.pods[i])) {
            // Stopped: the state there, the hashes up to it; no series (curve, heat) or totals.
            run.finish(int64_t(i));
            NodeHeat unused;
            recorders.takeInto(unused, out.stateHashes);
            return out;
        }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.finish();
    recorders.takeInto(out.heat, out.stateHashes);
    progress.report(1.0);
    return out;
}

} // namespace schedlab::sim
