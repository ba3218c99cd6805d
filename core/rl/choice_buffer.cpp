#include "choice_buffer.h"

#include <algorithm>

namespace schedlab::rl {

ChoiceBuffer::ChoiceBuffer(uint64_t seed, int maxCandidates)
    : m_rng(seed)
    , m_max(std::max(1, maxCandidates))
{
}

void ChoiceBuffer::addChoice(const float* rows, int n, int chosen)
{
    m_others.clear();
    for (int i = 0; i < n; ++i)
        if (i != chosen)
            m_others.push_back(i);
    const int keep = std::min<int>(int(m_others.size()), m_max - 1);
    for (int i = 0; i < keep; ++i) // a partial Fisher-Yates draw
        std::swap(m_others[std::size_t(i)],
            m_others[std::size_t(i) + std::size_t(m_rng.below(uint64_t(m_others.size()) - uint64_t(i)))]);
    m_offset.push_back(m_rows.size());
    m_size.push_back(1 + keep);
    append(rows + std::ptrdiff_t(chosen) * kFeatureCount);
    for (int i = 0; i < keep; ++i)
        append(rows + std::ptrdiff_t(m_others[std::size_t(i)]) * kFeatureCount);
}

void ChoiceBuffer::clear()
{
    m_rows.clear();
    m_offset.clear();
    m_size.clear();
}

} // namespace schedlab::rl
