#pragma once
/// The reward of the learned scheduler (docs/rl.md §2): a weighted sum of named terms plus a
/// tail-latency penalty. Weights are normalised to sum to 1 before use (the editor shows both).
///
/// Terms of one placement decision, each in [-1, 1]:
///  - balance: 1 - |cpu share - gpu share| of the chosen node after placing (cpu vs memory on
///    nodes without GPUs): rewards nodes whose resources stay usable together.
///  - packing: the chosen node's dominant share after placing (fuller nodes = tighter packing).
///  - success: +1 when the task was placed, -1 when it failed (fits nowhere).
///  - custom, one of: energy (-1 when the placement wakes an idle node), fragmentation
///    (-FGD delta in GPUs / 8, clipped), wait (-w / (w + target) of the task's wait).
/// Tail penalty (timed replay): once a task's wait w passes the p99 target T,
///    -scale x min(cap, exp(rate x (w - T) / T) - 1); zero below the target.
/// Room cost (timed replay, when the policy makes room for a unit that fits nowhere):
///    -roomCost x c, c = r / (r + T) for a migration with restart cost r seconds, h / (h + 1) for
///    evictions losing h GPU-hours; like the tail, not normalised.

#include "base/result.h"

#include <array>
#include <string>

namespace schedlab::rl {

enum class CustomTerm { Energy, Fragmentation, Wait };
const char* customTermName(CustomTerm t);

struct RewardConfig {
    double balance = 0.4, packing = 0.3, success = 0.2, custom = 0.1;
    CustomTerm customTerm = CustomTerm::Fragmentation;
    double p99TargetS = 600; ///< wait above which the tail penalty starts
    double tailScale = 1.0;
    double tailRate = 1.0;
    double tailCap = 10.0;
    double roomCost = 0.5; ///< weight of the room cost (printed by toString() when not 0.5)

    /// Weights divided by their sum (all zero -> all zero).
    std::array<double, 4> normalised() const;
    /// "balance=0.4,packing=0.3,success=0.2,custom=0.1[,customTerm=energy][,p99Target=600]...".
    std::string toString() const;
    /// Parses the toString() form (any subset of keys; others keep their value). Errors name the
    /// offending key or value; weights must be finite and >= 0, not all zero.
    static Result<RewardConfig> parse(const std::string& text, RewardConfig base);
    static Result<RewardConfig> parse(const std::string& text) { return parse(text, RewardConfig()); }
    /// "default" (the weights above), "latency-first", "packing-first".
    static Result<RewardConfig> preset(const std::string& name);
};

/// One decision's reward, by term (before weighting) and in total.
struct RewardBreakdown {
    double balance = 0, packing = 0, success = 0, custom = 0, tail = 0;
    double room = 0; ///< -c of the room cost (0 for placements)
    double total = 0;
};

/// Inputs of the terms, measured by the policy around the placement.
struct RewardInputs {
    bool placed = false;
    double balanceAfter = 0; ///< feature balance_after of the chosen node
    double dominantAfter = 0; ///< feature dominant_after
    bool wokeIdleNode = false;
    double fragDelta = 0; ///< feature frag_delta (GPUs / 8)
    double waitS = 0; ///< this task's wait so far (timed replay)
    bool waited = false; ///< the policy chose to hold the task (wait action): success 0, not -1
    double roomCost = 0; ///< c of the room cost, in [0, 1), when the placement made room first
};

RewardBreakdown computeReward(const RewardConfig& c, const RewardInputs& in);

} // namespace schedlab::rl
