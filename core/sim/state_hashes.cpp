#include "state_hashes.h"

namespace schedlab::sim {

void StateHashRecorder::decided(const DecidedEvent& e)
{
    if (m_journal)
        return;
    if (due(m_decided))
        m_hashes.push_back({ m_decided, e.cluster.stateHash() });
    ++m_decided;
}

void StateHashRecorder::finished(const FinishedEvent& e)
{
    if (!m_journal) {
        // Stopped before decision k: the state it would have seen is the one the run ends on.
        if (e.stoppedBefore >= 0 && e.stoppedBefore == m_decided && due(m_decided))
            m_hashes.push_back({ m_decided, e.cluster.stateHash() });
        return;
    }
    if (m_every <= 0)
        return;
    const auto& ds = e.decisions.decisions();
    for (std::size_t k = std::size_t(m_every); k < ds.size(); k += std::size_t(m_every))
        m_hashes.push_back({ int64_t(k), m_journal->stateAt(ds[k].statePos)->stateHash() });
}

} // namespace schedlab::sim
