#include "windowed_percentile.h"

#include "base/stats.h"

#include <algorithm>
#include <cmath>

namespace schedlab::metrics {

double WindowedPercentile::at(double nowS)
{
    while (m_first < m_samples.size() && m_samples[m_first].startS <= nowS - m_window)
        ++m_first;
    m_buffer.clear();
    for (std::size_t i = m_first; i < m_samples.size() && m_samples[i].startS <= nowS; ++i)
        m_buffer.push_back(m_samples[i].waitS);
    if (m_buffer.empty())
        return -1;
    const auto k = std::size_t(std::ceil(m_percent / 100.0 * double(m_buffer.size())));
    const std::size_t idx = std::clamp<std::size_t>(k, 1, m_buffer.size()) - 1;
    std::nth_element(m_buffer.begin(), m_buffer.begin() + std::ptrdiff_t(idx), m_buffer.end());
    return m_buffer[idx];
}

} // namespace schedlab::metrics
