// GpuClustering (the FGD authors' baseline): a GPU task prefers nodes already hosting its GPU request
// class, as the authors' simulator defines it: "share" (one GPU or less, any fraction) or "N whole
// GPUs". Score bands, each raised by how full the node's GPUs are
// (25 * (maxSpecGpu - free gpu) / maxSpecGpu):
//   (75, 100] only this class on the node; (50, 75] this class among others;
//   (25, 50] a node without GPU tasks; (0, 25] a node with only other classes. CPU-only tasks: 0.

#include "policy_factories.h"

#include <map>

namespace schedlab::policy {
namespace {
class GpuClustering final : public ScoringPolicy {
public:
    std::string name() const override { return "gpuclustering"; }
    void resetPolicy(const PolicyContext&, const cluster::ClusterState& cluster) override
    {
        m_spec = MaxSpec::of(cluster);
        m_classes.assign(std::size_t(cluster.nodeCount()), {});
    }
    void onAllocated(const cluster::Placement& p, const trace::TaskRequest& r) override
    {
        if (r.needsGpu())
            ++m_classes[std::size_t(p.node)][classOf(r)];
    }
    void onReleased(const cluster::Placement& p, const trace::TaskRequest& r) override
    {
        if (!r.needsGpu())
            return;
        auto& m = m_classes[std::size_t(p.node)];
        auto it = m.find(classOf(r));
        if (it != m.end() && --it->second == 0)
            m.erase(it);
    }

protected:
    bool normalise() const override { return false; }
    int64_t rawScore(const cluster::ClusterState& c, int n, const trace::TaskRequest& r, Rng&, uint64_t& mask) override
    {
        mask = c.bestFitGpus(n, r);
        if (!r.needsGpu())
            return 0;
        const auto& classes = m_classes[std::size_t(n)];
        const int64_t spec = int64_t(m_spec.gpu);
        const int64_t fill = 25 * (spec - c.freeGpuMilli(n)) / spec;
        if (classes.count(classOf(r)))
            return fill + (classes.size() == 1 ? 75 : 50);
        return fill + (classes.empty() ? 25 : 0);
    }

private:
    /// 0 = a GPU share (any fraction), N = N whole GPUs.
    static int64_t classOf(const trace::TaskRequest& r) { return r.isGpuShare() ? 0 : int64_t(r.numGpu); }
    MaxSpec m_spec;
    std::vector<std::map<int64_t, int>> m_classes;
};
} // namespace
std::unique_ptr<PlacementPolicy> makeGpuClustering() { return std::make_unique<GpuClustering>(); }
} // namespace schedlab::policy
