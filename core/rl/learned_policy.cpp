#include "learned_policy.h"

#include "policy/k8s_scheduler_config.h"

#include "q_network.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedlab::rl {

LearnedPolicy::LearnedPolicy(std::unique_ptr<Scorer> scorer, LearnedOptions options)
    : m_scorer(std::move(scorer))
    , m_opt(resolvePreselection(std::move(options)))
{
}

LearnedOptions resolvePreselection(LearnedOptions o, int modelAbove, int modelTop)
{
    if (o.preselectAbove <= 0)
        o.preselectAbove = modelAbove > 0 ? modelAbove : kDefaultPreselectAbove;
    if (o.preselectTop <= 0)
        o.preselectTop = modelTop > 0 ? modelTop : kDefaultPreselectTop;
    return o;
}

void LearnedPolicy::reset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster)
{
    m_heuristic = policy::makePlacementPolicy(m_opt.heuristic);
    if (!m_heuristic)
        m_heuristic = policy::makePlacementPolicy("bestfit");
    m_heuristic->setTieBreak(policy::TieBreak::First); // the network decides; no random tie-break below it
    m_heuristic->reset(ctx, cluster);
    if (m_teacher) {
        m_teacher->setTieBreak(policy::TieBreak::First); // deterministic, and no draw from the run's stream
        m_teacher->reset(ctx, cluster);
        m_teacherRng = Rng(1);
    }
    m_features.emplace(ctx.frag ? ctx.frag->workload() : metrics::TypicalWorkload::fromTrace(ctx.trace));
    m_pending = {};
    m_decisions = 0;
    m_consecutiveWaits = 0;
    m_error.reset();
}

void LearnedPolicy::setLearner(Learner* learner, uint64_t explorationSeed)
{
    m_learner = learner;
    m_explore = Rng(explorationSeed);
}

void LearnedPolicy::setTeacher(std::unique_ptr<policy::PlacementPolicy> teacher, ImitationSink* sink, bool decides)
{
    m_teacher = std::move(teacher);
    m_sink = m_teacher ? sink : nullptr;
    m_teacherDecides = decides;
}

int LearnedPolicy::teacherChoice(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, const policy::PlacementDecision& h)
{
    const policy::PlacementDecision t = m_teacher->place(cluster, req, m_teacherRng, std::max(1, h.feasible));
    auto indexOf = [&](int32_t node) {
        for (std::size_t i = 0; i < h.top.size(); ++i)
            if (h.top[i].node == node)
                return int(i);
        return -1;
    };
    if (const int i = indexOf(t.node); i >= 0)
        return i;
    for (const policy::Candidate& c : t.top) // best first
        if (const int i = indexOf(c.node); i >= 0)
            return i;
    return 0; // the teacher ranks none of them: the preselection's best
}

void LearnedPolicy::finishEpisode()
{
    if (m_learner && m_pending.row)
        m_learner->addTransition(*m_pending.row, m_pending.reward, nullptr, 0, true);
    m_pending.row.reset();
}

