#pragma once
/// The FGD paper's fill experiment (docs/fill-experiment.md §1): inflate the pod list with seeded copies up to
/// `ratio` x cluster GPU capacity (or trim one that asks for more, as the authors do), shuffle, place each pod once in order (no departures, no
/// retries), and record GPU allocation and fragmentation at every 1 % of arrived GPU workload.
/// What the run records besides its summary and curve (decision log, heat, journal, state hashes)
/// is a Recording (recording.h), not an option of the experiment.

#include "base/progress.h"
#include "base/result.h"
#include "decision_log.h"
#include "recording.h"
#include "replay_observer.h"
#include "room_options.h"
#include "policy/placement_policy.h"
#include "trace/trace.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::sim {

/// The experiment: everything that decides the placements (a RunSpec stores it).
struct FillOptions {
    double ratio = 1.3; ///< stop inflating before the GPU request would exceed ratio x capacity
    /// A pod list asking for more than ratio x capacity loses seeded random pods until it asks for
    /// at most that (the FGD authors' tuneDownPods); false replays every pod (schedlab before 0.7).
    bool trimAboveRatio = true;
    uint64_t seed = 42;
    /// The FGD authors' simulator resolves ties by a seeded node order (see TieBreak::Order).
    policy::TieBreak tieBreak = policy::TieBreak::Order;
    int64_t maxPods = 0; ///< stop after this many pods (training windows); 0 = all
    /// Defragment on failure: a pod the policy cannot place has the smallest placed pod whose move
    /// to another node frees room for it moved there (PodMover); at most migrationBudget moves a
    /// run (0 = no limit). The decision log keeps one decision per pod (moves are counted only).
    Migration migration = Migration::None;
    int64_t migrationBudget = 0;
    // Incident replay. Decision k is the k-th pod (0-based); "the state at k" is the cluster
    // decision k saw, after decisions 0..k-1.
    /// Stop before decision k and return that state in FillResult::state (and no curve or heat).
    int64_t stopAt = -1;
    /// Counterfactual fork: from decision `at` on, `policy` places (same pods, same order; reset on
    /// the cluster of that moment). Not owned; nullptr = no fork. Never stored with a RunSpec.
    struct Fork {
        int64_t at = -1;
        policy::PlacementPolicy* policy = nullptr;
    } fork;
};

/// State after the first pod at which arrived workload reached `arrivedPct` (an integer percent).
struct FillPoint {
    int arrivedPct = 0;
    double arrivedExactPct = 0; ///< requested gpu-milli so far / total gpu-milli x 100
    double gpuAllocPct = 0; ///< allocated gpu-milli / total x 100
    double fragAmount = 0; ///< F, gpu-milli
    double fragRatePct = 0; ///< F / free gpu-milli x 100
    int64_t podsArrived = 0;
    int64_t podsFailed = 0;
};

struct FillResult {
    std::string policy;
    uint64_t seed = 0;
    double ratio = 0;
    int64_t originalPods = 0;
    int64_t pods = 0; ///< after trimming or inflation
    int64_t podsRemoved = 0; ///< by the trim (trimAboveRatio)
    double originalRequestPct = 0; ///< the pod list's GPU request / capacity x 100, before either
    int64_t placed = 0;
    int64_t failed = 0;
    int64_t failedGpuMilli = 0; ///< GPU request of the failed pods
    int64_t migrations = 0; ///< placed pods moved to make room (FillOptions::migration)
    double finalGpuAllocPct = 0;
    double finalFragRatePct = 0;
    double finalFragAmount = 0;
    double seconds = 0; ///< wall time of the placement loop
    uint64_t stateHash = 0; ///< of the final cluster state (determinism checks)
    std::vector<FillPoint> curve;
    NodeHeat heat; ///< x = arrived workload %; empty unless Recording::heat
    StateHashes stateHashes; ///< (k, hash of the state at k); Recording::hashEvery
    std::shared_ptr<const cluster::ClusterState> state; ///< the state at stopAt, when the run stopped there
    int64_t podIndexStopped = -1; ///< task index of decision stopAt (the pod it was about to place)
    DecisionLog decisions;
};

/// Runs one fill experiment. The trace needs nodes with GPUs and pods that ask for GPUs.
/// Pods are the trace's tasks ordered by job name (then id) before the seeded shuffle.
/// Records what `recording` asks for and tells `observers` (replay_observer.h) as it goes.
Result<FillResult> runFillExperiment(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const FillOptions& options, const Recording& recording, const Observers& observers = {}, ProgressFn progress = {},
    CancelToken cancel = {});
/// The same with the default Recording (decisions with 8 candidates, heat, hashes every 1000).
Result<FillResult> runFillExperiment(const trace::Trace& trace, policy::PlacementPolicy& policy,
    const FillOptions& options, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::sim
