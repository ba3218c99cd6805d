#pragma once
/// A fine-tune session: N rounds of the learned policy in a row (runRound), each continuing
/// from the previous round's checkpoint. The one seed rule for every front end: round i
/// (0-based) trains on episodes seeded `base.train.seed + i x episodes`, so rounds never repeat
/// an episode and the same session started from the CLI or the workbench trains on the same data.

#include "rl/fine_tune.h"
#include "store/project.h"

#include <functional>
#include <string>
#include <vector>

namespace schedlab::workflow {

struct SessionOptions {
    rl::RoundOptions base; ///< the first round's options (parent, train, window, baselines, seeds)
    int rounds = 1;
    /// Without a project: the checkpoint of a one-round session; rounds of a longer session go
    /// to "<out>.1", "<out>.2", ... With a project, base.checkpointDir/round-<id>.slq.
    std::string outCheckpoint;
    /// Non-empty: a pre-training round imitating this heuristic comes first (from a fresh network
    /// or base's parent), then `rounds` DQN rounds fine-tune from it; seeds as if it were round 0.
    std::string teacher;
};

/// One placement round (rl::trainRound) recorded in `project` (may be null: then nothing is
/// stored) the way every round is (round_recorder.h): the trace is added to the project when
/// `traceFiles` are given, the row names the parent, the window and the options, the checkpoint is
/// renamed into place as the row commits; a failed or cancelled round is marked so.
Result<rl::RoundResult> runRound(const trace::Trace& trace, const std::vector<std::string>& traceFiles, store::Project* project,
    const rl::RoundOptions& options, const std::function<void(const rl::EpisodeStats&)>& onEpisode = {}, ProgressFn progress = {},
    CancelToken cancel = {});

/// The constraints of a stored round whose evaluation ("learned", mean over seeds) ended over
/// budget, as "NAME VALUE > BUDGET" texts (rl::overBudget on the stored rows).
std::vector<std::string> overBudget(const std::vector<store::ConstraintPoint>& constraints, const std::vector<store::EvalValue>& eval);

/// Rounds the session trains: `rounds`, plus one with a teacher.
int sessionRounds(const SessionOptions& s);

/// The options of round i (0-based, the teacher's round first) of a session whose previous round ended at `parent`
/// (checkpoint path, round id; empty/-1 = the session's base parent).
rl::RoundOptions roundOptions(const SessionOptions& s, int i, const std::string& parentCheckpoint, int64_t parentRound, bool haveProject);

struct SessionCallbacks {
    std::function<void(int round, const rl::RoundOptions&)> roundStarted; ///< round is 1-based
    std::function<void(int round, const rl::EpisodeStats&)> episode;
    std::function<void(int round, const rl::RoundResult&)> roundFinished;
    std::function<void(double fraction)> progress; ///< over the whole session, 0..1
};

/// Runs the session; stops at the first failed or cancelled round (its error returned, earlier
/// rounds kept). Returns every round's result.
Result<std::vector<rl::RoundResult>> runSession(const trace::Trace& trace, const std::vector<std::string>& traceFiles,
    store::Project* project, const SessionOptions& options, const SessionCallbacks& callbacks = {}, CancelToken cancel = {});

/// "3" (a round of the project) or a checkpoint file -> (checkpoint path, round id or -1).
/// Errors: a round number without a project, an unknown round, a round that did not finish.
/// A round of the other kind (a replica policy's, mode "autoscale", for the placement agent, and the
/// reverse with `replicaPolicy`) is refused by name.
Result<std::pair<std::string, int64_t>> resolveParent(const std::string& parent, store::Project* project, bool replicaPolicy = false);

/// Checkpoint files in `dir` ("round-N.slq", and "*.slq.partial" left by a killed round) that no
/// finished round names: left by a round killed between writing its checkpoint and committing
/// its row. Sorted file names; empty when `dir` does not exist.
std::vector<std::string> orphanCheckpoints(const std::vector<store::RoundRow>& rounds, const std::string& dir);

} // namespace schedlab::workflow
