#pragma once
/// The Pareto front of a set of points over several objectives, each minimised or maximised: a
/// point is on the front when no other point is at least as good in every objective and better in
/// one. Used by the Sweeps view (p99 wait / fragmentation / utilisation of a sweep's cells).

#include <vector>

namespace schedlab::metrics {

enum class Sense { Minimise, Maximise };

/// front[i] is true when point i is not dominated. Every point has one value per objective
/// (points.size() x senses.size()); a point with a NaN value is never on the front and never
/// dominates. Equal points are all on the front. O(n^2 k).
std::vector<bool> paretoFront(const std::vector<std::vector<double>>& points, const std::vector<Sense>& senses);

} // namespace schedlab::metrics
