// The learned replica policy and its Double DQN training (learned_scaler.h).

#include "learned_scaler.h"

#include "autoscale_replay.h"

#include "base/rng.h"
#include "rl/q_network.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace schedlab::autoscale {

namespace {

constexpr int F = kScalerFeatures, A = kScalerActions;
using Rows = std::array<float, std::size_t(F* A)>;
using Mask = std::array<char, std::size_t(A)>;

/// Replay buffer, target network and the gradient step.
class ScalerTrainer {
public:
    ScalerTrainer(rl::QNetwork& online, std::unique_ptr<rl::QNetwork> target, std::unique_ptr<rl::QLearner> learner,
        const ScalerTrainOptions& o)
        : m_online(online)
        , m_target(std::move(target))
        , m_learner(std::move(learner))
        , m_o(o)
        , m_rng(o.seed ^ 0x5ca1ab1eull)
    {
        const std::size_t cap = std::size_t(std::max(o.bufferSize, o.batchSize));
        m_chosen.resize(cap * F);
        m_next.resize(cap);
        m_mask.resize(cap);
        m_reward.resize(cap);
        m_target->copyFrom(m_online);
    }
    Rng& rng() { return m_rng; }
    double epsilon() const
    {
        const double f = m_totalDecisions > 0 ? std::min(1.0, double(m_decisions) / double(m_totalDecisions)) : 1.0;
        return m_o.epsilonStart + (m_o.epsilonEnd - m_o.epsilonStart) * f;
    }
    void setTotalDecisions(int64_t n) { m_totalDecisions = n; }
    void countDecision() { ++m_decisions; }
    const Error* error() const { return m_error ? &*m_error : nullptr; }
    void fail(Error e)
    {
        if (!m_error)
            m_error = std::move(e);
    }
    int64_t gradientSteps() const { return m_steps; }
    double takeLossMean()
    {
        const double m = m_lossN ? m_lossSum / double(m_lossN) : 0;
        m_lossSum = 0;
        m_lossN = 0;
        return m;
    }

    void add(const float* chosen, float reward, const Rows& next, const Mask& mask)
    {
        if (m_error)
            return;
        const std::size_t cap = m_reward.size(), at = m_written % cap;
        std::copy(chosen, chosen + F, m_chosen.begin() + std::ptrdiff_t(at * F));
        m_next[at] = next;
        m_mask[at] = mask;
        m_reward[at] = reward;
        ++m_written;
        if (m_written % std::size_t(m_o.trainEvery) == 0 && std::min(m_written, cap) >= std::size_t(m_o.batchSize))
            step();
    }

private:
    void step()
    {
        const int b = m_o.batchSize;
        const std::size_t filled = std::min(m_written, m_reward.size());
        m_x.resize(std::size_t(b) * F);
        m_nx.resize(std::size_t(b) * F * A);
        m_y.resize(std::size_t(b));
        std::vector<std::size_t> pick(static_cast<std::size_t>(b));
        for (int i = 0; i < b; ++i) {
            const std::size_t s = pick[std::size_t(i)] = std::size_t(m_rng.below(filled));
            std::copy_n(m_chosen.begin() + std::ptrdiff_t(s * F), F, m_x.begin() + std::ptrdiff_t(i) * F);
            std::copy(m_next[s].begin(), m_next[s].end(), m_nx.begin() + std::ptrdiff_t(i) * F * A);
        }
        // Double DQN: the online network picks the next action, the target network values it.
        if (Status st = m_online.score(m_nx.data(), b * A, F, m_qOnline); !st)
            return fail(st.error());
        if (Status st = m_target->score(m_nx.data(), b * A, F, m_qTarget); !st)
            return fail(st.error());
        for (int i = 0; i < b; ++i) {
            const std::size_t s = pick[std::size_t(i)];
            int best = -1;
            for (int a = 0; a < A; ++a)
                if (m_mask[s][std::size_t(a)] && (best < 0 || m_qOnline[std::size_t(i * A + a)] > m_qOnline[std::size_t(i * A + best)]))
                    best = a;
            m_y[std::size_t(i)] = m_reward[s] + float(m_o.gamma) * (best < 0 ? 0.0f : m_qTarget[std::size_t(i * A + best)]);
        }
        auto loss = m_learner->step(m_x.data(), m_y.data(), b);
        if (!loss)
            return fail(loss.error());
        m_lossSum += *loss;
        ++m_lossN;
        if (++m_steps % m_o.targetSyncSteps == 0)
            m_target->copyFrom(m_online);
    }

