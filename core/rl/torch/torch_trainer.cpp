#include "torch_module_impl.h"

#include "q_network_impl.h"

#include "rl/choice_buffer.h"
#include "rl/reward_observer.h"
#include "sim/fill_experiment.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

namespace schedlab::rl {

namespace {

// A ring of transitions: the chosen row, the reward, up to maxNext next rows, done.
struct Ring {
    std::vector<float> chosen;
    /// cap x maxNext rows (82 MB at the defaults), left uninitialised: only rows written are read,
    /// and pages a short run never reaches are never touched.
    std::unique_ptr<float[]> next;
    std::vector<float> reward;
    std::vector<int> nextCount;
    std::vector<char> done;
    std::size_t written = 0;
    int maxNext = 0;

    Ring(std::size_t cap, int m)
        : chosen(cap * kFeatureCount)
        , next(new float[cap * std::size_t(m) * kFeatureCount])
        , reward(cap)
        , nextCount(cap)
        , done(cap)
        , maxNext(m)
    {
    }
    std::size_t filled() const { return std::min(written, reward.size()); }
    void add(const FeatureRow& row, float r, const FeatureRow* nextRows, int count, bool isDone)
    {
        const std::size_t at = written % reward.size();
        std::copy(row.begin(), row.end(), chosen.begin() + std::ptrdiff_t(at * kFeatureCount));
        const int k = isDone ? 0 : std::min(count, maxNext);
        for (int i = 0; i < k; ++i)
            std::copy(nextRows[i].begin(), nextRows[i].end(),
                next.get() + (at * std::size_t(maxNext) + std::size_t(i)) * kFeatureCount);
        reward[at] = r;
        nextCount[at] = k;
        done[at] = isDone || k == 0;
        ++written;
    }
};

// Replay buffer and the gradient step. Receives transitions from the LearnedPolicy. Decisions
// between acting and waiting (the chosen row is an action row: wait, or make room; feature 10 < 0)
// are rare beside placements, so they have a ring of their own and fill up to an eighth of every
// batch (stratified replay): otherwise a room decision's cost is almost never sampled.
// With a teacher loss it also keeps the teacher's recent decisions (two buffers of up to half the
// replay size each, the older dropped whole) and adds their large-margin loss to every step.
class DqnLearner final : public Learner, public ImitationSink {
public:
    DqnLearner(TorchQNetwork& online, const TrainOptions& o, CancelToken stop, CancelToken user)
        : m_online(online)
        , m_target(TorchQNetwork::create(0, online.shape()))
        , m_opt(o)
        , m_stop(std::move(stop))
        , m_user(std::move(user))
        , m_rng(o.seed ^ 0x5eedb0ffe7ull)
        , m_adam(online.impl().net->parameters(), torch::optim::AdamOptions(o.learningRate))
        , m_main(std::size_t(std::max(o.bufferSize, o.batchSize)), o.policy.maxNextRows)
        , m_actions(std::size_t(std::max(o.bufferSize / 10, o.batchSize)), o.policy.maxNextRows)
        , m_demos { ChoiceBuffer(o.seed ^ 0xde305ull, kTeacherLossCandidates), ChoiceBuffer(o.seed ^ 0xde306ull, kTeacherLossCandidates) }
        , m_demoRng(o.seed ^ 0xde307ull)
    {
        m_target->copyFrom(online);
    }

    void addChoice(const float* rows, int n, int chosen) override
    {
        if (m_demos[m_demoAt].decisions() >= std::size_t(std::max(1, m_opt.bufferSize / 2))) {
            m_demoAt ^= 1;
            m_demos[m_demoAt].clear();
        }
        m_demos[m_demoAt].addChoice(rows, n, chosen);
    }

