#include "reward_observer.h"

#include "metrics/fragmentation.h"

#include <algorithm>

namespace schedlab::rl {

RewardObserver::RewardObserver(RewardConfig config, PendingTransition* pending)
    : m_config(config)
    , m_pending(pending)
{
}

void RewardObserver::setMultipliers(const std::array<double, kConstraintKinds>& multipliers, double slaS)
{
    m_multiplier = multipliers;
    m_slaS = slaS;
}

void RewardObserver::policyReset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster)
{
    (void)cluster;
    m_features.emplace(ctx.frag ? ctx.frag->workload() : metrics::TypicalWorkload::fromTrace(ctx.trace));
    m_sum = {};
    m_attempt.clear();
}

RewardInputs RewardObserver::placementInputs(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, uint64_t gpuMask) const
{
    const FeatureRow f = m_features->compute(c, n, r, gpuMask, 0.0, DecisionContext {});
    RewardInputs in;
    in.placed = true;
    in.balanceAfter = f[7];
    in.dominantAfter = f[9];
    in.wokeIdleNode = f[8] > 0.5f;
    in.fragDelta = f[6];
    return in;
}

std::optional<RewardObserver::Terms>& RewardObserver::slot(int attempt)
{
    if (attempt == 0)
        m_attempt.clear();
    if (m_attempt.size() <= std::size_t(attempt))
        m_attempt.resize(std::size_t(attempt) + 1);
    return m_attempt[std::size_t(attempt)];
}

void RewardObserver::decided(const sim::DecidedEvent& e)
{
    if (!m_features)
        return;
    const policy::PlacementRequest& req = e.request;
    const policy::PlacementDecision& d = e.decision;
    slot(e.attempt).reset(); // a decision earning nothing logs no reward
    const bool timed = req.submitS >= 0;
    const double waitS = timed ? std::max(0.0, req.nowS - req.submitS) : 0.0;
    if (d.node >= 0) {
        RewardInputs in = placementInputs(e.cluster, d.node, req.request, d.gpuMask);
        in.waitS = waitS;
        const double penalty = timed && waitS > m_slaS ? m_multiplier[std::size_t(ConstraintKind::Sla)] : 0.0;
        book(computeReward(m_config, in), penalty, e.attempt);
    } else if (!timed) {
        // Fits nowhere: a failure. Nothing was chosen, so the decision that led here pays.
        book(computeReward(m_config, RewardInputs {}), 0.0, e.attempt, Charge::PreviousDecision);
    } else if (d.skip || d.feasible > 0 || req.maySkip) {
        RewardInputs in;
        in.waited = true;
        in.waitS = waitS;
        book(computeReward(m_config, in), 0.0, e.attempt);
    }
}

void RewardObserver::roomDecided(const sim::RoomDecidedEvent& e)
{
    if (!m_features)
        return;
    using Kind = policy::RoomOffer::Kind;
    const policy::PlacementRequest& req = e.request;
    const double waitS = req.submitS >= 0 ? std::max(0.0, req.nowS - req.submitS) : 0.0;
    RewardInputs in;
    double penalty = 0;
    if (e.choice >= 0) {
        const cluster::ClusterState& made = e.after(e.choice);
        const int n = e.offer.freedNode;
        in = placementInputs(made, n, req.request, made.bestFitGpus(n, req.request));
        const double target = std::max(1.0, m_config.p99TargetS);
        in.roomCost = e.offer.kind == Kind::Migrate ? e.offer.restartS / (e.offer.restartS + target)
                                                    : e.offer.lostGpuHours / (e.offer.lostGpuHours + 1.0);
        penalty = e.offer.kind == Kind::Migrate ? m_multiplier[std::size_t(ConstraintKind::Migrations)]
                                                : m_multiplier[std::size_t(ConstraintKind::Evictions)] * double(e.offer.victims);
        if (waitS > m_slaS)
            penalty += m_multiplier[std::size_t(ConstraintKind::Sla)];
    } else {
        in.waited = true;
    }
    in.waitS = waitS;
    book(computeReward(m_config, in), penalty, -1);
}

void RewardObserver::book(const RewardBreakdown& r, double penalty, int attempt, Charge charge)
{
    const double total = r.total - penalty;
    m_sum.balance += r.balance;
    m_sum.packing += r.packing;
    m_sum.success += r.success;
    m_sum.custom += r.custom;
    m_sum.tail += r.tail;
    m_sum.room += r.room;
    m_sum.total += total;
    if (m_pending && charge == Charge::PreviousDecision)
        m_pending->reward += float(total);
    else if (m_pending)
        m_pending->reward = float(total);
    if (attempt >= 0)
        slot(attempt) = Terms { float(r.balance), float(r.packing), float(r.success), float(r.custom), float(r.tail), float(total) };
}

void RewardObserver::logged(sim::DecisionLog& log, std::size_t index, int attempt)
{
    if (attempt >= 0 && std::size_t(attempt) < m_attempt.size() && m_attempt[std::size_t(attempt)])
        log.setReward(index, m_attempt[std::size_t(attempt)]->data());
}

} // namespace schedlab::rl
