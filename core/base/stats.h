#pragma once
/// Order statistics with percentiles by the nearest-rank method (the smallest value with at least
/// p % of the sample at or below it), as every report of schedlab states.

#include <cstdint>
#include <vector>

namespace schedlab {

/// count 0 = empty sample (all fields 0).
struct Distribution {
    int64_t count = 0;
    double min = 0, mean = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};

/// Builds a Distribution; sorts `values` in place.
Distribution distributionOf(std::vector<double>& values);

/// Nearest-rank percentile of a sorted, non-empty sample; p in (0, 100].
double nearestRank(const std::vector<double>& sorted, double p);

} // namespace schedlab
