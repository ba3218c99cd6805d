#pragma once
/// Something that maps candidate feature rows to Q-values / scores, higher is better: our own
/// Q-network (q_network.h) or a TorchScript module from elsewhere (torchscript_scorer.h).
/// Implementations are not thread-safe; give each concurrent run its own copy.

#include "base/result.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::rl {

class Scorer {
public:
    virtual ~Scorer() = default;
    /// Scores `n` rows of `features` floats each (row-major) into out[0..n).
    virtual Status score(const float* rows, int n, int features, std::vector<float>& out) = 0;
    /// For logs and the GUI, e.g. "q-network 16-64-32-1" or "torchscript model.pt".
    virtual std::string describe() const = 0;
    /// An independent copy (for running several replays at once).
    virtual Result<std::unique_ptr<Scorer>> clone() const = 0;
};

/// Loads a TorchScript scorer: a scripted module whose forward takes a float tensor
/// [candidates, features] and returns [candidates] (or [candidates, 1]). It is checked once with a
/// probe input of the given feature count; errors name the file.
Result<std::unique_ptr<Scorer>> loadTorchScript(const std::string& path, int features);

} // namespace schedlab::rl
