#pragma once
/// Pre-training from a teacher (round 0 of a lineage): the learned policy plays episodes (fill
/// experiments with fresh seeds, or timed replays of the training window) in which a heuristic
/// decides (FGD, BestFit, k8s-default, any name of the registry); at every decision the
/// candidates' feature rows and the teacher's choice among them are kept (the choice plus at most
/// `kImitationCandidates - 1` others drawn at random), and after each episode the network takes
/// Adam steps on a listwise ranking loss over them (QLearner::rankStep: softmax cross-entropy of
/// the Q-values of a decision's candidates toward the teacher's), batches of `batchSize`
/// decisions in a seeded random order, twice over the episode. The DQN rounds then fine-tune from
/// the result (fine_tune.h, RoundOptions::teacher). Deterministic for a seed.
///
/// EpisodeStats of a teacher round: meanLoss / minLoss / maxLoss over the episode's steps;
/// episodeReturn = agreement, the share of the episode's decisions where the network (before
/// training on them) ranks the teacher's choice first; decisions, gradientSteps, seconds.

#include "dqn_trainer.h"

#include <string>

namespace schedlab::rl {

inline constexpr int kImitationCandidates = 64;

/// Trains `net` in place toward `teacher`'s choices. Errors: an unknown teacher (by name), a
/// diverging loss, cancel (net then holds partial updates: callers train a copy, as runRound does).
Result<TrainReport> imitate(QNetwork& net, const trace::Trace& trace, const TrainOptions& options, const std::string& teacher,
    const std::function<void(const EpisodeStats&)>& onEpisode = {}, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::rl
