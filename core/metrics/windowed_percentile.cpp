#include "windowed_percentile.h"

#include "base/stats.h"

#include <algorithm>
#include <cmath>

namespace schedlab::metrics {

void WindowedPercentile::insert(double v)
{
    if (!m_low.empty() && v <= *m_low.rbegin())
        m_low.insert(v);
    else
        m_high.insert(v);
}

void WindowedPercentile::remove(double v)
{
    // Every low value is <= every high one: a value at most the largest low one is a low one.
    if (!m_low.empty() && v <= *m_low.rbegin())
        m_low.erase(m_low.find(v));
    else
        m_high.erase(m_high.find(v));
}

double WindowedPercentile::at(double nowS)
{
    if (nowS < m_lastNow) { // back in time: start the window again
        m_low.clear();
        m_high.clear();
        m_first = 0;
        m_next = 0;
    }
    m_lastNow = nowS;
    while (m_first < m_samples.size() && m_samples[m_first].startS <= nowS - m_window) {
        if (m_first < m_next)
            remove(m_samples[m_first].waitS);
        ++m_first;
    }
    m_next = std::max(m_next, m_first);
    for (; m_next < m_samples.size() && m_samples[m_next].startS <= nowS; ++m_next)
        insert(m_samples[m_next].waitS);
    const std::size_t n = m_low.size() + m_high.size();
    if (n == 0)
        return -1;
    const auto k = std::size_t(std::ceil(m_percent / 100.0 * double(n)));
    const std::size_t rank = std::clamp<std::size_t>(k, 1, n);
    while (m_low.size() > rank) {
        m_high.insert(m_high.begin(), *m_low.rbegin());
        m_low.erase(std::prev(m_low.end()));
    }
    while (m_low.size() < rank) {
        m_low.insert(m_low.end(), *m_high.begin());
        m_high.erase(m_high.begin());
    }
    return *m_low.rbegin();
}

} // namespace schedlab::metrics
