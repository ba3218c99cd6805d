#pragma once
/// p99 (nearest rank) of the waits of jobs started in a sliding window (docs/metrics.md §1). Starts must be
/// added in time order, as a replay produces them. Reads at non-decreasing times cost O(log n)
/// per start entering or leaving the window (two ordered halves, the lower one holding exactly
/// the nearest rank); a read at an earlier time rebuilds the window.

#include <cstdint>
#include <limits>
#include <set>
#include <vector>

namespace schedlab::metrics {

class WindowedPercentile {
public:
    explicit WindowedPercentile(double windowS, double percent = 99)
        : m_window(windowS)
        , m_percent(percent)
    {
    }
    void add(double startS, double waitS) { m_samples.push_back({ startS, waitS }); }
    /// Percentile of waits of jobs started in (nowS - window, nowS]; -1 when none started.
    double at(double nowS);

private:
    struct Sample {
        double startS, waitS;
    };
    double m_window, m_percent;
    std::vector<Sample> m_samples;
    std::size_t m_first = 0; ///< first sample possibly inside the window
    std::size_t m_next = 0; ///< first sample not yet in the halves
    double m_lastNow = -std::numeric_limits<double>::infinity();
    std::multiset<double> m_low, m_high; ///< every low <= every high; |low| = the rank read
    void insert(double v);
    void remove(double v);
};

} // namespace schedlab::metrics
