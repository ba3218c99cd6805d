#pragma once
/// The learned scorer: one shared MLP (features -> 64 -> 32 -> 1, ReLU) that maps each
/// candidate's feature row (features.h) to a Q-value. libtorch stays behind this pimpl.
///
/// Checkpoint file (`.slq`): a libtorch archive with the layer tensors and a `meta` tensor
/// [magic, format version, features, hidden1, hidden2]. save() writes a temporary file, syncs it
/// and renames it over the target, so a crash never leaves half a checkpoint. load() refuses
/// files that are not checkpoints, have another shape, or hold NaN/inf weights, naming the file.

#include "scorer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace schedlab::rl {

struct QNetworkImpl; // q_network_impl.h, torch inside

class QNetwork final : public Scorer {
public:
    struct Shape {
        int features = 16;
        int hidden1 = 64;
        int hidden2 = 32;
        bool operator==(const Shape&) const = default;
    };
    /// A freshly initialised network (deterministic for a seed).
    static std::unique_ptr<QNetwork> create(uint64_t seed, Shape shape);
    static std::unique_ptr<QNetwork> create(uint64_t seed) { return create(seed, Shape()); }
    static Result<std::unique_ptr<QNetwork>> load(const std::string& path);
    ~QNetwork() override;

    Status save(const std::string& path) const;
    /// Writes a TorchScript module with the documented signature (scorer.h).
    Status exportTorchScript(const std::string& path) const;
    Status score(const float* rows, int n, int features, std::vector<float>& out) override;
    std::string describe() const override;
    Result<std::unique_ptr<Scorer>> clone() const override;
    std::unique_ptr<QNetwork> cloneNetwork() const;
    /// Copies the weights of `other` (same shape): the DQN target network sync.
    void copyFrom(const QNetwork& other);
    bool allFinite() const;
    Shape shape() const { return m_shape; }
    /// Sum of all weights (tests compare runs for determinism with it and a hash).
    double weightSum() const;
    uint64_t weightHash() const;
    QNetworkImpl& impl() { return *m; }
    const QNetworkImpl& impl() const { return *m; }

private:
    QNetwork(std::unique_ptr<QNetworkImpl> impl, Shape shape);
    std::unique_ptr<QNetworkImpl> m;
    Shape m_shape;
};

} // namespace schedlab::rl
