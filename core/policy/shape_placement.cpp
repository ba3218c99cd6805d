// ScoringPolicy's decision by free shape: one node scored per group of alike nodes
// (cluster::FreeShapeIndex), then the tie rule applied to the groups' node bit sets so the node
// chosen, the feasible count and every random draw are those of the scan over every node in
// placement_policy.cpp. Cost per decision: O(shapes x words) plus, with random ties, one draw per
// tie the scan would have drawn for (those draws are part of the run's random stream).

#include "placement_policy.h"

#include <algorithm>
#include <bit>

namespace schedlab::policy {
namespace {

/// First set bit at or after `from`; -1 if none.
int firstSetFrom(const uint64_t* bits, int words, int from)
{
    int w = from / 64;
    if (w >= words)
        return -1;
    uint64_t cur = bits[w] & (~uint64_t(0) << (from % 64));
    while (true) {
        if (cur)
            return w * 64 + std::countr_zero(cur);
        if (++w >= words)
            return -1;
        cur = bits[w];
    }
}

/// Set bits in [from, to).
int64_t countRange(const uint64_t* bits, int from, int to)
{
    int64_t count = 0;
    for (int i = from; i < to;) {
        const int w = i / 64, lo = i % 64, hi = std::min(64, lo + (to - i));
        uint64_t word = bits[w] >> lo;
        if (hi - lo < 64)
            word &= (uint64_t(1) << (hi - lo)) - 1;
        count += std::popcount(word);
        i += hi - lo;
    }
    return count;
}

/// The k-th set bit (k >= 1) after position `after`; whole words skipped by their counts.
int selectAfter(const uint64_t* bits, int words, int after, int64_t k)
{
    const int from = after + 1;
    for (int w = from / 64; w < words; ++w) {
        uint64_t word = w == from / 64 ? bits[w] & (~uint64_t(0) << (from % 64)) : bits[w];
        const int count = std::popcount(word);
        if (k > count) {
            k -= count;
            continue;
        }
        for (; k > 1; --k)
            word &= word - 1;
        return w * 64 + std::countr_zero(word);
    }
    return -1;
}

} // namespace

bool ScoringPolicy::useShapes(const cluster::FreeShapeIndex& index, int nodes) const
{
    if (m_shapeIndexUse == ShapeIndexUse::Always)
        return true;
    // Scoring a shape and walking its bit set should cost well under scanning every node.
    return int64_t(index.groups().size()) * (index.words() + 8) <= int64_t(nodes);
}

PlacementDecision ScoringPolicy::placeByShape(
    const cluster::ClusterState& cluster, const cluster::FreeShapeIndex& index, const trace::TaskRequest& r, Rng& rng)
{
    PlacementDecision d;
    m_shapeScores.clear();
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int32_t g : index.groups()) {
        const int n = index.representative(g);
        if (!cluster.fits(n, r))
            continue;
        uint64_t mask = 0;
        const int64_t raw = rawScore(cluster, n, r, rng, mask);
        m_shapeScores.push_back(ShapeScore { g, raw, double(raw) });
        d.feasible += index.size(g);
        lo = std::min(lo, raw);
        hi = std::max(hi, raw);
    }
    if (m_shapeScores.empty())
        return d;
    if (normalise()) {
        const int64_t range = hi - lo;
        for (ShapeScore& s : m_shapeScores)
            s.score = range == 0 ? 0.0 : double((s.raw - lo) * 100 / range);
    }
    // Score levels, best first; groups of one level next to each other.
    std::sort(m_shapeScores.begin(), m_shapeScores.end(), [](const ShapeScore& a, const ShapeScore& b) { return a.score > b.score; });
    const double best = m_shapeScores.front().score;
    int32_t chosen = -1;
    if (m_tieBreak == TieBreak::Random) {
        chosen = randomTie(index, cluster.nodeCount(), rng);
    } else {
        const bool byRank = m_tieBreak == TieBreak::Order && m_rank.size() == std::size_t(cluster.nodeCount());
        for (const ShapeScore& s : m_shapeScores) {
            if (s.score != best)
                break;
            if (!byRank) {
                const int32_t n = index.representative(s.group); // the lowest node of the group
                chosen = chosen < 0 ? n : std::min(chosen, n);
                continue;
            }
            const uint64_t* bits = index.members(s.group);
            for (int w = 0; w < index.words(); ++w)
                for (uint64_t m = bits[w]; m; m &= m - 1) {
                    const int32_t n = w * 64 + std::countr_zero(m);
                    if (chosen < 0 || m_rank[std::size_t(n)] < m_rank[std::size_t(chosen)])
                        chosen = n;
                }
        }
    }
    d.node = chosen;
    (void)rawScore(cluster, chosen, r, rng, d.gpuMask); // the GPUs depend on the node itself
    return d;
}

