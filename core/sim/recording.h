#pragma once
/// What a run records (docs/model.md §3), apart from what defines the experiment (TimedOptions,
/// FillOptions, which a RunSpec stores). The decision log is written by the engine (which
/// decisions it holds is part of the replay's semantics); every other output is an observer of
/// the run's events (replay_observer.h) that runTimedReplay / runFillExperiment add for the
/// switches here (recorders.h) and whose product they put into the result (TimedResult /
/// FillResult::heat, ::stateHashes). A new output is a new observer: passed in `Observers` it
/// needs no switch here.

#include "node_heat.h"
#include "replay_observer.h"
#include "state_hashes.h"
#include "state_journal.h"

#include <cstdint>

namespace schedlab::sim {

struct Recording {
    /// The decision log (TimedResult / FillResult::decisions), written by the engine.
    bool decisions = true;
    int topK = 8; ///< candidates kept per logged decision; 0 = none
    bool heat = true; ///< per-node utilization at each sample (NodeHeatRecorder -> ::heat)
    /// Incident replay: every allocate and release goes to this journal (an observer of the run),
    /// and each logged decision's Decision::statePos points into it. Not owned; nullptr = none.
    StateJournal* journal = nullptr;
    /// The hash of the state decision k saw for every k that is a multiple (StateHashRecorder ->
    /// ::stateHashes); 0 = none. Timed replay: only with a journal and the decision log.
    int64_t hashEvery = 1000;

    /// Decisions carry Decision::statePos (else -1): there is a journal it points into.
    bool statePositions() const { return journal != nullptr; }
};

} // namespace schedlab::sim
