#pragma once
/// The hash of the state decision k saw, for every k > 0 that is a multiple of `every`, as
/// (k, ClusterState::stateHash()) in increasing k: what incident replay checks a rebuilt state
/// against (incident/run_index.h). An observer of a run (replay_observer.h; Recording::hashEvery
/// adds it), in one of two ways, by what the engine's decisions are:
///  - live (the fill experiment): decision k is the k-th decided event, and its cluster the state
///    it saw; a run stopped before decision k (FillOptions::stopAt) hashes the state it stopped
///    at as well, so no journal and no decision log are needed;
///  - from a journal (the timed replay, whose logged decisions are not its decided events: waits
///    logged once, evictions, moves): at the end each logged decision k's state is rebuilt from the
///    journal at its statePos. Needs the decision log and the journal of the same run.

#include "replay_observer.h"
#include "state_journal.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace schedlab::sim {

using StateHashes = std::vector<std::pair<int64_t, uint64_t>>;

class StateHashRecorder : public ReplayObserver {
public:
    /// Live; `every` <= 0 records nothing.
    explicit StateHashRecorder(int64_t every)
        : m_every(every)
    {
    }
    /// From `journal` (not owned; it observes the same run); `every` <= 0 records nothing.
    StateHashRecorder(int64_t every, const StateJournal& journal)
        : m_every(every)
        , m_journal(&journal)
    {
    }

    void decided(const DecidedEvent& e) override;
    void finished(const FinishedEvent& e) override;
    StateHashes take() { return std::move(m_hashes); }

private:
    bool due(int64_t k) const { return m_every > 0 && k > 0 && k % m_every == 0; }
    int64_t m_every;
    const StateJournal* m_journal = nullptr;
    int64_t m_decided = 0; ///< live: decided events so far
    StateHashes m_hashes;
};

} // namespace schedlab::sim