    void addTransition(const FeatureRow& chosen, float reward, const FeatureRow* next, int nextCount, bool done) override
    {
        if (m_stop.isCancelled())
            return;
        if (m_user.isCancelled()) {
            m_stop.cancel();
            return;
        }
        (chosen[10] < 0 ? m_actions : m_main).add(chosen, reward, next, nextCount, done);
        ++m_written;
        if (m_written % std::size_t(m_opt.trainEvery) == 0 && m_main.filled() + m_actions.filled() >= std::size_t(m_opt.batchSize))
            step();
    }
    double epsilon() const override { return m_epsilon; }
    void setEpsilon(double e) { m_epsilon = e; }
    void beginEpisode(int episode)
    {
        m_episode = episode;
        m_lossSum = 0;
        m_lossMin = INFINITY;
        m_lossMax = -INFINITY;
        m_episodeSteps = 0;
    }
    const std::optional<Error>& error() const { return m_error; }
    int64_t gradientSteps() const { return m_steps; }
    int64_t episodeSteps() const { return m_episodeSteps; }
    double meanLoss() const { return m_episodeSteps ? m_lossSum / double(m_episodeSteps) : -1; }
    double minLoss() const { return m_episodeSteps ? m_lossMin : -1; }
    double maxLoss() const { return m_episodeSteps ? m_lossMax : -1; }

private:
    void step()
    {
        const int b = m_opt.batchSize;
        // Scratch buffers live in the learner: fresh vectors per step cost page faults.
        std::vector<float>& chosen = m_bChosen;
        std::vector<float>& next = m_bNext;
        std::vector<float>& reward = m_bReward;
        std::vector<float>& notDone = m_bNotDone;
        chosen.resize(std::size_t(b) * kFeatureCount);
        reward.resize(std::size_t(b));
        notDone.resize(std::size_t(b));
        m_bFirst.resize(std::size_t(b) + 1);
        next.clear();
        // The action ring's share: up to b/8, never more than it holds or than the main ring leaves.
        const int fromActions = m_main.filled() == 0
            ? b
            : int(std::min<std::size_t>({ std::size_t(b / 8), m_actions.filled(), std::size_t(b) }));
        // The sampled transitions' next rows, packed one after the other (no padding): transition
        // i owns rows [m_bFirst[i], m_bFirst[i + 1]).
        for (int i = 0; i < b; ++i) {
            const Ring& ring = i < fromActions ? m_actions : m_main;
            const std::size_t s = std::size_t(m_rng.below(ring.filled()));
            std::copy_n(ring.chosen.begin() + std::ptrdiff_t(s * kFeatureCount), kFeatureCount,
                chosen.begin() + std::ptrdiff_t(std::size_t(i) * kFeatureCount));
            const int k = ring.nextCount[s];
            m_bFirst[std::size_t(i)] = int(next.size() / kFeatureCount);
            const float* from = ring.next.get() + s * std::size_t(ring.maxNext) * kFeatureCount;
            next.insert(next.end(), from, from + std::size_t(k) * kFeatureCount);
            reward[std::size_t(i)] = ring.reward[s];
            notDone[std::size_t(i)] = ring.done[s] ? 0.0f : 1.0f;
        }
        const int packed = int(next.size() / kFeatureCount);
        m_bFirst[std::size_t(b)] = packed;
        auto& online = m_online.impl().net;
        auto& target = m_target->impl().net;
        const torch::Tensor x = torch::from_blob(chosen.data(), { b, kFeatureCount }, torch::kFloat32);
        const torch::Tensor r = torch::from_blob(reward.data(), { b }, torch::kFloat32);
        const torch::Tensor nd = torch::from_blob(notDone.data(), { b }, torch::kFloat32);
        torch::Tensor y;
        {
            torch::NoGradGuard guard;
            // Double DQN: the online network picks the next action (first best row of each
            // transition), the target network values only those rows.
            std::vector<float>& best = m_bBest;
            best.assign(std::size_t(b) * kFeatureCount, 0.0f);
            if (packed > 0) {
                const torch::Tensor nx = torch::from_blob(next.data(), { packed, kFeatureCount }, torch::kFloat32);
                const torch::Tensor qOnline = online->forward(nx).reshape({ packed }).contiguous();
                const float* q = qOnline.data_ptr<float>();
                for (int i = 0; i < b; ++i) {
                    const int first = m_bFirst[std::size_t(i)], last = m_bFirst[std::size_t(i) + 1];
                    if (first == last)
                        continue; // done: the target's value is multiplied by 0
                    int arg = first;
                    for (int j = first + 1; j < last; ++j)
                        if (q[j] > q[arg])
                            arg = j;
                    std::copy_n(next.begin() + std::ptrdiff_t(std::size_t(arg) * kFeatureCount), kFeatureCount,
                        best.begin() + std::ptrdiff_t(std::size_t(i) * kFeatureCount));
                }
            }
            const torch::Tensor bx = torch::from_blob(best.data(), { b, kFeatureCount }, torch::kFloat32);
            const torch::Tensor qTarget = target->forward(bx).reshape({ b });
            y = r + m_opt.gamma * nd * qTarget;
        }
        const torch::Tensor q = online->forward(x);
        torch::Tensor loss = torch::smooth_l1_loss(q, y);
        if (!m_opt.teacherLoss.empty() && m_opt.teacherLossWeight > 0 && m_demos[0].decisions() + m_demos[1].decisions() > 0)
            loss = loss + m_opt.teacherLossWeight * teacherLoss(b);
        m_adam.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(online->parameters(), m_opt.gradClip);
        m_adam.step();
        const double l = loss.item<double>();
        ++m_steps;
        ++m_episodeSteps;
        if (!std::isfinite(l) || (m_steps % 50 == 0 && !m_online.allFinite())) {
            m_error = makeError(ErrorCode::Invalid,
                "training diverged in episode " + std::to_string(m_episode + 1) + " at gradient step " + std::to_string(m_steps)
                    + (std::isfinite(l) ? ": a weight became NaN or infinite" : ": the loss is " + std::to_string(l))
                    + " (try a lower learning rate)");
            m_stop.cancel();
            return;
        }
        m_lossSum += l;
        m_lossMin = std::min(m_lossMin, l);
        m_lossMax = std::max(m_lossMax, l);
        if (m_steps % m_opt.targetSyncSteps == 0)
            m_target->copyFrom(m_online);
    }