    rl::QNetwork& m_online;
    std::unique_ptr<rl::QNetwork> m_target;
    std::unique_ptr<rl::QLearner> m_learner;
    ScalerTrainOptions m_o;
    Rng m_rng;
    std::vector<float> m_chosen, m_reward;
    std::vector<Rows> m_next;
    std::vector<Mask> m_mask;
    std::size_t m_written = 0;
    int64_t m_steps = 0, m_decisions = 0, m_totalDecisions = 0;
    std::vector<float> m_x, m_nx, m_y, m_qOnline, m_qTarget;
    double m_lossSum = 0;
    int64_t m_lossN = 0;
    std::optional<Error> m_error;
};

/// The policy: greedy over allowed actions, or epsilon-greedy and feeding the trainer.
class ScalerAgent final : public ReplicaPolicy {
public:
    ScalerAgent(rl::Scorer& scorer, const ServiceConfig& s, std::string name, ScalerTrainer* trainer, ScalerReward reward)
        : m_scorer(scorer)
        , m_s(s)
        , m_name(std::move(name))
        , m_state(s)
        , m_trainer(trainer)
        , m_reward(reward)
    {
    }
    std::string name() const override { return m_name; }
    bool wantsOutcome() const override { return m_trainer != nullptr; }
    void applied(int replicas) override { m_applied = replicas; }
    int decide(const ScalerView& v) override
    {
        m_state.observe(v);
        Rows rows;
        Mask mask;
        for (int a = 0; a < A; ++a) {
            m_state.features(a, rows.data() + a * F);
            mask[std::size_t(a)] = m_state.allowed(a) ? 1 : 0;
        }
        if (m_trainer && m_hasPrev) {
            const ScalerRewardTerms r = scalerReward(m_reward, m_s, m_applied, v.periodMissedShare, v.periodP99S, v.arrivalRate);
            m_rewardSum += r.total;
            ++m_rewards;
            m_trainer->add(m_prev.data(), float(r.total), rows, mask);
        }
        int chosen = -1;
        m_values.clear();
        if (m_trainer && m_trainer->rng().uniform() < m_trainer->epsilon()) {
            int n = 0;
            for (int a = 0; a < A; ++a)
                n += mask[std::size_t(a)];
            int k = int(m_trainer->rng().below(uint64_t(n)));
            for (int a = 0; a < A && chosen < 0; ++a)
                if (mask[std::size_t(a)] && k-- == 0)
                    chosen = a;
        } else {
            if (Status st = m_scorer.score(rows.data(), A, F, m_q); !st) {
                m_error = st.error();
                if (m_trainer)
                    m_trainer->fail(st.error());
                return v.current;
            }
            for (int a = 0; a < A; ++a)
                if (mask[std::size_t(a)] && (chosen < 0 || m_q[std::size_t(a)] > m_q[std::size_t(chosen)]))
                    chosen = a;
            m_values.clear();
            for (int a = 0; a < A; ++a)
                m_values.push_back(ActionValue { m_state.deltas()[std::size_t(a)], mask[std::size_t(a)] != 0, m_q[std::size_t(a)] });
        }
        if (m_trainer)
            m_trainer->countDecision();
        std::copy_n(rows.begin() + chosen * F, F, m_prev.begin());
        m_hasPrev = true;
        return v.current + m_state.deltas()[std::size_t(chosen)];
    }
    std::vector<ActionValue> lastValues() const override { return m_values; }
    double meanReward() const { return m_rewards ? m_rewardSum / double(m_rewards) : 0; }
    int64_t decisions() const { return m_rewards; }

private:
    rl::Scorer& m_scorer;
    const ServiceConfig& m_s;
    std::string m_name;
    ScalerState m_state;
    ScalerTrainer* m_trainer;
    ScalerReward m_reward;
    std::vector<float> m_q;
    std::vector<ActionValue> m_values;
    std::array<float, std::size_t(F)> m_prev {};
    bool m_hasPrev = false;
    int m_applied = 0;
    double m_rewardSum = 0;
    int64_t m_rewards = 0;
    std::optional<Error> m_error;
};

/// Owns its scorer.
class OwningScaler final : public ReplicaPolicy {
public:
    OwningScaler(std::unique_ptr<rl::Scorer> scorer, const ServiceConfig& s, std::string name)
        : m_scorer(std::move(scorer))
        , m_service(s)
        , m_agent(*m_scorer, m_service, std::move(name), nullptr, {})
    {
    }
    std::string name() const override { return m_agent.name(); }
    int decide(const ScalerView& v) override { return m_agent.decide(v); }
    std::vector<ActionValue> lastValues() const override { return m_agent.lastValues(); }

private:
    std::unique_ptr<rl::Scorer> m_scorer;
    ServiceConfig m_service;
    ScalerAgent m_agent;
};

} // namespace

