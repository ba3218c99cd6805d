// The torch module's only exported symbol (torch_module.h): its table of entry points.

#include "torch_module_impl.h"

#include "rl/torch_module.h"

namespace {

schedlab::Result<std::unique_ptr<schedlab::rl::QNetwork>> createNetwork(uint64_t seed, schedlab::rl::QNetwork::Shape shape)
{
    return std::unique_ptr<schedlab::rl::QNetwork>(schedlab::rl::TorchQNetwork::create(seed, shape));
}

} // namespace

extern "C" __attribute__((visibility("default"))) const schedlab::rl::TorchModuleApi* schedlab_torch_module_api()
{
    static const schedlab::rl::TorchModuleApi api = [] {
        schedlab::rl::TorchModuleApi a;
        a.abi = schedlab::rl::torchModuleAbi();
        a.createNetwork = &createNetwork;
        a.loadNetwork = &schedlab::rl::TorchQNetwork::load;
        a.loadTorchScript = &schedlab::rl::loadTorchScriptModule;
        a.train = &schedlab::rl::trainWithTorch;
        a.createLearner = &schedlab::rl::createTorchLearner;
        return a;
    }();
    return &api;
}