    /// The large-margin loss over b of the teacher's kept decisions drawn at random (its row first).
    torch::Tensor teacherLoss(int b)
    {
        m_dRows.clear();
        m_dSizes.clear();
        const std::size_t older = m_demos[m_demoAt ^ 1].decisions(), all = older + m_demos[m_demoAt].decisions();
        for (int i = 0; i < b; ++i) {
            std::size_t d = std::size_t(m_demoRng.below(all));
            const ChoiceBuffer& from = d < older ? m_demos[m_demoAt ^ 1] : m_demos[m_demoAt];
            if (d >= older)
                d -= older;
            m_dRows.insert(m_dRows.end(), from.rows(d), from.rows(d) + std::ptrdiff_t(from.size(d)) * kFeatureCount);
            m_dSizes.push_back(from.size(d));
        }
        return marginLoss(m_online.impl().net, m_dRows.data(), m_dSizes.data(), b, kFeatureCount, kTeacherMargin);
    }

    TorchQNetwork& m_online;
    std::unique_ptr<TorchQNetwork> m_target;
    TrainOptions m_opt;
    CancelToken m_stop, m_user;
    Rng m_rng;
    torch::optim::Adam m_adam;
    Ring m_main, m_actions;
    std::vector<float> m_bChosen, m_bNext, m_bReward, m_bNotDone, m_bBest;
    std::vector<int> m_bFirst;
    ChoiceBuffer m_demos[2];
    int m_demoAt = 0;
    Rng m_demoRng;
    std::vector<float> m_dRows;
    std::vector<int> m_dSizes;
    std::size_t m_written = 0;
    double m_epsilon = 0;
    int m_episode = 0;
    int64_t m_steps = 0, m_episodeSteps = 0;
    double m_lossSum = 0, m_lossMin = 0, m_lossMax = 0;
    std::optional<Error> m_error;
};

/// The greedy policy of `net` on the validation seeds: fill, mean final GPU allocation %; timed,
/// mean p99 wait (s) over the training window.
Result<double> validate(const QNetwork& net, const trace::Trace& trace, const TrainOptions& o, CancelToken cancel)
{
    double sum = 0;
    for (uint64_t seed : o.validationSeeds) {
        LearnedPolicy greedy(net.cloneNetwork(), o.learnedOptions());
        if (o.mode() == sim::RunMode::Fill) {
            auto r
                = sim::runFillExperiment(trace, greedy, fillOptionsFor(o, seed), trainingRecording(), {}, {}, cancel);
            if (!r)
                return r.error();
            sum += r->finalGpuAllocPct;
        } else {
            auto r = sim::runTimedReplay(trace, greedy, timedOptionsFor(o, seed), trainingRecording(), {}, {}, cancel);
            if (!r)
                return r.error();
            sum += r->waitS.p99;
        }
    }
    return sum / double(o.validationSeeds.size());
}

} // namespace

namespace {
Status checkTrainOptions(const QNetwork& net, const TrainOptions& o)
{
    if (o.episodes < 1 || o.batchSize < 1 || o.trainEvery < 1 || o.targetSyncSteps < 1 || o.bufferSize < 1)
        return makeError(ErrorCode::Invalid, "training options: episodes, batch, trainEvery, targetSync and buffer must be >= 1");
    if (!(o.learningRate > 0) || !std::isfinite(o.learningRate))
        return makeError(ErrorCode::Invalid, "training options: the learning rate must be a finite number > 0");
    if (!o.teacherLoss.empty() && (!policy::makePlacementPolicy(o.teacherLoss) || !(o.teacherLossWeight >= 0) || !std::isfinite(o.teacherLossWeight)))
        return makeError(ErrorCode::Invalid, "training options: the teacher loss needs a heuristic of schedlab-cli policies (not '"
                + o.teacherLoss + "') and a finite weight >= 0");
    if (!(o.blend > 0 && o.blend <= 1))
        return makeError(ErrorCode::Invalid, "training options: the blend (the fine-tuned weights' share) must be in (0, 1]");
    if (net.shape().features != kFeatureCount)
        return makeError(ErrorCode::Invalid, "model mismatch: the network takes " + std::to_string(net.shape().features)
                + " features, this build computes " + std::to_string(kFeatureCount));
    return {};
}

/// The policy scores with the network being trained (no copy): the scorer is a view.
struct NetView final : Scorer {
    QNetwork& n;
    explicit NetView(QNetwork& net)
        : n(net)
    {
    }
    Status score(const float* rows, int k, int f, std::vector<float>& out) override { return n.score(rows, k, f, out); }
    std::string describe() const override { return n.describe(); }
    Result<std::unique_ptr<Scorer>> clone() const override { return n.clone(); }
};

/// What training keeps across episodes besides the network: the CMDP multipliers.
struct EpisodeContext {
    QNetwork& net;
    const trace::Trace& trace;
    const TrainOptions& o;
    DqnLearner& learner;
    std::array<double, kConstraintKinds>& multiplier;
    ThrottledProgress& progress;
    CancelToken stop, cancel;
};

/// Episode e (exploring with `eps`): the replay the learner learns from, then its figures (no
/// validation yet); the multipliers move by dual ascent on the episode's constraint values.
Result<EpisodeStats> playEpisode(EpisodeContext& c, int e, double eps)
{
    const TrainOptions& o = c.o;
    const auto e0 = std::chrono::steady_clock::now();
    c.learner.setEpsilon(eps);
    c.learner.beginEpisode(e);
    LearnedPolicy policy(std::make_unique<NetView>(c.net), o.learnedOptions());
    policy.setLearner(&c.learner, o.seed * 7919 + uint64_t(e));
    if (!o.teacherLoss.empty())
        policy.setTeacher(policy::makePlacementPolicy(o.teacherLoss), &c.learner, false);
    RewardObserver reward(o.reward, &policy.pending());
    reward.setMultipliers(c.multiplier, o.constraints.slaS);
    const sim::Observers observers { &reward };
    ConstraintTrace constraints;
    constraints.multiplier = c.multiplier;
    constraints.budget = o.constraints.budget;
    const uint64_t seed = o.seed + uint64_t(e);
    auto sub = [&](double f) { c.progress.report((double(e) + f) / double(o.episodes)); };
    Status ran;
    if (o.mode() == sim::RunMode::Fill) {
        // a training window (maxPods); evaluations place every pod
        auto r = sim::runFillExperiment(
            c.trace, policy, episodeFillOptions(o, seed), trainingRecording(), observers, sub, c.stop);
        if (!r)
            ran = r.error();
    } else {
        auto r = sim::runTimedReplay(
            c.trace, policy, timedOptionsFor(o, seed), trainingRecording(), observers, sub, c.stop);
        if (!r)
            ran = r.error();
        else
            for (int k = 0; k < kConstraintKinds; ++k)
                if (o.constraints.on(ConstraintKind(k))) {
                    const std::size_t i = std::size_t(k);
                    constraints.value[i] = constraintValue(ConstraintKind(k), *r);
                    c.multiplier[i] = nextMultiplier(c.multiplier[i], constraints.value[i], o.constraints.budget[i], o.constraints.rate);
                }
    }
    if (c.learner.error())
        return *c.learner.error();
    if (c.cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "training cancelled");
    if (!ran)
        return ran.error();
    policy.finishEpisode();
    EpisodeStats s;
    s.episode = e + 1;
    s.meanLoss = c.learner.meanLoss();
    s.minLoss = c.learner.minLoss();
    s.maxLoss = c.learner.maxLoss();
    s.episodeReturn = reward.episodeReward().total;
    s.epsilon = eps;
    s.decisions = policy.decisions();
    s.gradientSteps = c.learner.episodeSteps();
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
    s.stepsPerSecond = s.seconds > 0 ? double(s.decisions) / s.seconds : 0;
    s.constraints = constraints;
    return s;
}

/// With validation seeds: the weights the round keeps (the best validated so far, the start as
/// episode 0), validated blended as the round would end.
class BestWeights {
public:
    BestWeights(QNetwork& net, const TrainOptions& o)
        : m_net(net)
        , m_o(o)
        , m_start(o.blend < 1.0 ? net.cloneNetwork() : nullptr)
    {
    }
    /// Validates the starting weights (episode 0).
    Status start(const trace::Trace& trace, TrainReport& report, CancelToken cancel)
    {
        auto v = validate(m_net, trace, m_o, cancel);
        if (!v)
            return v.error();
        report.startValidation = m_bestValidation = *v;
        m_best = m_net.cloneNetwork();
        return {};
    }
    /// Validates the weights after episode s.episode; keeps them when better.
    Status offer(const trace::Trace& trace, EpisodeStats& s, TrainReport& report, CancelToken cancel)
    {
        auto candidate = blended();
        auto v = validate(*candidate, trace, m_o, cancel);
        if (!v)
            return v.error();
        s.validation = *v;
        if (m_o.mode() == sim::RunMode::Fill ? s.validation > m_bestValidation : s.validation < m_bestValidation) {
            m_best = std::move(candidate);
            m_bestValidation = s.validation;
            report.keptEpisode = s.episode;
        }
        return {};
    }
    /// The network ends with the kept weights, else the last ones (blended with the start).
    void apply()
    {
        if (m_best)
            m_net.copyFrom(*m_best);
        else if (m_start)
            m_net.mixWith(*m_start, 1.0 - m_o.blend);
    }

private:
    std::unique_ptr<QNetwork> blended() const
    {
        auto c = m_net.cloneNetwork();
        if (m_start)
            c->mixWith(*m_start, 1.0 - m_o.blend);
        return c;
    }
    QNetwork& m_net;
    const TrainOptions& m_o;
    const std::unique_ptr<QNetwork> m_start; ///< with a blend: the weights the round started from
    std::unique_ptr<QNetwork> m_best;
    double m_bestValidation = 0;
};
} // namespace

Result<TrainReport> trainWithTorch(QNetwork& net, const trace::Trace& trace, const TrainOptions& o,
    const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progressFn, CancelToken cancel)
{
    if (Status st = checkTrainOptions(net, o); !st)
        return st.error();
    torch::manual_seed(o.seed);
    configureTorchRuntime();
    const auto t0 = std::chrono::steady_clock::now();
    CancelToken stop;
    // Every QNetwork is made by this module (QNetwork::create/load forward here).
    DqnLearner learner(static_cast<TorchQNetwork&>(net), o, stop, cancel);
    TrainReport report;
    ThrottledProgress progress(progressFn);
    std::array<double, kConstraintKinds> multiplier { 0, 0, 0 }; // CMDP: learnt across the episodes
    BestWeights kept(net, o);
    if (!o.validationSeeds.empty())
        if (Status st = kept.start(trace, report, cancel); !st)
            return st.error();
    EpisodeContext context { net, trace, o, learner, multiplier, progress, stop, cancel };
    for (int e = 0; e < o.episodes; ++e) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, "training cancelled");
        const double eps = o.episodes == 1 ? o.epsilonStart
                                           : o.epsilonStart + (o.epsilonEnd - o.epsilonStart) * double(e) / double(o.episodes - 1);
        auto s = playEpisode(context, e, eps);
        if (!s)
            return s.error();
        if (!o.validationSeeds.empty())
            if (Status st = kept.offer(trace, *s, report, cancel); !st)
                return st.error();
        report.decisions += s->decisions;
        report.episodes.push_back(*s);
        if (onEpisode)
            onEpisode(*s);
    }
    kept.apply();
    if (!net.allFinite())
        return makeError(ErrorCode::Invalid, "training diverged: a weight became NaN or infinite (try a lower learning rate)");
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.report(1.0);
    return report;
}

} // namespace schedlab::rl
