#pragma once
/// Safety as constraints (docs/rl.md §5, a constrained MDP): budgets on what the learned policy may
/// cost, kept while the reward is optimised. Each budget has a Lagrange multiplier lambda >= 0:
/// every decision's reward is lowered by lambda x its cost (a start past the SLA, a migration, an
/// eviction), and after each training episode lambda moves by dual ascent,
///     lambda <- max(0, lambda + rate x (value - budget) / max(budget, 1)),
/// so it grows while the episode runs over budget and shrinks back to 0 while it stays under.
/// Hard masks (TimedOptions::migrationsPerHour, infeasible nodes) stay beside them.
///
/// Values (timed replay, over the replayed span, the same for training and evaluation):
///  - sla: units that started after waiting longer than slaS, % of units;
///  - migrations: migrations per hour of the replay's makespan;
///  - evictions: evictions (preemptions) per hour of the makespan.

#include "base/result.h"

#include <array>
#include <string>

namespace schedlab::sim {
struct TimedResult;
}

namespace schedlab::rl {

enum class ConstraintKind { Sla, Migrations, Evictions };
inline constexpr int kConstraintKinds = 3;
/// "sla", "migrations", "evictions".
const char* constraintName(ConstraintKind k);
/// The evaluation metric that holds a constraint's value: "slaViolationPct", "migrationsPerHour",
/// "evictionsPerHour".
const char* constraintMetric(ConstraintKind k);

struct Constraints {
    /// Budgets by kind; < 0 = no budget (the constraint is off).
    std::array<double, kConstraintKinds> budget { -1, -1, -1 };
    double slaS = 3600; ///< the wait past which a start violates the SLA (TimedOptions::defaultSlaS)
    double rate = 0.5; ///< dual-ascent step of the multipliers

    bool on(ConstraintKind k) const { return budget[std::size_t(k)] >= 0; }
    bool any() const { return on(ConstraintKind::Sla) || on(ConstraintKind::Migrations) || on(ConstraintKind::Evictions); }
    /// "sla=5,migrations=2,evictions=1,slaS=3600,rate=0.5" (budgets that are on, then the rest).
    std::string toString() const;
    /// Parses the toString() form (any subset of keys); errors name the key or value. Budgets must
    /// be finite and >= 0, slaS and rate > 0.
    static Result<Constraints> parse(const std::string& text);
};

/// A constraint's value for one replay (see the header comment); -1 when the replay has no span.
double constraintValue(ConstraintKind k, const sim::TimedResult& r);

/// One dual-ascent step (see the header comment).
double nextMultiplier(double lambda, double value, double budget, double rate);

/// Per episode: each constraint's value, budget and multiplier (the one the episode trained
/// with, before the update). Kinds that are off hold budget and value -1.
struct ConstraintTrace {
    std::array<double, kConstraintKinds> value { -1, -1, -1 };
    std::array<double, kConstraintKinds> budget { -1, -1, -1 };
    std::array<double, kConstraintKinds> multiplier { 0, 0, 0 };
};

} // namespace schedlab::rl