policy::PlacementDecision LearnedPolicy::place(const cluster::ClusterState& cluster, const policy::PlacementRequest& req,
    Rng& rng, int topK)
{
    // Candidates: the heuristic's feasible nodes, best first (all of them up to preselectAbove).
    policy::PlacementDecision h = m_heuristic->place(cluster, req, rng, m_opt.preselectAbove);
    policy::PlacementDecision d;
    d.feasible = h.feasible;
    ++m_decisions;
    const DecisionContext ctx = contextOf(req);
    // Skipping is decided first (level 1: skip or keep the unit's turn), then the node (level 2).
    if (m_opt.skip && req.maySkip && req.submitS >= 0 && decideSkip(cluster, ctx, !h.top.empty(), d))
        return d;

    if (h.top.empty())
        return d; // fits nowhere: nothing to choose (the reward observer books a fill's failure)
    if (h.feasible > m_opt.preselectAbove && int(h.top.size()) > m_opt.preselectTop)
        h.top.resize(std::size_t(m_opt.preselectTop));
    const int n = int(h.top.size());
    m_rows.resize(std::size_t(n) * kFeatureCount);
    for (int i = 0; i < n; ++i) {
        const FeatureRow f = m_features->compute(cluster, h.top[std::size_t(i)].node, req.request, h.top[std::size_t(i)].gpuMask,
            h.top[std::size_t(i)].score, ctx);
        std::copy(f.begin(), f.end(), m_rows.begin() + std::ptrdiff_t(i) * kFeatureCount);
    }
    // The wait action (timed replays only), masked after too many waits in a row; its row is
    // scored in the same batch as the nodes'. A skipping policy has none: it decided above
    // (decideSkip) whether the unit keeps its turn.
    const bool teacherDecides = m_teacher && m_teacherDecides;
    const bool canWait = req.submitS >= 0 && !m_opt.skip && m_opt.allowWait && !teacherDecides
        && m_consecutiveWaits < m_opt.maxConsecutiveWaits;
    FeatureRow wait {};
    if (canWait) {
        wait = waitRow(ctx, clusterAlloc(cluster));
        m_rows.insert(m_rows.end(), wait.begin(), wait.end());
    }
    // The teacher's node (a holding wait is not the teacher's to judge: its row stays out).
    const int teacherPick = m_teacher ? teacherChoice(cluster, req, h) : -1;
    if (m_teacher && m_sink)
        m_sink->addChoice(m_rows.data(), n, teacherPick);
    int chosen = 0;
    bool scored = false;
    if (teacherDecides) {
        chosen = teacherPick;
        m_q.assign(std::size_t(n), 0.0f);
        m_q[std::size_t(chosen)] = 1.0f; // the decision log shows the teacher's pick
    } else if (Status st = m_scorer->score(m_rows.data(), n + (canWait ? 1 : 0), kFeatureCount, m_q); !st) {
        if (!m_error)
            m_error = st.error();
        m_q.assign(std::size_t(n), 0.0f); // fall back to the heuristic's order
        for (int i = 0; i < n; ++i)
            m_q[std::size_t(i)] = float(n - i);
    } else {
        scored = true;
    }
    for (int i = 1; i < n; ++i)
        if (m_q[std::size_t(i)] > m_q[std::size_t(chosen)])
            chosen = i; // first best wins: the heuristic's order breaks ties
    bool waiting = canWait && scored && m_q[std::size_t(n)] > m_q[std::size_t(chosen)];
    m_q.resize(std::size_t(n));
    m_rows.resize(std::size_t(n) * kFeatureCount);
    if (m_learner && !teacherDecides && m_explore.uniform() < m_learner->epsilon()) {
        const int pick = int(m_explore.below(uint64_t(n + (canWait ? 1 : 0))));
        waiting = pick == n;
        if (!waiting)
            chosen = pick;
    }

    // Training: the previous decision's transition ends here.
    const FeatureRow* rows = reinterpret_cast<const FeatureRow*>(m_rows.data());
    if (m_learner && m_pending.row)
        m_learner->addTransition(*m_pending.row, m_pending.reward, rows, std::min(n, m_opt.maxNextRows), false);
    choose(waiting ? wait : rows[chosen]);
    // Waiting leaves node -1 with feasible > 0: the engine keeps the unit queued. The candidates
    // are logged either way.
    m_consecutiveWaits = waiting ? m_consecutiveWaits + 1 : 0;
    if (!waiting) {
        d.node = h.top[std::size_t(chosen)].node;
        d.gpuMask = h.top[std::size_t(chosen)].gpuMask;
    }
    if (topK > 0) {
        std::vector<int> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        const int k = std::min(n, topK);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
            return m_q[std::size_t(a)] != m_q[std::size_t(b)] ? m_q[std::size_t(a)] > m_q[std::size_t(b)] : a < b;
        });
        d.top.reserve(std::size_t(k));
        for (int i = 0; i < k; ++i) {
            const policy::Candidate& hc = h.top[std::size_t(order[std::size_t(i)])];
            d.top.push_back({ hc.node, double(m_q[std::size_t(order[std::size_t(i)])]), hc.score, hc.gpuMask });
        }
    }
    return d;
}

