// FGD, Fragmentation Gradient Descent (Weng et al., ATC'23), as the authors' simulator scores it:
// for each feasible node, F_n(M) before and after a hypothetical placement, score =
// int(sigmoid((F_before - F_after) / 1000) * 100), no normalisation, highest wins, seeded random
// tie-break. For a GPU share every fitting GPU is tried and the best one kept (the first on ties);
// whole GPUs are taken lowest-numbered first. The hypothetical takes cpu and memory off the node
// (the authors' code leaves memory out for shares; DESIGN §3 counts memory in "can host").
//
// Speed: only one node changes per placement, so scores are cached per (task class, node) and
// reused while the node's version is unchanged. A fill run then costs O(nodes) per pod plus one
// recomputation per changed node.

#include "policy_factories.h"

#include "metrics/fragmentation.h"

#include <array>
#include <cmath>
#include <unordered_map>

namespace schedlab::policy {
namespace {

struct ClassKey {
    int64_t cpu, mem;
    int32_t numGpu, gpuMilli;
    uint32_t mask;
    bool operator==(const ClassKey&) const = default;
};
struct ClassKeyHash {
    std::size_t operator()(const ClassKey& k) const
    {
        uint64_t h = uint64_t(k.cpu) * 0x9E3779B97F4A7C15ull;
        h ^= uint64_t(k.mem) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= (uint64_t(uint32_t(k.numGpu)) << 32 | uint32_t(k.gpuMilli)) + (h << 6) + (h >> 2);
        h ^= uint64_t(k.mask) + (h << 6) + (h >> 2);
        return std::size_t(h);
    }
};

struct CacheEntry {
    uint64_t version = UINT64_MAX;
    int64_t score = 0;
    uint64_t mask = 0;
};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

class Fgd final : public ScoringPolicy {
public:
    std::string name() const override { return "fgd"; }
    void reset(const PolicyContext& ctx, const sim::ClusterState& cluster) override
    {
        m_workload = ctx.frag ? ctx.frag->workload() : metrics::TypicalWorkload::fromTrace(ctx.trace);
        m_cache.clear();
        m_nodeCount = cluster.nodeCount();
    }

protected:
    bool normalise() const override { return false; }
    int64_t rawScore(const sim::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        std::vector<CacheEntry>& entries = cacheFor(r);
        CacheEntry& e = entries[std::size_t(n)];
        if (e.version != c.version(n)) {
            e.version = c.version(n);
            e.score = score(c, n, r, e.mask);
        }
        mask = e.mask;
        return e.score;
    }

private:
    std::vector<CacheEntry>& cacheFor(const trace::TaskRequest& r)
    {
        auto [it, inserted] = m_cache.try_emplace(ClassKey { r.cpuMilli, r.memMiB, r.numGpu, r.gpuMilli, r.gpuModelMask });
        if (inserted)
            it->second.resize(std::size_t(m_nodeCount));
        return it->second;
    }

    int64_t score(const sim::ClusterState& c, int n, const trace::TaskRequest& r, uint64_t& mask) const
    {
        metrics::NodeView view = metrics::viewOf(c, n);
        const double before = metrics::nodeGpuFrag(view, m_workload);
        std::array<int32_t, sim::kMaxGpusPerNode> gpus {};
        for (int g = 0; g < view.numGpu; ++g)
            gpus[std::size_t(g)] = view.gpuFree[g];
        metrics::NodeView after = view;
        after.freeCpu -= r.cpuMilli;
        after.freeMem -= r.memMiB;
        after.gpuFree = gpus.data();
        auto toScore = [&](double fAfter) { return int64_t(sigmoid((before - fAfter) / 1000.0) * 100.0); };
        if (r.isGpuShare()) {
            int64_t best = -1;
            mask = 0;
            for (int g = 0; g < view.numGpu; ++g) {
                if (gpus[std::size_t(g)] < r.gpuMilli)
                    continue;
                gpus[std::size_t(g)] -= r.gpuMilli;
                const int64_t s = toScore(metrics::nodeGpuFrag(after, m_workload));
                gpus[std::size_t(g)] += r.gpuMilli;
                if (s > best) {
                    best = s;
                    mask = uint64_t(1) << g;
                }
            }
            return best;
        }
        mask = c.bestFitGpus(n, r);
        for (uint64_t m = mask; m; m &= m - 1)
            gpus[std::size_t(__builtin_ctzll(m))] -= sim::kGpuMilli;
        return toScore(metrics::nodeGpuFrag(after, m_workload));
    }

    metrics::TypicalWorkload m_workload;
    std::unordered_map<ClassKey, std::vector<CacheEntry>, ClassKeyHash> m_cache;
    int m_nodeCount = 0;
};
} // namespace
std::unique_ptr<PlacementPolicy> makeFgd() { return std::make_unique<Fgd>(); }
} // namespace schedlab::policy
