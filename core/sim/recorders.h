#pragma once
// Private to the run functions (fill_experiment.cpp, timed_replay.cpp): the observers a Recording
// (recording.h) adds to a run. Not part of the module's interface.

#include "recording.h"

#include <optional>

namespace schedlab::sim {

/// The observers one run's Recording asks for, next to the caller's; their products go into the
/// result once the run is over. Lives as long as the run.
class Recorders {
public:
    /// Hashes: StateHashRecorder live (fill) or from the journal (timed; none without one).
    enum class Hashes { Live, FromJournal };
    Recorders(const Recording& recording, int nodes, Hashes hashes, const Observers& others);
    Recorders(const Recorders&) = delete; // m_all points into it
    Recorders& operator=(const Recorders&) = delete;
    /// The caller's observers, then the journal, the heat and the hash recorders.
    const Observers& observers() const { return m_all; }
    /// Moves the recorders' products into a result's fields.
    void takeInto(NodeHeat& heat, StateHashes& hashes);

private:
    std::optional<NodeHeatRecorder> m_heat;
    std::optional<StateHashRecorder> m_hashes;
    Observers m_all;
};

} // namespace schedlab::sim
