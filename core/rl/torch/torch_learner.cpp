// QNetwork::learner in the torch module: Adam over a TorchQNetwork's weights, one Huber-loss step
// toward given targets at a time (q_network.h).

#include "torch_module_impl.h"

#include "q_network_impl.h"

#include <cmath>

namespace schedlab::rl {

namespace {

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
            auto& net = m_net.impl().net;
            const torch::Tensor loss = torch::smooth_l1_loss(net->forward(x), y);
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
        } catch (const c10::Error& e) {
            return makeError(ErrorCode::Internal, std::string("libtorch: ") + e.what_without_backtrace());
        }
    }

private:
    TorchQNetwork& m_net;
    torch::optim::Adam m_adam;
    double m_clip;
    int64_t m_steps = 0;
};

} // namespace

Result<std::unique_ptr<QLearner>> createTorchLearner(QNetwork& net, double learningRate, double gradClip)
{
    auto* torchNet = dynamic_cast<TorchQNetwork*>(&net);
    if (!torchNet)
        return makeError(ErrorCode::Invalid, "a learner needs a Q-network made by the torch module");
    configureTorchRuntime();
    return std::unique_ptr<QLearner>(std::make_unique<TorchLearner>(*torchNet, learningRate, gradClip));
}

} // namespace schedlab::rl
