#include "state_journal.h"

#include <algorithm>
#include <bit>
#include <string>

namespace schedlab::sim {

namespace {
std::size_t bytesOf(const cluster::ClusterState& s)
{
    int gpus = 0;
    for (int n = 0; n < s.nodeCount(); ++n)
        gpus += s.numGpu(n);
    // five int64 + three int32 + one int16 + one uint64 per node, one int32 per GPU
    return std::size_t(s.nodeCount()) * (5 * 8 + 3 * 4 + 2 + 8) + std::size_t(gpus) * 4 + sizeof(cluster::ClusterState);
}
} // namespace

StateJournal::StateJournal(int64_t initialSpacing)
    : m_every(std::max<int64_t>(1, initialSpacing))
{
}

Result<StateJournal> StateJournal::fromOps(const cluster::ClusterState& initial, std::vector<Op> ops, int64_t initialSpacing)
{
    StateJournal j(initialSpacing);
    j.begin(initial);
    cluster::ClusterState live(initial);
    j.m_ops.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const Op& op = ops[i];
        const cluster::Placement& p = op.placement;
        const auto bad = [&](const std::string& why) {
            return makeError(ErrorCode::Format, "journal operation " + std::to_string(i) + " (node " + std::to_string(p.node) + "): " + why);
        };
        if (p.node < 0 || p.node >= live.nodeCount())
            return bad("no such node");
        const int gpus = live.numGpu(p.node);
        if (gpus < 64 && (p.gpuMask >> gpus) != 0)
            return bad("no such GPU");
        if (p.cpuMilli < 0 || p.memMiB < 0 || p.gpuMilliPerGpu < 0 || p.gpuMilliPerGpu > cluster::kGpuMilli)
            return bad("negative or oversized amounts");
        if (op.release) {
            if (live.freeCpu(p.node) + p.cpuMilli > live.capCpu(p.node) || live.freeMem(p.node) + p.memMiB > live.capMem(p.node))
                return bad("releases more than is allocated");
            for (uint64_t m = p.gpuMask; m; m &= m - 1)
                if (live.gpuFree(p.node, std::countr_zero(m)) + p.gpuMilliPerGpu > cluster::kGpuMilli)
                    return bad("releases more GPU than is allocated");
            live.release(p);
        } else {
            live.allocate(p);
        }
        j.record(p, op.release, live);
    }
    return j;
}

void StateJournal::begin(const cluster::ClusterState& initial)
{
    m_ops.clear();
    m_snapshots.clear();
    m_snapshots.push_back(std::make_shared<const cluster::ClusterState>(initial));
    m_snapshotBytes = bytesOf(initial);
}

void StateJournal::record(const cluster::Placement& p, bool release, const cluster::ClusterState& after)
{
    m_ops.push_back(Op { p, release });
    if (int64_t(m_ops.size()) % m_every != 0)
        return;
    m_snapshots.push_back(std::make_shared<const cluster::ClusterState>(after));
    if (m_snapshots.size() <= kMaxSnapshots)
        return;
    std::vector<std::shared_ptr<const cluster::ClusterState>> kept;
    kept.reserve(m_snapshots.size() / 2 + 1);
    for (std::size_t i = 0; i < m_snapshots.size(); i += 2)
        kept.push_back(std::move(m_snapshots[i]));
    m_snapshots = std::move(kept);
    m_every *= 2;
}

void StateJournal::undoAllocate(const cluster::Placement& p, const cluster::ClusterState& after)
{
    if (m_ops.empty() || m_ops.back().release || !(m_ops.back().placement == p)) {
        record(p, true, after);
        return;
    }
    // A snapshot taken right after that allocation goes too.
    if (int64_t(m_ops.size()) % m_every == 0 && m_snapshots.size() == std::size_t(int64_t(m_ops.size()) / m_every) + 1)
        m_snapshots.pop_back();
    m_ops.pop_back();
}

std::unique_ptr<cluster::ClusterState> StateJournal::stateAt(int64_t pos) const
{
    if (m_snapshots.empty())
        return nullptr;
    pos = std::clamp<int64_t>(pos, 0, position());
    const std::size_t s = std::min(std::size_t(pos / m_every), m_snapshots.size() - 1);
    auto state = std::make_unique<cluster::ClusterState>(*m_snapshots[s]);
    for (int64_t i = int64_t(s) * m_every; i < pos; ++i) {
        const Op& op = m_ops[std::size_t(i)];
        if (op.release)
            state->release(op.placement);
        else
            state->allocate(op.placement);
    }
    return state;
}

std::size_t StateJournal::memoryBytes() const
{
    return m_ops.capacity() * sizeof(Op) + m_snapshots.size() * m_snapshotBytes;
}

} // namespace schedlab::sim
