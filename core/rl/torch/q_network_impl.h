#pragma once
// Private to core/rl .cpp files: the torch module behind QNetwork. Includes libtorch, with Qt's
// `slots` macro set aside (DEVELOPERS.md).

#pragma push_macro("slots")
#undef slots
#include <torch/torch.h>
#pragma pop_macro("slots")

namespace schedlab::rl {

struct MlpImpl : torch::nn::Module {
    MlpImpl(int features, int h1, int h2)
        : fc1(register_module("fc1", torch::nn::Linear(features, h1)))
        , fc2(register_module("fc2", torch::nn::Linear(h1, h2)))
        , fc3(register_module("fc3", torch::nn::Linear(h2, 1)))
    {
    }
    torch::Tensor forward(const torch::Tensor& x)
    {
        return fc3->forward(torch::relu(fc2->forward(torch::relu(fc1->forward(x))))).squeeze(1);
    }
    torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Mlp);

/// One thread for torch and OpenBLAS, heap-kept tensor blocks (see q_network.cpp). Idempotent.
void configureTorchRuntime();

struct QNetworkImpl {
    Mlp net;
};

torch::Tensor marginLoss(Mlp& net, const float* rows, const int* groupSizes, int groups, int features, double margin);

} // namespace schedlab::rl
