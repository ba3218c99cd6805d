#pragma once
/// Placement: which node (and which GPUs in it) a task goes to. Every policy, heuristic, logged or
/// learned, implements this one interface ("state and events in, decision out"), and reports the
/// scores of the candidates it considered so a decision can be explained later.

#include "base/rng.h"
#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace schedlab::metrics {
class FragTracker;
struct TypicalWorkload;
} // namespace schedlab::metrics

namespace schedlab::policy {

/// One scored candidate node. score: the policy's final score (0..100 for the FGD-family and
/// Kubernetes policies, higher is better); raw: before normalisation.
struct Candidate {
    int32_t node = -1;
    double score = 0;
    double raw = 0;
    uint64_t gpuMask = 0; ///< GPUs the policy would use on this node
};

/// What the policy decided for one task.
struct PlacementDecision {
    int32_t node = -1; ///< -1 = no feasible node
    uint64_t gpuMask = 0;
    int32_t feasible = 0; ///< feasible nodes considered
    std::vector<Candidate> top; ///< best candidates, best first (at most topK)
    /// With node -1: true = the policy skipped the unit (fitting or not; only when the request
    /// allowed it, maySkip): it stays queued and the pass goes on to the next unit. False with
    /// feasible > 0: a policy's wait, the unit heads the queue.
    bool skip = false;
};

/// The task to place, with the context a policy may look at.
struct PlacementRequest {
    const trace::TaskRequest& request;
    const trace::Job* job = nullptr; ///< null in fill experiments without jobs
    const trace::Task* task = nullptr;
    double nowS = 0;
    // Queue pressure, for policies that look at it (the learned one); 0 in fill experiments.
    int32_t queued = 0; ///< units waiting, this one included
    double headWaitS = 0; ///< wait so far of the queue's head
    double submitS = -1; ///< this unit's submit time; -1 = not a timed replay
    /// Timed replay, a unit's first task in the pass before the head, policy skips(): the policy
    /// may pass the unit over (PlacementDecision::skip). Then also its requested run time and how
    /// many units behind it in the queue request less time.
    bool maySkip = false;
    double requestedS = 0;
    int32_t shorterQueued = 0;
};

/// Making room (timed replay with migration or preemption on): what the engine found for a
/// single-task unit that fits nowhere. A policy that decides room itself (decidesRoom()) takes or
/// declines it and, for a migration, picks the moved task's destination: the two-level decision
/// of the learned policy (first "make room or wait", then where the moved task goes).
struct RoomOffer {
    enum class Kind { Migrate, Preempt };
    Kind kind = Kind::Migrate;
    int32_t freedNode = -1; ///< where the waiting unit starts once the room is made
    /// Migrate: the moved task and its possible destinations, best fill first (score: -gpu-milli
    /// it would leave free); the engine's own choice is destinations[0].
    const trace::TaskRequest* moved = nullptr;
    std::vector<Candidate> destinations;
    double restartS = 0; ///< what the move costs the moved task
    /// Preempt: how many running units would be evicted and the GPU-hours they would lose.
    int32_t victims = 0;
    double lostGpuHours = 0;
};

/// Read-only context a run gives its policies.
struct PolicyContext {
    const trace::Trace& trace;
    const metrics::FragTracker* frag = nullptr; ///< cluster fragmentation, when the run tracks it
};

/// How equal best scores are resolved.
enum class TieBreak {
    /// Uniformly at random, drawn anew for every decision (upstream kube-scheduler's selectHost).
    Random,
    /// The lowest-numbered node.
    First,
    /// The node ranked first in a random node order drawn once per run with the run's seed. This is
    /// how the FGD authors' simulator behaves (a kube-scheduler fork that picks the first best node,
    /// nodes renamed with a seeded random prefix), and what reproduces their published fill results
    /// (see core/policy/README.md). Default of the fill experiment.
    Order,
};

/// Every tie rule, in the order the CLI lists them.
inline constexpr TieBreak kTieBreaks[] = { TieBreak::Random, TieBreak::First, TieBreak::Order };
/// "random", "first", "order".
const char* tieBreakName(TieBreak t);
/// Parses tieBreakName(); false for anything else.
bool parseTieBreak(const std::string& s, TieBreak& out);

class PlacementPolicy {
public:
    virtual ~PlacementPolicy() = default;
    /// The tie rule; seed draws the node order of TieBreak::Order (the run's seed), which is drawn
    /// at the next reset() (until then Order acts as First).
    void setTieBreak(TieBreak t, uint64_t seed = 0)
    {
        m_tieBreak = t;
        m_tieSeed = seed;
    }
    TieBreak tieBreak() const { return m_tieBreak; }
    /// Stable identifier, e.g. "bestfit".
    virtual std::string name() const = 0;
    /// Called once before a run.
    virtual void reset(const PolicyContext& ctx, const cluster::ClusterState& cluster)
    {
        (void)ctx;
        (void)cluster;
    }
    /// Chooses a node for the request; fills decision.top with at most topK candidates.
    virtual PlacementDecision place(const cluster::ClusterState& cluster, const PlacementRequest& req, Rng& rng, int topK)
        = 0;
    /// True when place() returns no node only if the request fits no node, and then changes
    /// nothing (no random draw, no state of its own). The timed replay relies on it to skip
    /// re-trying a request that failed until resources are released. Default false (a learned
    /// policy may choose to wait on a feasible request).
    virtual bool failsOnlyWhenInfeasible() const { return false; }
    /// How many units a scheduling pass of the timed replay may skip (PlacementDecision::skip;
    /// offered by PlacementRequest::maySkip before the pass meets its head); 0 = never.
    virtual int skips() const { return 0; }
    /// False when the candidates' scores carry no preference (Random: every feasible node equal);
    /// the inspector then says "no score" instead of showing zeros.
    virtual bool scoresCandidates() const { return true; }
    /// Whether place() may draw from the run's RNG when called with this topK (then the same
    /// request on the same cluster may get another node). Default true.
    virtual bool drawsRandomly(int topK) const
    {
        (void)topK;
        return true;
    }

