#pragma once
// Private to the replays: "defragment on failure". The rule's two tests, shared by the timed
// replay's migration (timed_replay_room.cpp) and the fill experiment's (FillOptions::migration),
// and PodMover, which keeps the fill experiment's placed pods by node and finds the smallest
// placed pod whose move to another node lets a failed pod fit on the node it leaves (module
// README, "Making room").

#include "cluster/cluster_state.h"

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

namespace schedlab::sim::detail {

/// Would `r` fit on p's node with p gone? (cluster::ClusterState::fits on the freed state; the model and
/// GPU count are the caller's fitsEmpty test.)
bool fitsWithout(const cluster::ClusterState& c, const cluster::Placement& p, const trace::TaskRequest& r);
/// How well `q` would fill node m (smaller is better): the gpu-milli, then the cpu it leaves free.
inline std::tuple<int64_t, int64_t> fillKey(const cluster::ClusterState& c, int m, const trace::TaskRequest& q)
{
    return { c.freeGpuMilli(m) - q.totalGpuMilli(), c.freeCpu(m) - q.cpuMilli };
}

class PodMover {
public:
    explicit PodMover(int nodes)
        : m_onNode(std::size_t(nodes))
        , m_most(std::size_t(nodes))
    {
    }
    /// A pod was placed.
    void placed(const cluster::Placement& p, const trace::TaskRequest& r);
    struct Move {
        std::size_t pod; ///< index among the placed pods
        int to; ///< node it goes to
    };
    /// The smallest placed pod (gpu-milli, cpu, memory, order placed) on a node that could host `r`
    /// when empty, whose removal lets `r` fit there and that fits on another node now (the one it
    /// fills best: least free gpu-milli, then cpu, left; the lowest index); none when there is none.
    std::optional<Move> find(const cluster::ClusterState& c, const trace::TaskRequest& r) const;
    const cluster::Placement& placement(std::size_t pod) const { return m_pods[pod].p; }
    const trace::TaskRequest& request(std::size_t pod) const { return m_pods[pod].r; }
    /// The pod now sits at `to` (already released and allocated in the cluster).
    void moved(std::size_t pod, const cluster::Placement& to);

private:
    struct Pod {
        cluster::Placement p;
        trace::TaskRequest r;
    };
    std::vector<Pod> m_pods;
    std::vector<std::vector<std::size_t>> m_onNode;
    /// By node: the most one of its pods holds (cpu, memory, milli per GPU, GPUs): with free room,
    /// a bound on what removing one pod can give, so most nodes are passed over without a scan.
    struct Most {
        int64_t cpu = 0, mem = 0;
        int32_t share = 0, gpus = 0;
    };
    std::vector<Most> m_most;
    void recomputeMost(int node);
};

} // namespace schedlab::sim::detail
