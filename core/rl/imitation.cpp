// Pre-training from a teacher (imitation.h).

#include "imitation.h"

#include "choice_buffer.h"
#include "learned_policy.h"
#include "q_network.h"

#include "base/rng.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace schedlab::rl {

Result<TrainReport> imitate(QNetwork& net, const trace::Trace& trace, const TrainOptions& o, const std::string& teacher,
    const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progressFn, CancelToken cancel)
{
    if (!policy::makePlacementPolicy(teacher))
        return makeError(ErrorCode::Invalid, "unknown teacher '" + teacher + "' (a heuristic of schedlab-cli policies)");
    if (net.shape().features != kFeatureCount)
        return makeError(ErrorCode::Invalid, "the network scores " + std::to_string(net.shape().features) + " features, placement " +
                std::to_string(kFeatureCount));
    auto learner = net.learner(o.learningRate, o.gradClip);
    if (!learner)
        return learner.error();
    const auto t0 = std::chrono::steady_clock::now();
    ThrottledProgress progress(progressFn);
    TrainReport report;
    Rng order(o.seed ^ 0x1417a7e5ull);
    constexpr int kPasses = 2;
    for (int e = 0; e < o.episodes; ++e) {
        const auto e0 = std::chrono::steady_clock::now();
        const uint64_t seed = o.seed + uint64_t(e);
        ChoiceBuffer buffer(seed * 0x9E3779B97F4A7C15ull + 1, kImitationCandidates);
        LearnedPolicy policy(net.cloneNetwork(), o.learnedOptions());
        policy.setTeacher(policy::makePlacementPolicy(teacher), &buffer);
        auto played = [&](double f) { progress.report((double(e) + 0.5 * f) / double(o.episodes)); };
        if (o.mode() == sim::RunMode::Fill) {
            // a training window (maxPods); evaluations place every pod
            auto r = sim::runFillExperiment(
                trace, policy, episodeFillOptions(o, seed), trainingRecording(), {}, played, cancel);
            if (!r)
                return r.error();
        } else {
            auto r
                = sim::runTimedReplay(trace, policy, timedOptionsFor(o, seed), trainingRecording(), {}, played, cancel);
            if (!r)
                return r.error();
        }
        EpisodeStats s;
        s.episode = e + 1;
        s.decisions = int64_t(buffer.decisions());
        s.epsilon = 0;
        // Agreement before training on the episode: does the network rank the teacher's row first?
        std::vector<float> q;
        int64_t agree = 0;
        for (std::size_t d = 0; d < buffer.decisions(); ++d) {
            if (Status st = net.score(buffer.rows(d), buffer.size(d), kFeatureCount, q); !st)
                return st.error();
            agree += std::max_element(q.begin(), q.end()) == q.begin() ? 1 : 0;
        }
        s.episodeReturn = buffer.decisions() ? double(agree) / double(buffer.decisions()) : 0;
        // Ranking steps over the episode's decisions in a seeded random order.
        std::vector<std::size_t> idx(buffer.decisions());
        std::iota(idx.begin(), idx.end(), std::size_t(0));
        std::vector<float> rows;
        std::vector<int> sizes, chosen;
        double lossSum = 0;
        s.minLoss = 1e300;
        s.maxLoss = -1e300;
        const std::size_t batch = std::size_t(std::max(1, o.batchSize));
        for (int pass = 0; pass < kPasses; ++pass) {
            for (std::size_t i = idx.size(); i > 1; --i)
                std::swap(idx[i - 1], idx[std::size_t(order.below(uint64_t(i)))]);
            for (std::size_t from = 0; from < idx.size(); from += batch) {
                if (cancel.isCancelled())
                    return makeError(ErrorCode::Cancelled, "pre-training cancelled");
                rows.clear();
                sizes.clear();
                chosen.clear();
                for (std::size_t k = from; k < std::min(idx.size(), from + batch); ++k) {
                    const std::size_t d = idx[k];
                    rows.insert(rows.end(), buffer.rows(d), buffer.rows(d) + std::ptrdiff_t(buffer.size(d)) * kFeatureCount);
                    sizes.push_back(buffer.size(d));
                    chosen.push_back(0);
                }
                auto loss = (*learner)->rankStep(rows.data(), sizes.data(), chosen.data(), int(sizes.size()));
                if (!loss)
                    return makeError(loss.error().code, "pre-training episode " + std::to_string(e + 1) + ": " + loss.error().message);
                lossSum += *loss;
                s.minLoss = std::min(s.minLoss, *loss);
                s.maxLoss = std::max(s.maxLoss, *loss);
                ++s.gradientSteps;
                progress.report((double(e) + 0.5 + 0.5 * (double(pass) + double(from) / double(idx.size())) / kPasses) / double(o.episodes));
            }
        }
        s.meanLoss = s.gradientSteps ? lossSum / double(s.gradientSteps) : -1;
        if (!s.gradientSteps)
            s.minLoss = s.maxLoss = -1;
        s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
        s.stepsPerSecond = s.seconds > 0 ? double(s.decisions) / s.seconds : 0;
        report.decisions += s.decisions;
        report.episodes.push_back(s);
        if (onEpisode)
            onEpisode(s);
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.report(1.0);
    return report;
}

} // namespace schedlab::rl
