// Skipping in the timed replay (PlacementPolicy::skips): a policy may pass over units before the
// pass meets its head; worked by hand on one CPU node.

#include "trace_builder.h"

#include "policy/placement_policy.h"
#include "sim/timed_replay.h"

#include <QtTest>

using namespace schedlab;
using test::TraceBuilder;

namespace {

/// FirstFit that skips a unit while one behind it requests less time (or always), at most
/// `perPass` units a pass; it notes what the engine told it.
class SkippingFirstFit final : public policy::PlacementPolicy {
public:
    SkippingFirstFit(int perPass, bool always)
        : m_inner(policy::makePlacementPolicy("firstfit"))
        , m_perPass(perPass)
        , m_always(always)
    {
    }
    std::string name() const override { return "skipping-firstfit"; }
    int skips() const override { return m_perPass; }
    void reset(const policy::PolicyContext& ctx, const cluster::ClusterState& cluster) override { m_inner->reset(ctx, cluster); }
    policy::PlacementDecision place(const cluster::ClusterState& cluster, const policy::PlacementRequest& req, Rng& rng, int topK) override
    {
        seen.push_back({ req.nowS, req.submitS, req.maySkip ? req.shorterQueued : -1 });
        if (req.maySkip && (m_always || req.shorterQueued > 0)) {
            policy::PlacementDecision d;
            d.skip = true;
            return d;
        }
        return m_inner->place(cluster, req, rng, topK);
    }
    struct Seen {
        double nowS, submitS;
        int shorter; ///< -1: skipping not offered
    };
    std::vector<Seen> seen;

private:
    std::unique_ptr<policy::PlacementPolicy> m_inner;
    int m_perPass;
    bool m_always;
};

double startOf(const sim::TimedResult& r, int job)
{
    for (const auto& u : r.units_)
        if (u.job == job)
            return u.startS;
    qFatal("no unit of job %d", job);
}

sim::TimedResult mustRun(const trace::Trace& t, policy::PlacementPolicy& p)
{
    auto r = sim::runTimedReplay(t, p, {});
    if (!r)
        qFatal("replay failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}

} // namespace

class TestSkip : public QObject {
    Q_OBJECT
private slots:
    void shorterJobsGoFirst()
    {
        // One node of 4 cores, every job takes all 4. A runs 0-100. B (1000 s) comes at 10 and
        // waits at the head; C (10 s) comes at 20: B, with C shorter behind it, is skipped and C
        // becomes the head. At 100 B is skipped again and C runs 100-110; then nothing shorter
        // waits behind B: 110-1110. In queue order (FirstFit alone) B runs 100-1100, C 1100-1110.
        TraceBuilder b;
        b.node(4000, 0, 0);
        b.task(4000, 0, 0, 0, 0, 100);
        b.task(4000, 0, 0, 0, 10, 1000);
        b.task(4000, 0, 0, 0, 20, 10);
        SkippingFirstFit sjf(8, false);
        const sim::TimedResult r = mustRun(b.t, sjf);
        QCOMPARE(startOf(r, 0), 0.0);
        QCOMPARE(startOf(r, 2), 100.0);
        QCOMPARE(startOf(r, 1), 110.0);
        QCOMPARE(r.completed, int64_t(3));
        // What B was told at 20: one unit behind it asks less time.
        bool toldAt20 = false;
        for (const auto& s : sjf.seen)
            if (s.nowS == 20 && s.submitS == 10) {
                QCOMPARE(s.shorter, 1);
                toldAt20 = true;
            }
        QVERIFY(toldAt20);
        // Its skips are logged as waits (once per unit, the first).
        int waitsOfB = 0;
        for (const sim::Decision& d : r.decisions.decisions())
            waitsOfB += d.job == 1 && d.outcome == sim::Outcome::Waited ? 1 : 0;
        QCOMPARE(waitsOfB, 1);

        auto fifo = policy::makePlacementPolicy("firstfit");
        const sim::TimedResult plain = mustRun(b.t, *fifo);
        QCOMPARE(startOf(plain, 1), 100.0);
        QCOMPARE(startOf(plain, 2), 1100.0);
    }

    void skippedUnitsOnAnIdleClusterStartAnyway()
    {
        // A policy that would skip everything: with nothing running nothing would wake the
        // skipped unit, so the pass is made again without skips and A starts at once.
        TraceBuilder b;
        b.node(4000, 0, 0);
        b.task(1000, 0, 0, 0, 0, 100);
        SkippingFirstFit always(8, true);
        const sim::TimedResult r = mustRun(b.t, always);
        QCOMPARE(startOf(r, 0), 0.0);
        QCOMPARE(r.completed, int64_t(1));
    }

    void aPassSkipsAtMostItsBudget()
    {
        // X, Y, Z (1 core, 50 s) all at 0 on 3 cores; one skip a pass: X is skipped, Y and Z
        // start. When they end X, skipped on a cluster with nothing running, starts: 50.
        TraceBuilder b;
        b.node(3000, 0, 0);
        for (int i = 0; i < 3; ++i)
            b.task(1000, 0, 0, 0, 0, 50);
        SkippingFirstFit always(1, true);
        const sim::TimedResult r = mustRun(b.t, always);
        QCOMPARE(startOf(r, 1), 0.0);
        QCOMPARE(startOf(r, 2), 0.0);
        QCOMPARE(startOf(r, 0), 50.0);
        // Skipping is offered to the first unit of a pass only while the budget lasts.
        QVERIFY(!always.seen.empty());
        QVERIFY(always.seen[0].shorter >= 0);
        QCOMPARE(always.seen[1].shorter, -1);
    }
};

QTEST_GUILESS_MAIN(TestSkip)
#include "test_skip.moc"