Result<ScalerTrainReport> trainScaler(rl::QNetwork& net, const LoadSeries& load, const ServiceConfig& service,
    const ScalerTrainOptions& o, const std::function<void(const ScalerEpisode&)>& onEpisode, ProgressFn progress, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (net.shape().features != F)
        return makeError(ErrorCode::Invalid, "a replica policy's network takes " + std::to_string(F) + " features, this one "
                + std::to_string(net.shape().features));
    if (o.episodes < 1 || o.batchSize < 1 || o.trainEvery < 1 || o.targetSyncSteps < 1 || !(o.gamma >= 0 && o.gamma < 1))
        return makeError(ErrorCode::Invalid, "training options: episodes, batch size, train-every and target sync >= 1, 0 <= gamma < 1");
    auto learner = net.learner(o.learningRate, o.gradClip);
    if (!learner)
        return learner.error();
    ScalerTrainer trainer(net, net.cloneNetwork(), std::move(learner).value(), o);
    const double span = o.durationS > 0 ? o.durationS : double(load.requests.size()) - o.fromS;
    trainer.setTotalDecisions(int64_t(double(o.episodes) * span / std::max(1.0, service.hpa.syncPeriodS)));
    ScalerTrainReport report;
    AutoscaleOptions run;
    run.fromS = o.fromS;
    run.durationS = o.durationS;
    for (int e = 0; e < o.episodes; ++e) {
        ScalerAgent agent(net, service, "learned (training)", &trainer, o.reward);
        ProgressFn p;
        if (progress)
            p = [&](double f) { progress((double(e) + f) / double(o.episodes)); };
        auto r = runAutoscale(load, service, agent, run, p, cancel);
        if (const Error* err = trainer.error())
            return makeError(err->code, "episode " + std::to_string(e + 1) + ": " + err->message, err->file, err->line);
        if (!r)
            return r.error();
        ScalerEpisode ep;
        ep.meanReward = agent.meanReward();
        ep.decisions = agent.decisions();
        ep.replicaHours = r->replicaHours;
        ep.sloViolationMinutes = r->sloViolationMinutes;
        ep.meanLoss = trainer.takeLossMean();
        report.episodes.push_back(ep);
        if (onEpisode)
            onEpisode(ep);
    }
    report.gradientSteps = trainer.gradientSteps();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
}

std::unique_ptr<ReplicaPolicy> makeLearnedScaler(std::unique_ptr<rl::Scorer> scorer, const ServiceConfig& service, std::string name)
{
    return std::make_unique<OwningScaler>(std::move(scorer), service, std::move(name));
}

Result<std::unique_ptr<ReplicaPolicy>> loadLearnedScaler(const std::string& path, const ServiceConfig& service)
{
    auto net = rl::QNetwork::load(path);
    if (!net)
        return net.error();
    if (net.value()->shape().features != F)
        return makeError(ErrorCode::Format,
            "not a replica policy checkpoint: it takes " + std::to_string(net.value()->shape().features) + " features (a replica policy "
                + std::to_string(F) + "; a placement policy 16)",
            path);
    return makeLearnedScaler(std::move(net).value(), service, "learned:" + path.substr(path.find_last_of('/') + 1));
}

std::unique_ptr<ReplicaPolicy> makeAnyReplicaPolicy(const std::string& spec, const ServiceConfig& service, std::string* error)
{
    if (spec.rfind("learned:", 0) != 0)
        return makeReplicaPolicy(spec, service, error);
    auto p = loadLearnedScaler(spec.substr(8), service);
    if (p)
        return std::move(p).value();
    if (error)
        *error = p.error().toString();
    return nullptr;
}

} // namespace schedlab::autoscale
