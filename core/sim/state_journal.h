#pragma once
/// Every allocate and release of a replay, in order, with copies of the cluster at spaced
/// positions, so the cluster after any number of operations can be rebuilt quickly (incident
/// replay: the state decision k saw is stateAt(decision.statePos)). It is an observer of a run
/// (replay_observer.h: started, allocated, released, undone; Recording::journal adds it), so its
/// position() follows the run's state position. Not thread-safe while recording; const member
/// functions may be called from several threads once the replay is over.

#include "base/result.h"
#include "replay_observer.h"

#include "cluster/cluster_state.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace schedlab::sim {

class StateJournal : public ReplayObserver {
public:
    /// At most this many snapshots are kept: past it every other one is dropped and the spacing
    /// doubles, so memory stays bounded and a seek replays at most spacing() operations.
    static constexpr std::size_t kMaxSnapshots = 256;

    /// One recorded operation.
    struct Op {
        cluster::Placement placement;
        bool release = false;
    };

    explicit StateJournal(int64_t initialSpacing = 1024);
    /// A journal of `ops` applied to `initial` (a stored journal read back), with its snapshots.
    /// Errors: an operation on a node or GPU the cluster does not have, or a release of more than
    /// is allocated (a corrupted store); the message names the operation.
    static Result<StateJournal> fromOps(const cluster::ClusterState& initial, std::vector<Op> ops, int64_t initialSpacing = 1024);
    /// The operations, in order.
    const std::vector<Op>& ops() const { return m_ops; }
    /// Starts over from `initial`, the replay's cluster before any operation.
    void begin(const cluster::ClusterState& initial);
    /// Records one operation; `after` is the cluster once it was applied.
    void allocate(const cluster::Placement& p, const cluster::ClusterState& after) { record(p, false, after); }
    void release(const cluster::Placement& p, const cluster::ClusterState& after) { record(p, true, after); }
    /// Takes back the last operation when it allocated exactly `p` (a tentative placement rolled
    /// back that no decision refers to); else records a release. Keeps journals of replays with
    /// backfilling checks small.
    void undoAllocate(const cluster::Placement& p, const cluster::ClusterState& after);

    // As an observer of a run: begin, allocate, release and undoAllocate.
    void started(const cluster::ClusterState& cluster) override { begin(cluster); }
    void allocated(const cluster::Placement& p, const cluster::ClusterState& after) override { allocate(p, after); }
    void released(const cluster::Placement& p, const cluster::ClusterState& after) override { release(p, after); }
    void undone(const cluster::Placement& p, const cluster::ClusterState& after) override { undoAllocate(p, after); }

    /// Operations recorded so far.
    int64_t position() const { return int64_t(m_ops.size()); }
    /// The cluster after the first `pos` operations, 0 <= pos <= position(); nullptr before begin().
    std::unique_ptr<cluster::ClusterState> stateAt(int64_t pos) const;
    std::size_t snapshotCount() const { return m_snapshots.size(); }
    /// Operations between two snapshots.
    int64_t spacing() const { return m_every; }
    /// Approximate heap use, bytes.
    std::size_t memoryBytes() const;

private:
    void record(const cluster::Placement& p, bool release, const cluster::ClusterState& after);

    std::vector<Op> m_ops;
    std::vector<std::shared_ptr<const cluster::ClusterState>> m_snapshots; ///< [i] = after i x m_every ops
    int64_t m_every;
    std::size_t m_snapshotBytes = 0;
};

} // namespace schedlab::sim