// The scan meets the feasible nodes in node order, keeping the running best score: a higher score
// starts a new level (that node chosen, one tie), an equal one is a further tie and draws
// below(ties), taking the node on 0. So only the nodes of the current level between its first
// node and the next higher-scoring node draw; they are counted and selected on bit sets.
int32_t ScoringPolicy::randomTie(const cluster::FreeShapeIndex& index, int nodes, Rng& rng)
{
    // Level l: its nodes at m_levelBits[2l], the nodes scoring higher at [2l + 1]; levelOf per group.
    const int words = index.words();
    std::vector<std::size_t>& levelStart = m_levelStart; // first m_shapeScores entry of each level
    levelStart.clear();
    for (std::size_t i = 0; i < m_shapeScores.size(); ++i)
        if (i == 0 || m_shapeScores[i].score != m_shapeScores[i - 1].score)
            levelStart.push_back(i);
    const std::size_t levels = levelStart.size();
    m_levelBits.assign(levels * 2 * std::size_t(words), 0);
    auto bitsOf = [&](std::size_t level, int which) { return m_levelBits.data() + (level * 2 + std::size_t(which)) * std::size_t(words); };
    for (std::size_t l = 0; l < levels; ++l) {
        const std::size_t end = l + 1 < levels ? levelStart[l + 1] : m_shapeScores.size();
        uint64_t* own = bitsOf(l, 0);
        for (std::size_t i = levelStart[l]; i < end; ++i) {
            const uint64_t* m = index.members(m_shapeScores[i].group);
            for (int w = 0; w < words; ++w)
                own[w] |= m[w];
        }
        if (l > 0) {
            uint64_t* above = bitsOf(l, 1);
            const uint64_t *prevOwn = bitsOf(l - 1, 0), *prevAbove = bitsOf(l - 1, 1);
            for (int w = 0; w < words; ++w)
                above[w] = prevOwn[w] | prevAbove[w];
        }
    }
    auto levelAt = [&](int node) {
        for (std::size_t l = 0; l < levels; ++l)
            if ((bitsOf(l, 0)[node / 64] >> (node % 64)) & 1u)
                return l;
        return levels; // not reached: every feasible node is on a level
    };
    // The first feasible node: the lowest of the levels' first nodes.
    int p = nodes;
    for (std::size_t l = 0; l < levels; ++l) {
        const int f = firstSetFrom(bitsOf(l, 0), words, 0);
        if (f >= 0)
            p = std::min(p, f);
    }
    std::size_t level = levelAt(p);
    while (true) {
        const int q = firstSetFrom(bitsOf(level, 1), words, p + 1);
        const int end = q < 0 ? nodes : q;
        const uint64_t* own = bitsOf(level, 0);
        const int64_t ties = countRange(own, p + 1, end);
        int64_t pick = 0; // 0 = p itself, k = the k-th tie after it
        for (int64_t t = 2; t <= ties + 1; ++t)
            if (rng.below(uint64_t(t)) == 0)
                pick = t - 1;
        if (q < 0)
            return pick == 0 ? p : selectAfter(own, words, p, pick);
        p = q;
        level = levelAt(p);
    }
}

} // namespace schedlab::policy
