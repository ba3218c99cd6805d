#include "placement_policy.h"

#include <algorithm>

namespace schedlab::policy {

void ScoringPolicy::candidateNodes(const sim::ClusterState& cluster, const trace::TaskRequest&, std::vector<int>& out)
{
    out.resize(std::size_t(cluster.nodeCount()));
    for (int i = 0; i < cluster.nodeCount(); ++i)
        out[std::size_t(i)] = i;
}

PlacementDecision ScoringPolicy::place(const sim::ClusterState& cluster, const PlacementRequest& req, Rng& rng, int topK)
{
    PlacementDecision d;
    candidateNodes(cluster, req.request, m_nodes);
    m_scored.clear();
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int n : m_nodes) {
        if (!cluster.fits(n, req.request))
            continue;
        uint64_t mask = 0;
        const int64_t raw = rawScore(cluster, n, req.request, rng, mask);
        m_scored.push_back(Candidate { n, double(raw), double(raw), mask });
        lo = std::min(lo, raw);
        hi = std::max(hi, raw);
    }
    d.feasible = int32_t(m_scored.size());
    if (m_scored.empty())
        return d;
    if (normalise()) {
        const int64_t range = hi - lo;
        for (Candidate& c : m_scored)
            c.score = range == 0 ? 0.0 : double((int64_t(c.raw) - lo) * 100 / range);
    }
    // Highest score wins; ties uniformly at random (reservoir sampling keeps one of k with 1/k).
    double best = -1e300;
    int chosen = -1, ties = 0;
    for (std::size_t i = 0; i < m_scored.size(); ++i) {
        const double s = m_scored[i].score;
        if (s > best) {
            best = s;
            chosen = int(i);
            ties = 1;
        } else if (s == best) {
            ++ties;
            if (m_tieBreak == TieBreak::Random && rng.below(uint64_t(ties)) == 0)
                chosen = int(i);
        }
    }
    d.node = m_scored[std::size_t(chosen)].node;
    d.gpuMask = m_scored[std::size_t(chosen)].gpuMask;
    if (topK > 0) {
        // The chosen node first, then the best others (score descending, node ascending).
        std::swap(m_scored[0], m_scored[std::size_t(chosen)]);
        const std::size_t k = std::min<std::size_t>(std::size_t(topK), m_scored.size());
        std::partial_sort(m_scored.begin() + 1, m_scored.begin() + std::ptrdiff_t(k), m_scored.end(),
            [](const Candidate& a, const Candidate& b) { return a.score != b.score ? a.score > b.score : a.node < b.node; });
        d.top.assign(m_scored.begin(), m_scored.begin() + std::ptrdiff_t(k));
    }
    return d;
}

} // namespace schedlab::policy
