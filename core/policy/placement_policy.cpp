#include "placement_policy.h"

#include <algorithm>

namespace schedlab::policy {

namespace {
// Its own stream, so drawing the node order does not move any other draw of the run.
constexpr uint64_t kOrderStream = 0x2545F4914F6CDD1Dull;
} // namespace

const char* tieBreakName(TieBreak t)
{
    switch (t) {
    case TieBreak::Random:
        return "random";
    case TieBreak::First:
        return "first";
    case TieBreak::Order:
        return "order";
    }
    return "random";
}

bool parseTieBreak(const std::string& s, TieBreak& out)
{
    for (TieBreak t : kTieBreaks)
        if (s == tieBreakName(t)) {
            out = t;
            return true;
        }
    return false;
}

void ScoringPolicy::candidateNodes(const cluster::ClusterState& cluster, const trace::TaskRequest&, std::vector<int>& out)
{
    out.resize(std::size_t(cluster.nodeCount()));
    for (int i = 0; i < cluster.nodeCount(); ++i)
        out[std::size_t(i)] = i;
}

std::size_t ScoringPolicy::ClassKeyHash::operator()(const ClassKey& k) const
{
    uint64_t h = uint64_t(k.cpu) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(k.mem) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= (uint64_t(uint32_t(k.numGpu)) << 32 | uint32_t(k.gpuMilli)) + (h << 6) + (h >> 2);
    h ^= uint64_t(k.mask) + (h << 6) + (h >> 2);
    return std::size_t(h);
}

void ScoringPolicy::reset(const PolicyContext& ctx, const cluster::ClusterState& cluster)
{
    m_cache.clear();
    m_cached = 0;
    m_rank.clear();
    if (m_tieBreak == TieBreak::Order) {
        // A uniformly random node order (Fisher-Yates) from the run's seed; rank = position.
        std::vector<uint32_t> order(std::size_t(cluster.nodeCount()));
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = uint32_t(i);
        Rng rng(m_tieSeed ^ kOrderStream);
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[rng.below(i)]);
        m_rank.resize(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            m_rank[order[i]] = uint32_t(i);
    }
    resetPolicy(ctx, cluster);
}

std::vector<ScoringPolicy::CacheEntry>* ScoringPolicy::cacheFor(const trace::TaskRequest& r, int nodes)
{
    const ClassKey key { r.cpuMilli, r.memMiB, r.numGpu, r.gpuMilli, r.gpuModelMask };
    auto it = m_cache.find(key);
    if (it != m_cache.end())
        return &it->second;
    if (m_cached + std::size_t(nodes) > kCacheBudget) {
        m_cache.clear(); // simple and bounded: many request classes on a big cluster start over
        m_cached = 0;
    }
    m_cached += std::size_t(nodes);
    return &m_cache.emplace(key, std::vector<CacheEntry>(std::size_t(nodes))).first->second;
}

PlacementDecision ScoringPolicy::place(const cluster::ClusterState& cluster, const PlacementRequest& req, Rng& rng, int topK)
{
    if (topK <= 0 && m_shapeIndexUse != ShapeIndexUse::Never && scoresByShape())
        if (const cluster::FreeShapeIndex* index = cluster.freeShapes(); index && useShapes(*index, cluster.nodeCount()))
            return placeByShape(cluster, *index, req.request, rng);
    PlacementDecision d;
    candidateNodes(cluster, req.request, m_nodes);
    m_scored.clear();
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::vector<CacheEntry>* cache = cacheable() ? cacheFor(req.request, cluster.nodeCount()) : nullptr;
    for (int n : m_nodes) {
        uint64_t mask = 0;
        int64_t raw = 0;
        if (cache) {
            CacheEntry& e = (*cache)[std::size_t(n)];
            if (e.version != cluster.version(n)) {
                e.version = cluster.version(n);
                e.feasible = cluster.fits(n, req.request);
                if (e.feasible)
                    e.raw = rawScore(cluster, n, req.request, rng, e.mask);
            }
            if (!e.feasible)
                continue;
            raw = e.raw;
            mask = e.mask;
        } else {
            if (!cluster.fits(n, req.request))
                continue;
            raw = rawScore(cluster, n, req.request, rng, mask);
        }
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
    // Highest score wins. Ties: uniformly at random (reservoir sampling keeps one of k with 1/k),
    // the first in node order, or the first in the run's node order.
    const bool byRank = m_tieBreak == TieBreak::Order && m_rank.size() == std::size_t(cluster.nodeCount());
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
            if (m_tieBreak == TieBreak::Random) {
                if (rng.below(uint64_t(ties)) == 0)
                    chosen = int(i);
            } else if (byRank
                && m_rank[std::size_t(m_scored[i].node)] < m_rank[std::size_t(m_scored[std::size_t(chosen)].node)]) {
                chosen = int(i);
            }
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
