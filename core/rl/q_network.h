#pragma once
/// The learned scorer: one shared MLP (features -> 64 -> 32 -> 1, ReLU) that maps each
/// candidate's feature row (features.h) to a Q-value. libtorch stays out of this header: the
/// implementation lives in the torch module (torch_module.h), loaded on first use, so binaries and
/// code paths that never touch a model never load libtorch.
///
/// Checkpoint file (`.slq`): a libtorch archive with the layer tensors, a `meta` tensor
/// [magic, format version, features, hidden1, hidden2] and, when recorded, `preselect` [above, top]. save() writes a temporary file, syncs it
/// and renames it over the target, so a crash never leaves half a checkpoint. load() refuses
/// files that are not checkpoints, have another shape, or hold NaN/inf weights, naming the file.

#include "scorer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace schedlab::rl {

class QNetwork : public Scorer {
public:
    struct Shape {
        int features = 16;
        int hidden1 = 64;
        int hidden2 = 32;
        bool operator==(const Shape&) const = default;
    };
    /// A freshly initialised network (deterministic for a seed). Fails only when the torch module
    /// cannot be loaded (the error says which file and why).
    static Result<std::unique_ptr<QNetwork>> create(uint64_t seed, Shape shape);
    static Result<std::unique_ptr<QNetwork>> create(uint64_t seed) { return create(seed, Shape()); }
    static Result<std::unique_ptr<QNetwork>> load(const std::string& path);
    ~QNetwork() override = default;

    virtual Status save(const std::string& path) const = 0;
    /// Writes a TorchScript module with the documented signature (scorer.h).
    virtual Status exportTorchScript(const std::string& path) const = 0;
    virtual std::unique_ptr<QNetwork> cloneNetwork() const = 0;
    /// Copies the weights of `other` (same shape, also made by the torch module): the DQN target
    /// network sync.
    virtual void copyFrom(const QNetwork& other) = 0;
    /// Moves every weight toward `other`'s (same shape, made by the torch module): w <- (1 - t) w +
    /// t w_other. Interpolating a fine-tuned network with the one it started from is WiSE-FT
    /// (Wortsman et al. 2022): it keeps much of the fine-tuning's gain where it trained and much of
    /// the start's robustness elsewhere.
    virtual void mixWith(const QNetwork& other, double t) = 0;
    virtual bool allFinite() const = 0;
    Shape shape() const { return m_shape; }
    /// The candidate preselection the network was trained with (LearnedOptions' preselectAbove /
    /// preselectTop), kept in the checkpoint (an entry "preselect" older builds ignore) so a replay
    /// of it ranks the same candidates as the round's evaluation did; 0 = not recorded.
    struct Preselection {
        int above = 0, top = 0;
    };
    Preselection preselection() const { return m_preselect; }
    void setPreselection(Preselection p) { m_preselect = p; }
    /// The skip action it was trained with (LearnedOptions::skip): at most this many skips in a
    /// row; 0 = none. Kept in the checkpoint (an entry "skip" older builds ignore).
    int skipWaits() const { return m_skipWaits; }
    void setSkipWaits(int n) { m_skipWaits = n; }
    /// Sum of all weights (tests compare runs for determinism with it and a hash).
    virtual double weightSum() const = 0;
    virtual uint64_t weightHash() const = 0;

    /// An optimiser over this network's weights for training outside the placement trainer (the
    /// autoscaling DQN, core/autoscale): Adam at `learningRate`, Huber loss, gradient-norm
    /// clipping at `gradClip`. The network must outlive it.
    Result<std::unique_ptr<class QLearner>> learner(double learningRate, double gradClip);

protected:
    explicit QNetwork(Shape shape)
        : m_shape(shape)
    {
    }
    Shape m_shape;
    Preselection m_preselect;
    int m_skipWaits = 0;
};

/// One gradient step at a time: Q(rows) toward `targets` (QNetwork::learner).
class QLearner {
public:
    virtual ~QLearner() = default;
    /// `n` rows of the network's feature count (row-major) and their targets; returns the loss.
    /// A NaN or infinite loss, or weights that became so, is an error (stop training then).
    virtual Result<double> step(const float* rows, const float* targets, int n) = 0;
    /// Imitation of a teacher (a listwise ranking loss): `groups` decisions, decision g holding
    /// groupSizes[g] consecutive rows of which the teacher chose row chosen[g]; one step on the
    /// softmax cross-entropy of the Q-values over each decision's rows. Returns the loss; the
    /// same divergence errors as step().
    virtual Result<double> rankStep(const float* rows, const int* groupSizes, const int* chosen, int groups) = 0;
};

} // namespace schedlab::rl
