#include "stats.h"

#include <algorithm>
#include <cmath>

namespace schedlab {

double nearestRank(const std::vector<double>& sorted, double p)
{
    const std::size_t n = sorted.size();
    const auto k = std::size_t(std::ceil(p / 100.0 * double(n)));
    return sorted[std::clamp<std::size_t>(k, 1, n) - 1];
}

Distribution distributionOf(std::vector<double>& values)
{
    Distribution d;
    d.count = int64_t(values.size());
    if (values.empty())
        return d;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    d.min = values.front();
    d.max = values.back();
    d.mean = sum / double(values.size());
    d.p50 = nearestRank(values, 50);
    d.p90 = nearestRank(values, 90);
    d.p95 = nearestRank(values, 95);
    d.p99 = nearestRank(values, 99);
    return d;
}

} // namespace schedlab