bool LearnedPolicy::decideSkip(const cluster::ClusterState& cluster, const DecisionContext& ctx, bool fits, policy::PlacementDecision& d)
{
    FeatureRow rows[2];
    rows[0] = waitRow(ctx, clusterAlloc(cluster));
    rows[0][3] = fits ? 1.0f : 0.0f;
    rows[1] = rows[0];
    rows[1][10] = kTurnMarker;
    const bool teacherSkips = m_teacher && ctx.shorterQueued > 0;
    if (m_teacher && m_sink)
        m_sink->addChoice(rows[0].data(), 2, teacherSkips ? 0 : 1);
    bool skip = teacherSkips;
    if (!(m_teacher && m_teacherDecides)) {
        std::vector<float> q;
        if (Status st = m_scorer->score(rows[0].data(), 2, kFeatureCount, q); !st) {
            if (!m_error)
                m_error = st.error();
            skip = false;
        } else {
            skip = q[0] > q[1];
        }
        if (m_learner && m_explore.uniform() < m_learner->epsilon())
            skip = m_explore.below(2) == 0;
    }
    if (m_learner && m_pending.row)
        m_learner->addTransition(*m_pending.row, m_pending.reward, rows, 2, false);
    if (!skip && fits) { // the placement that follows is this decision's outcome: its reward, its next rows
        choose(rows[1]);
        return false;
    }
    choose(skip ? rows[0] : rows[1]);
    d.skip = skip;
    return true;
}

DecisionContext LearnedPolicy::contextOf(const policy::PlacementRequest& req) const
{
    DecisionContext ctx;
    ctx.waitTargetS = m_opt.waitTargetS;
    ctx.queued = req.queued;
    ctx.headWaitS = req.headWaitS;
    ctx.taskWaitS = req.submitS >= 0 ? std::max(0.0, req.nowS - req.submitS) : 0.0;
    if (req.maySkip) {
        ctx.shorterQueued = req.shorterQueued;
        ctx.requestedS = req.requestedS;
    }
    return ctx;
}

double LearnedPolicy::clusterAlloc(const cluster::ClusterState& cluster) const
{
    return cluster.totalGpuMilli() > 0 ? double(cluster.allocGpuMilli()) / double(cluster.totalGpuMilli())
                                       : double(cluster.allocCpu()) / double(std::max<int64_t>(1, cluster.totalCpu()));
}

void LearnedPolicy::choose(const FeatureRow& chosen)
{
    m_pending.row = chosen;
    m_pending.reward = 0;
}

int LearnedPolicy::decideRoom(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, const policy::RoomOffer& offer,
    const std::function<const cluster::ClusterState&(int)>& after)
{
    using Kind = policy::RoomOffer::Kind;
    if ((m_teacher && m_teacherDecides) || !m_features)
        return 0; // as the heuristics: every offer, the engine's destination
    ++m_decisions;
    const DecisionContext ctx = contextOf(req);
    // Level 2 (where the moved task goes): its placement rows on the destinations (nodes other
    // than the one it leaves, so the cluster now describes them), best Q; the engine's order
    // (best fill first) breaks ties and bounds them as the preselection does.
    int dest = 0;
    if (offer.kind == Kind::Migrate && offer.destinations.size() > 1 && offer.moved) {
        const int n = std::min(int(offer.destinations.size()), std::max(1, m_opt.preselectTop));
        m_rows.resize(std::size_t(n) * kFeatureCount);
        DecisionContext movedCtx = ctx;
        movedCtx.taskWaitS = 0; // it runs already
        for (int i = 0; i < n; ++i) {
            const int node = offer.destinations[std::size_t(i)].node;
            const FeatureRow f = m_features->compute(cluster, node, *offer.moved, cluster.bestFitGpus(node, *offer.moved),
                100.0 * double(n - i) / double(n), movedCtx);
            std::copy(f.begin(), f.end(), m_rows.begin() + std::ptrdiff_t(i) * kFeatureCount);
        }
        if (m_scorer->score(m_rows.data(), n, kFeatureCount, m_q).ok())
            for (int i = 1; i < n; ++i)
                if (m_q[std::size_t(i)] > m_q[std::size_t(dest)])
                    dest = i;
    }
    // Level 1: the room row (the waiting task on the freed node once the room is made) against
    // the wait row.
    const cluster::ClusterState& made = after(dest);
    FeatureRow rows[2];
    rows[0] = m_features->compute(made, offer.freedNode, req.request, made.bestFitGpus(offer.freedNode, req.request), 0.0, ctx);
    rows[0][10] = offer.kind == Kind::Migrate ? kMigrateMarker : kPreemptMarker;
    rows[1] = waitRow(ctx, clusterAlloc(cluster));
    bool take = true;
    std::vector<float> q;
    if (m_scorer->score(rows[0].data(), 2, kFeatureCount, q).ok())
        take = q[0] >= q[1];
    if (m_learner && m_explore.uniform() < m_learner->epsilon())
        take = m_explore.below(2) == 0;
    if (m_learner && m_pending.row)
        m_learner->addTransition(*m_pending.row, m_pending.reward, rows, 2, false);
    choose(take ? rows[0] : rows[1]);
    return take ? dest : -1;
}

