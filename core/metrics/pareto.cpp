// Pareto front by pairwise dominance (pareto.h).

#include "pareto.h"

#include <cmath>

namespace schedlab::metrics {

namespace {

bool valid(const std::vector<double>& p)
{
    for (double v : p)
        if (std::isnan(v))
            return false;
    return true;
}

/// a dominates b: no worse in every objective, better in one.
bool dominates(const std::vector<double>& a, const std::vector<double>& b, const std::vector<Sense>& senses)
{
    bool better = false;
    for (std::size_t k = 0; k < senses.size(); ++k) {
        const double da = senses[k] == Sense::Minimise ? a[k] : -a[k];
        const double db = senses[k] == Sense::Minimise ? b[k] : -b[k];
        if (da > db)
            return false;
        better = better || da < db;
    }
    return better;
}

} // namespace

std::vector<bool> paretoFront(const std::vector<std::vector<double>>& points, const std::vector<Sense>& senses)
{
    std::vector<bool> front(points.size(), false);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].size() != senses.size() || !valid(points[i]))
            continue;
        bool dominated = false;
        for (std::size_t j = 0; j < points.size() && !dominated; ++j)
            dominated = j != i && points[j].size() == senses.size() && valid(points[j]) && dominates(points[j], points[i], senses);
        front[i] = !dominated;
    }
    return front;
}

} // namespace schedlab::metrics
