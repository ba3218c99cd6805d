#include "recorders.h"

namespace schedlab::sim {

Recorders::Recorders(const Recording& recording, int nodes, Hashes hashes, const Observers& others)
    : m_all(others)
{
    if (recording.journal)
        m_all.push_back(recording.journal);
    if (recording.heat)
        m_all.push_back(&m_heat.emplace(nodes));
    if (recording.hashEvery > 0 && hashes == Hashes::Live)
        m_all.push_back(&m_hashes.emplace(recording.hashEvery));
    else if (recording.hashEvery > 0 && recording.journal)
        m_all.push_back(&m_hashes.emplace(recording.hashEvery, *recording.journal));
}

void Recorders::takeInto(NodeHeat& heat, StateHashes& hashes)
{
    if (m_heat)
        heat = m_heat->take();
    if (m_hashes)
        hashes = m_hashes->take();
}

} // namespace schedlab::sim
