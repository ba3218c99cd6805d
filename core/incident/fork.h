#pragma once
/// Counterfactual fork of an indexed run: the same trace, options and RNG streams, the run's
/// policy up to decision k and policy B from there (fill: from pod k exactly; timed: from the
/// scheduling pass of decision k's time, so decisions made earlier in that same pass are taken
/// by B too), with the deltas of its metrics against the original.

#include "run_index.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::incident {

struct ForkDelta {
    std::string id; ///< stable key for JSON, e.g. "p99WaitS"
    std::string metric; ///< e.g. "p99 wait (s)"
    double original = 0, fork = 0;
    double delta() const { return fork - original; }
};

struct ForkResult {
    int64_t index = -1; ///< decision forked at
    double forkX = 0; ///< its time (timed: s; fill: pod number)
    std::string policy; ///< B
    std::shared_ptr<const sim::FillResult> fill;
    std::shared_ptr<const sim::TimedResult> timed;
    std::vector<ForkDelta> deltas;
};

/// `window` > 0 limits the comparison (timed: seconds after the fork, series means; fill: pods
/// after the fork, where the fork also stops). Errors: k out of range, unknown policy, replay
/// errors, cancellation.
Result<ForkResult> forkRun(const RunIndex& index, int64_t k, const std::string& policyB, double window = 0,
    ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::incident