    /// True when the policy decides room offers itself (decideRoom); heuristics take every offer
    /// ("defragment on failure", Kubernetes preemption).
    virtual bool decidesRoom() const { return false; }
    /// A room offer for `req` (which fits nowhere now): -1 declines it (the unit keeps waiting),
    /// otherwise the index of the destination (Migrate) or 0 (Preempt). `after(i)` is the cluster
    /// once the room is made with destination i (Preempt: 0), before the waiting unit starts.
    virtual int decideRoom(const cluster::ClusterState& cluster, const PlacementRequest& req, const RoomOffer& offer,
        const std::function<const cluster::ClusterState&(int)>& after)
    {
        (void)cluster;
        (void)req;
        (void)offer;
        (void)after;
        return 0;
    }

    /// Told after the run allocated or released a task (policies with their own node state).
    virtual void onAllocated(const cluster::Placement& p, const trace::TaskRequest& r)
    {
        (void)p;
        (void)r;
    }
    virtual void onReleased(const cluster::Placement& p, const trace::TaskRequest& r)
    {
        (void)p;
        (void)r;
    }

protected:
    TieBreak m_tieBreak = TieBreak::Random;
    uint64_t m_tieSeed = 0;
};

/// Whether a ScoringPolicy whose score depends only on a node's free shape (scoresByShape()) scores
/// one node per shape (cluster::FreeShapeIndex) instead of every node. Decisions are the same.
enum class ShapeIndexUse {
    Auto, ///< when the cluster has few shapes for its size (see ScoringPolicy::place)
    Never, ///< always the plain scan (tests and benchmarks compare the two)
    Always, ///< whenever the cluster keeps the index (at most FreeShapeIndex::kMaxShapes shapes)
};

/// Base for policies that score every feasible node: raw scores are min-max normalised to 0..100
/// with integer arithmetic (all equal -> 0) when normalise() says so, the highest wins, and ties
/// are broken by the tie rule: at random with the run's RNG (reservoir sampling in node order), the
/// lowest node, or the first node of the run's seeded node order.
class ScoringPolicy : public PlacementPolicy {
public:
    PlacementDecision place(const cluster::ClusterState& cluster, const PlacementRequest& req, Rng& rng, int topK) override;

    /// Default Auto. Only policies with scoresByShape() and calls with topK 0 use the index.
    void setShapeIndexUse(ShapeIndexUse use) { m_shapeIndexUse = use; }