void LearnedPolicy::onAllocated(const cluster::Placement& p, const trace::TaskRequest& r)
{
    m_heuristic->onAllocated(p, r);
    if (m_teacher)
        m_teacher->onAllocated(p, r);
}

void LearnedPolicy::onReleased(const cluster::Placement& p, const trace::TaskRequest& r)
{
    m_heuristic->onReleased(p, r);
    if (m_teacher)
        m_teacher->onReleased(p, r);
}

FeatureRow waitRow(const DecisionContext& ctx, double clusterAlloc)
{
    FeatureRow f {};
    f[10] = kWaitMarker; // no candidate has a negative heuristic score: this marks the wait action
    f[11] = float(std::min(1.0, std::log1p(double(std::max(0, ctx.queued))) / std::log1p(1000.0)));
    auto shape = [&](double w) { return w <= 0 ? 0.0f : float(w / (w + std::max(1.0, ctx.waitTargetS))); };
    f[12] = shape(ctx.headWaitS);
    f[13] = shape(ctx.taskWaitS);
    f[15] = float(clusterAlloc);
    if (ctx.shorterQueued >= 0) {
        f[0] = float(std::min(1.0, std::log1p(double(ctx.shorterQueued)) / std::log1p(1000.0)));
        f[1] = shape(ctx.requestedS);
        f[2] = ctx.shorterQueued > 0 ? 1.0f : 0.0f;
    }
    return f;
}

bool isModelPolicy(const std::string& spec) { return spec.rfind("learned:", 0) == 0 || spec.rfind("torchscript:", 0) == 0; }

Result<std::unique_ptr<policy::PlacementPolicy>> makeModelPolicy(const std::string& spec, const LearnedOptions& options)
{
    if (spec.rfind("learned:", 0) == 0) {
        auto net = QNetwork::load(spec.substr(8));
        if (!net)
            return net.error();
        if (net.value()->shape().features != kFeatureCount)
            return makeError(ErrorCode::Format, "model mismatch: checkpoint takes " + std::to_string(net.value()->shape().features)
                    + " features, this build computes " + std::to_string(kFeatureCount), spec.substr(8));
        const QNetwork::Preselection pre = net.value()->preselection();
        LearnedOptions o = resolvePreselection(options, pre.above, pre.top);
        if (net.value()->skipWaits() > 0) { // it skips as it was trained to
            o.skip = true;
            o.maxConsecutiveWaits = net.value()->skipWaits();
        }
        return std::unique_ptr<policy::PlacementPolicy>(new LearnedPolicy(std::move(net).value(), std::move(o)));
    }
    if (spec.rfind("torchscript:", 0) == 0) {
        auto s = loadTorchScript(spec.substr(12), kFeatureCount);
        if (!s)
            return s.error();
        return std::unique_ptr<policy::PlacementPolicy>(new LearnedPolicy(std::move(s).value(), options));
    }
    return std::unique_ptr<policy::PlacementPolicy>();
}

Result<std::unique_ptr<policy::PlacementPolicy>> makeAnyPolicy(const std::string& name, const LearnedOptions& options,
    const std::string& schedulerConfig)
{
    if (isModelPolicy(name))
        return makeModelPolicy(name, options);
    if (!schedulerConfig.empty() && policy::acceptsSchedulerConfig(name)) {
        auto config = policy::parseKubeSchedulerConfig(schedulerConfig, "the run's scheduler configuration");
        if (!config)
            return config.error();
        return policy::makeConfiguredKubernetes(name, *config);
    }
    auto p = policy::makePlacementPolicy(name);
    if (!p)
        return makeError(ErrorCode::Invalid, "unknown policy '" + name + "' (see schedlab-cli policies)");
    return p;
}

} // namespace schedlab::rl
