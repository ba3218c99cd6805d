#pragma once
// Private to the torch module (core/rl/torch): the QNetwork made with libtorch and the functions
// the module's entry table points at. Nothing outside this folder includes it.

#include "rl/dqn_trainer.h"
#include "rl/q_network.h"

#include <memory>

namespace schedlab::rl {

struct QNetworkImpl; // q_network_impl.h, torch inside

class TorchQNetwork final : public QNetwork {
public:
    static std::unique_ptr<TorchQNetwork> create(uint64_t seed, Shape shape);
    static Result<std::unique_ptr<QNetwork>> load(const std::string& path);
    ~TorchQNetwork() override;

    Status save(const std::string& path) const override;
    Status exportTorchScript(const std::string& path) const override;
    Status score(const float* rows, int n, int features, std::vector<float>& out) override;
    std::string describe() const override;
    Result<std::unique_ptr<Scorer>> clone() const override;
    std::unique_ptr<QNetwork> cloneNetwork() const override;
    void copyFrom(const QNetwork& other) override;
    void mixWith(const QNetwork& other, double t) override;
    bool allFinite() const override;
    double weightSum() const override;
    uint64_t weightHash() const override;
    QNetworkImpl& impl() { return *m; }
    const QNetworkImpl& impl() const { return *m; }

private:
    TorchQNetwork(std::unique_ptr<QNetworkImpl> impl, Shape shape);
    std::unique_ptr<QNetworkImpl> m;
};

Result<std::unique_ptr<Scorer>> loadTorchScriptModule(const std::string& path, int features);

Result<std::unique_ptr<QLearner>> createTorchLearner(QNetwork& net, double learningRate, double gradClip);

Result<TrainReport> trainWithTorch(QNetwork& net, const trace::Trace& trace, const TrainOptions& options,
    const std::function<void(const EpisodeStats&)>& onEpisode, ProgressFn progress, CancelToken cancel);

} // namespace schedlab::rl