    void reset(const PolicyContext& ctx, const cluster::ClusterState& cluster) override;

    /// Infeasible nodes are never scored, so nothing is drawn; true unless candidateNodes() keeps
    /// state (Kubernetes sampling says false).
    bool failsOnlyWhenInfeasible() const override { return true; }
    /// Random ties, or a policy that scores at random (not cacheable).
    bool drawsRandomly(int) const override { return m_tieBreak == TieBreak::Random || !cacheable(); }

    /// Largest number of cached (task class, node) scores; past it the cache starts over.
    static constexpr std::size_t kCacheBudget = std::size_t(4) << 20;

protected:
    /// Raw score of a feasible node and the GPUs the policy would use there.
    virtual int64_t rawScore(const cluster::ClusterState& cluster, int node, const trace::TaskRequest& r, Rng& rng,
        uint64_t& gpuMask)
        = 0;
    virtual bool normalise() const { return true; }
    /// True when rawScore depends only on the node's own state (its version) and the request, so
    /// scores may be cached until the node changes. Policies drawing random numbers say false.
    virtual bool cacheable() const { return true; }
    /// Extra reset work of a derived policy (reset() clears the cache, then calls this).
    virtual void resetPolicy(const PolicyContext& ctx, const cluster::ClusterState& cluster)
    {
        (void)ctx;
        (void)cluster;
    }
    /// Nodes to consider, in order; default all. (Kubernetes sampling overrides.)
    virtual void candidateNodes(const cluster::ClusterState& cluster, const trace::TaskRequest& r, std::vector<int>& out);
    /// True when rawScore depends only on the request and the node's cluster::FreeShape (not on
    /// its index, its GPUs one by one or anything drawn), candidateNodes() is every node in order
    /// and place() is not overridden: then nodes of one shape score alike and place() may score
    /// one per shape (shape_placement.cpp). The GPU mask may still depend on the node.
    virtual bool scoresByShape() const { return false; }

    std::vector<int> m_nodes;
    std::vector<Candidate> m_scored;

private:
    struct ClassKey {
        int64_t cpu, mem;
        int32_t numGpu, gpuMilli;
        uint32_t mask;
        bool operator==(const ClassKey&) const = default;
    };
    struct ClassKeyHash {
        std::size_t operator()(const ClassKey& k) const;
    };
    struct CacheEntry {
        uint64_t version = UINT64_MAX;
        int64_t raw = 0;
        uint64_t mask = 0;
        bool feasible = false;
    };
    std::vector<CacheEntry>* cacheFor(const trace::TaskRequest& r, int nodes);
    std::unordered_map<ClassKey, std::vector<CacheEntry>, ClassKeyHash> m_cache;
    std::size_t m_cached = 0;
    std::vector<uint32_t> m_rank; ///< TieBreak::Order: position of each node in the run's order

    // Scoring by shape (shape_placement.cpp): the same decision as the scan over every node.
    struct ShapeScore {
        int32_t group;
        int64_t raw;
        double score;
    };
    bool useShapes(const cluster::FreeShapeIndex& index, int nodes) const;
    PlacementDecision placeByShape(
        const cluster::ClusterState& cluster, const cluster::FreeShapeIndex& index, const trace::TaskRequest& r, Rng& rng);
    int32_t randomTie(const cluster::FreeShapeIndex& index, int nodes, Rng& rng);
    ShapeIndexUse m_shapeIndexUse = ShapeIndexUse::Auto;
    std::vector<ShapeScore> m_shapeScores;
    std::vector<std::size_t> m_levelStart;
    std::vector<uint64_t> m_levelBits; ///< per score level: its nodes, then the nodes scoring higher
};

/// Name, description and parameters of a policy, for `schedlab-cli policies` and the GUI.
struct PolicyInfo {
    std::string name;
    std::string description;
    std::string kind; ///< "placement" or "queue"
};

/// All placement policies by name.
std::vector<PolicyInfo> placementPolicies();
/// Creates a placement policy; nullptr for an unknown name.
std::unique_ptr<PlacementPolicy> makePlacementPolicy(const std::string& name);

} // namespace schedlab::policy
