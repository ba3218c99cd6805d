// QNetwork::learner in the torch module: Adam over a TorchQNetwork's weights, one step at a time:
// Huber loss toward given targets, or a listwise ranking loss toward a teacher's choices (q_network.h).

#include "torch_module_impl.h"

#include "q_network_impl.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace schedlab::rl {

namespace {

/// Q of each decision's rows side by side, [groups, widest]: decision g owns groupSizes[g]
/// consecutive rows of `rows`; the padding of shorter decisions holds -1e9 (never the best, no
/// weight in a softmax). The index tensor is copied: the graph keeps it for the backward pass.
torch::Tensor groupedQ(Mlp& net, const float* rows, const int* groupSizes, int groups, int features)
{
    int64_t n = 0, widest = 0;
    for (int g = 0; g < groups; ++g) {
        n += groupSizes[g];
        widest = std::max<int64_t>(widest, groupSizes[g]);
    }
    std::vector<int64_t> index(std::size_t(groups * widest), n); // n: the extra -1e9 entry
    int64_t at = 0;
    for (int g = 0; g < groups; ++g) {
        for (int k = 0; k < groupSizes[g]; ++k)
            index[std::size_t(g * widest + k)] = at + k;
        at += groupSizes[g];
    }
    const torch::Tensor x = torch::from_blob(const_cast<float*>(rows), { n, features }, torch::kFloat32);
    const torch::Tensor q = torch::cat({ net->forward(x).reshape({ n }), torch::full({ 1 }, -1e9) });
    const torch::Tensor idx = torch::from_blob(index.data(), { groups * widest }, torch::kInt64).clone();
    return q.index_select(0, idx).view({ groups, widest });
}

/// The listwise ranking loss of imitation.h: softmax cross-entropy toward chosen[g] per decision.
torch::Tensor rankingLoss(Mlp& net, const float* rows, const int* groupSizes, const int* chosen, int groups, int features)
{
    std::vector<int64_t> target(chosen, chosen + groups);
    const torch::Tensor y = torch::from_blob(target.data(), { groups }, torch::kInt64).clone();
    return torch::nn::functional::cross_entropy(groupedQ(net, rows, groupSizes, groups, features), y);
}

class TorchLearner final : public QLearner {
public:
    TorchLearner(TorchQNetwork& net, double learningRate, double gradClip)
        : m_net(net)
        , m_adam(net.impl().net->parameters(), torch::optim::AdamOptions(learningRate))
        , m_clip(gradClip)
    {
    }
    Result<double> step(const float* rows, const float* targets, int n) override
    {
        const int f = m_net.shape().features;
        try {
            // from_blob does not copy; the tensors live only within this call.
            const torch::Tensor x = torch::from_blob(const_cast<float*>(rows), { n, f }, torch::kFloat32);
            const torch::Tensor y = torch::from_blob(const_cast<float*>(targets), { n }, torch::kFloat32);
            return descend(torch::smooth_l1_loss(m_net.impl().net->forward(x), y));
        } catch (const c10::Error& e) {
            return makeError(ErrorCode::Internal, std::string("libtorch: ") + e.what_without_backtrace());
        }
    }
    Result<double> rankStep(const float* rows, const int* groupSizes, const int* chosen, int groups) override
    {
        const int f = m_net.shape().features;
        int widest = 0;
        for (int g = 0; g < groups; ++g)
            widest = std::max(widest, groupSizes[g]);
        if (groups <= 0 || widest <= 0)
            return makeError(ErrorCode::Invalid, "a ranking step needs at least one decision with candidates");
        try {
            return descend(rankingLoss(m_net.impl().net, rows, groupSizes, chosen, groups, f));
        } catch (const c10::Error& e) {
            return makeError(ErrorCode::Internal, std::string("libtorch: ") + e.what_without_backtrace());
        }
    }

private:
    /// One Adam step on `loss` with the gradient clipped; a NaN loss or weight is an error.
    Result<double> descend(const torch::Tensor& loss)
    {
        auto& net = m_net.impl().net;
        m_adam.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(net->parameters(), m_clip);
        m_adam.step();
        const double l = loss.item<double>();
        ++m_steps;
        if (!std::isfinite(l) || (m_steps % 50 == 0 && !m_net.allFinite()))
            return makeError(ErrorCode::Invalid,
                "training diverged at gradient step " + std::to_string(m_steps)
                    + (std::isfinite(l) ? ": a weight became NaN or infinite" : ": the loss is " + std::to_string(l))
                    + " (try a lower learning rate)");
        return l;
    }

    TorchQNetwork& m_net;
    torch::optim::Adam m_adam;
    double m_clip;
    int64_t m_steps = 0;
};

} // namespace

torch::Tensor marginLoss(Mlp& net, const float* rows, const int* groupSizes, int groups, int features, double margin)
{
    const torch::Tensor q = groupedQ(net, rows, groupSizes, groups, features);
    const int64_t widest = q.size(1);
    // + margin on every column but the chosen one (the padding stays far below)
    std::vector<float> plus(static_cast<std::size_t>(widest), static_cast<float>(margin));
    plus[0] = 0.0f;
    const torch::Tensor bonus = torch::from_blob(plus.data(), { 1, widest }, torch::kFloat32).clone();
    return (std::get<0>((q + bonus).max(1)) - q.select(1, 0)).mean();
}

Result<std::unique_ptr<QLearner>> createTorchLearner(QNetwork& net, double learningRate, double gradClip)
{
    auto* torchNet = dynamic_cast<TorchQNetwork*>(&net);
    if (!torchNet)
        return makeError(ErrorCode::Invalid, "a learner needs a Q-network made by the torch module");
    configureTorchRuntime();
    return std::unique_ptr<QLearner>(std::make_unique<TorchLearner>(*torchNet, learningRate, gradClip));
}

} // namespace schedlab::rl
