#pragma once
/// The DQN transition being built while a replay runs: the learned policy sets the row of the
/// action it chose (and hands the previous transition to its Learner when the next decision's
/// rows are known); the reward observer of the run (reward_observer.h) sets the reward of that
/// action when the engine reports the decision. Neither owns it; training does.

#include "features.h"

#include <optional>

namespace schedlab::rl {

struct PendingTransition {
    std::optional<FeatureRow> row; ///< the chosen action's features; empty before the first decision
    float reward = 0;
};

} // namespace schedlab::rl
