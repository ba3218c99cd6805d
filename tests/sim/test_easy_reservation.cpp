// EASY's kept reservation (core/sim/easy_reservation.h) and the wait queue's index by requested
// time: hand-computed cases, and the reservation against a brute-force one (release running units
// in order of expected end on a copy of the cluster until first fit places the head) over random
// clusters while units start and finish.

#include "trace_builder.h"

#include "base/rng.h"
#include "sim/easy_reservation.h"
#include "sim/wait_queue.h"

#include <QtTest>

#include <map>

using namespace schedlab;
using schedlab::sim::detail::EasyReservation;
using schedlab::test::TraceBuilder;

namespace {

constexpr uint64_t kReleaseHash = 0x9E3779B97F4A7C15ull;

// The running units of a test: placements by unit, (expected end, unit) in order.
struct Running {
    EasyReservation::Placements placements;
    EasyReservation::Ends ends;
    std::map<int32_t, double> endOf;
    void start(cluster::ClusterState& c, int32_t unit, double endS, std::vector<cluster::Placement> ps)
    {
        if (placements.size() <= std::size_t(unit))
            placements.resize(std::size_t(unit) + 1);
        for (const cluster::Placement& p : ps)
            c.allocate(p);
        placements[std::size_t(unit)] = std::move(ps);
        ends.insert({ endS, unit });
        endOf[unit] = endS;
    }
    void finish(cluster::ClusterState& c, int32_t unit)
    {
        for (const cluster::Placement& p : placements[std::size_t(unit)])
            c.release(p);
        ends.erase({ endOf[unit], unit });
    }
};

// First fit of `count` copies of q on `c` (left unchanged).
bool firstFitPlaces(cluster::ClusterState c, const trace::TaskRequest& q, int32_t count)
{
    for (int32_t k = 0; k < count; ++k) {
        int n = 0;
        while (n < c.nodeCount() && !c.fits(n, q))
            ++n;
        if (n == c.nodeCount())
            return false;
        c.allocate(c.makePlacement(n, q, c.bestFitGpus(n, q)));
    }
    return true;
}

// The reservation as timed replay computed it before it was kept: release in order of expected
// end, checking after each release (never before the first).
EasyReservation::Shadow bruteForce(const cluster::ClusterState& real, const Running& r, const trace::TaskRequest& q, int32_t count)
{
    cluster::ClusterState c = real;
    EasyReservation::Shadow s;
    for (const auto& [endS, unit] : r.ends) {
        for (const cluster::Placement& p : r.placements[std::size_t(unit)])
            c.release(p);
        s.released += (uint64_t(unit) + 1) * kReleaseHash;
        if (firstFitPlaces(c, q, count)) {
            s.timeS = endS;
            s.unit = unit;
            return s;
        }
    }
    return EasyReservation::Shadow { std::numeric_limits<double>::infinity(), -1, s.released };
}

cluster::Placement cpuOn(const cluster::ClusterState& c, int node, int64_t cpuMilli)
{
    return c.makePlacement(node, { cpuMilli, 0, 0, 0, 0 }, 0);
}

// Uniform in [lo, hi].
int64_t between(Rng& rng, int64_t lo, int64_t hi)
{
    return lo + int64_t(rng.below(uint64_t(hi - lo + 1)));
}

} // namespace

class TestEasyReservation : public QObject {
    Q_OBJECT
private slots:
    void handComputedCpuCluster()
    {
        // Two nodes of 4 cores. Unit 0: 2 cores on n0 until 10; unit 1: 3 cores on n1 until 5;
        // unit 2: 2 cores on n0 until 20. Free now: n0 0, n1 1.
        TraceBuilder b;
        b.node(4000, 1000, 0).node(4000, 1000, 0);
        cluster::ClusterState c(b.t);
        Running r;
        r.start(c, 0, 10, { cpuOn(c, 0, 2000) });
        r.start(c, 1, 5, { cpuOn(c, 1, 3000) });
        r.start(c, 2, 20, { cpuOn(c, 0, 2000) });
        const trace::TaskRequest q { 2000, 0, 0, 0, 0 };
        EasyReservation e;
        // Head: two copies of 2 cores. Unit 1 ending at 5 frees n1: 2 copies.
        e.reset(7, q, 2, c, r.ends, r.placements);
        QVERIFY(e.active());
        QCOMPARE(e.head(), 7);
        EasyReservation::Shadow s = e.shadow();
        QCOMPARE(s.timeS, 5.0);
        QCOMPARE(s.unit, 1);
        QCOMPARE(s.released, 2 * kReleaseHash);
        QCOMPARE(e.copiesAt(s), int64_t(2));
        // n1 at the reservation takes 2 copies; a unit of 1 core there leaves room for 1.
        const std::vector<const std::vector<cluster::Placement>*> none;
        std::vector<cluster::Placement> extra { cpuOn(c, 1, 1000) };
        c.allocate(extra[0]);
        QCOMPARE(e.copiesAtShadow(1, s, c, r.placements, none, extra), std::pair(1, 2));
        c.release(extra[0]);
        // Unit 1 ends early: n1 fits both copies now, but the reservation is the first end
        // after it (the replay asks only once the head has failed now): unit 0 at 10.
        r.finish(c, 1);
        e.finished(1, 5, c, r.placements);
        s = e.shadow();
        QCOMPARE(s.timeS, 10.0);
        QCOMPARE(s.unit, 0);
        // Three copies: n1 gives 2, unit 0's end 1 more on n0.
        e.reset(8, q, 3, c, r.ends, r.placements);
        QCOMPARE(e.shadow().timeS, 10.0);
        // Unit 3 takes 3 cores of n1 until 30: n1 gives nothing until then; n0 2 copies at 20.
        r.start(c, 3, 30, { cpuOn(c, 1, 3000) });
        e.started(3, 30, c, r.placements);
        s = e.shadow();
        QCOMPARE(s.timeS, 30.0);
        QCOMPARE(s.unit, 3);
        QCOMPARE(s.released, (1 + 3 + 4) * kReleaseHash);
        // Five copies never fit on 8 cores of which... 4 + 4 = 8 cores: 4 copies at most.
        e.reset(9, q, 5, c, r.ends, r.placements);
        QVERIFY(std::isinf(e.shadow().timeS));
        QCOMPARE(e.shadow().unit, -1);
    }

    void gpuSharesAndWholeGpus()
    {
        // One node with 2 GPUs: a 0.6 share on GPU 0 until 10, a whole GPU 1 until 20.
        TraceBuilder b;
        b.node(8000, 8000, 2);
        cluster::ClusterState c(b.t);
        Running r;
        r.start(c, 0, 10, { c.makePlacement(0, { 0, 0, 1, 600, 0 }, 0x1) });
        r.start(c, 1, 20, { c.makePlacement(0, { 0, 0, 1, 1000, 0 }, 0x2) });
        EasyReservation e;
        // Two 0.4 shares: GPU 0 has 400 free now (1 copy), GPU 1 none; at 10 GPU 0 takes 2.
        e.reset(5, { 0, 0, 1, 400, 0 }, 2, c, r.ends, r.placements);
        QCOMPARE(e.shadow().timeS, 10.0);
        // Two whole GPUs: both must be fully free, at 20.
        e.reset(6, { 0, 0, 2, 1000, 0 }, 1, c, r.ends, r.placements);
        QCOMPARE(e.shadow().timeS, 20.0);
        // A model the node does not have: never.
        e.reset(7, { 0, 0, 1, 1000, 0x2 }, 1, c, r.ends, r.placements);
        QVERIFY(std::isinf(e.shadow().timeS));
    }

    void keptReservationEqualsBruteForce_data()
    {
        QTest::addColumn<int>("seed");
        for (int s = 1; s <= 12; ++s)
            QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s;
    }
    void keptReservationEqualsBruteForce()
    {
        QFETCH(int, seed);
        Rng rng { uint64_t(seed) };
        TraceBuilder b;
        const int nodes = 3 + int(between(rng, 0, 5));
        for (int n = 0; n < nodes; ++n)
            b.node(4000 * (1 + int64_t(between(rng, 0, 3))), 16000, int(between(rng, 0, 4)));
        cluster::ClusterState c(b.t);
        Running r;
        // Requests: cpu only, cpu + GPU share, whole GPUs; ends on a coarse grid (equal ends).
        auto randomRequest = [&] {
            trace::TaskRequest q { 500 * int64_t(between(rng, 1, 6)), 1000 * int64_t(between(rng, 0, 4)), 0, 0, 0 };
            const int64_t kind = between(rng, 0, 2);
            if (kind == 1)
                q.numGpu = 1, q.gpuMilli = int32_t(100 * between(rng, 1, 9));
            if (kind == 2)
                q.numGpu = int32_t(between(rng, 1, 2)), q.gpuMilli = 1000;
            return q;
        };
        int32_t nextUnit = 0;
        auto tryStart = [&](double now) {
            const trace::TaskRequest q = randomRequest();
            const int copies = int(between(rng, 1, 3));
            std::vector<cluster::Placement> ps;
            cluster::ClusterState scratch = c;
            for (int k = 0; k < copies; ++k) {
                int n = int(between(rng, 0, nodes - 1));
                int tries = 0;
                while (!scratch.fits(n, q) && tries++ < nodes)
                    n = (n + 1) % nodes;
                if (!scratch.fits(n, q))
                    return -1;
                ps.push_back(scratch.makePlacement(n, q, scratch.bestFitGpus(n, q)));
                scratch.allocate(ps.back());
            }
            const int32_t u = nextUnit++;
            r.start(c, u, now + 10 * double(between(rng, 1, 8)), ps);
            return int(u);
        };
        for (int k = 0; k < 40; ++k)
            tryStart(0);
        EasyReservation e;
        trace::TaskRequest q = randomRequest();
        int32_t count = int32_t(between(rng, 1, 4));
        e.reset(1000, q, count, c, r.ends, r.placements);
        int checked = 0, finite = 0;
        for (int step = 0; step < 300; ++step) {
            const EasyReservation::Shadow want = bruteForce(c, r, q, count);
            const EasyReservation::Shadow got = e.shadow();
            QCOMPARE(got.timeS, want.timeS);
            QCOMPARE(got.unit, want.unit);
            QCOMPARE(got.released, want.released);
            ++checked;
            finite += std::isfinite(want.timeS) ? 1 : 0;
            const int64_t action = between(rng, 0, 9);
            if (action < 4 && !r.ends.empty()) { // a unit finishes, not necessarily the first
                auto it = r.ends.begin();
                std::advance(it, between(rng, 0, int64_t(r.ends.size()) - 1));
                const auto [endS, unit] = *it;
                r.finish(c, unit);
                e.finished(unit, endS, c, r.placements);
            } else if (action < 8) {
                const int u = tryStart(double(step));
                if (u >= 0)
                    e.started(u, r.endOf[u], c, r.placements);
            } else { // a new head
                q = randomRequest();
                count = int32_t(between(rng, 1, 4));
                e.reset(1000 + step, q, count, c, r.ends, r.placements);
            }
        }
        QCOMPARE(checked, 300);
        QVERIFY2(finite > 30, qPrintable(QString::number(finite))); // the cases are not all "never"
    }

    void waitQueueFindsTheNextUnitThatEndsInTime()
    {
        // Units 0..5, signature 0 = {0, 2, 3, 5}, 1 = {1, 4}; FCFS entries by unit.
        sim::WaitQueue w({ 0, 1, 0, 0, 1, 0 }, 2);
        std::vector<sim::QueueEntry> entries;
        for (int32_t u = 0; u < 6; ++u)
            entries.push_back({ double(u), double(u), u });
        w.indexByRequestedTime(entries, { 100, 5, 300, 50, 7, 20 });
        QVERIFY(w.indexed());
        for (int32_t u : { 0, 1, 2, 3, 4, 5 })
            w.push(entries[std::size_t(u)], u == 5); // unit 5's first wait is still to be logged
        QCOMPARE(w.nextOfSignature(0, 60), 3); // 2 asks 300
        QCOMPARE(w.nextOfSignature(0, 10), 5); // unlogged: always a candidate
        QCOMPARE(w.nextOfSignature(3, 1000), 5);
        QCOMPARE(w.nextOfSignature(5, 1000), -1);
        QCOMPARE(w.nextOfSignature(1, 6), -1);
        QCOMPARE(w.nextOfSignature(1, 7), 4);
        w.markLogged(5);
        QCOMPARE(w.nextOfSignature(0, 10), -1); // 5 asks 20
        QCOMPARE(w.nextOfSignature(0, 20), 5);
        w.erase(3);
        QCOMPARE(w.nextOfSignature(0, 60), 5); // 3 started
        QCOMPARE(w.nextOfSignature(2, 60), 5); // from a unit still waiting
        // Awake and dormant signatures.
        QCOMPARE(int(w.awakeSignatures().size()), 2);
        w.setDormant(1);
        QCOMPARE(int(w.awakeSignatures().size()), 1);
        QCOMPARE(w.dormantSignatures(), std::vector<uint32_t> { 1 });
        w.erase(1);
        w.erase(4); // no unit of signature 1 waits: it is in neither list
        QVERIFY(w.dormantSignatures().empty());
        w.push(entries[1], false);
        QCOMPARE(int(w.awakeSignatures().size()), 2); // back, awake
    }

    void dormantFirstsAreKeptPerWalkClass()
    {
        // Units 0..6; signatures 0 = {0, 3}, 1 = {1, 5}, 2 = {2, 4, 6}; walk classes 0, 1, 1.
        sim::WaitQueue w({ 0, 1, 2, 0, 2, 1, 2 }, 3);
        w.setWalkClasses({ 0, 1, 1 }, 2);
        QCOMPARE(int(w.walkClasses()), 2);
        for (int32_t u = 0; u < 7; ++u)
            w.push({ double(u), double(u), u }, false);
        QVERIFY(!w.anyDormant());
        auto units = [&](uint8_t c) {
            std::vector<int32_t> out;
            for (const sim::QueueEntry& e : w.dormantFirsts(c))
                out.push_back(e.unit);
            return out;
        };
        w.setDormant(2);
        w.setDormant(0);
        QVERIFY(w.anyDormant());
        QCOMPARE(units(0), std::vector<int32_t> { 0 });
        QCOMPARE(units(1), std::vector<int32_t> { 2 });
        w.setDormant(1);
        QCOMPARE(units(1), (std::vector<int32_t> { 1, 2 })); // queue order within the class
        w.erase(2); // a dormant first starts (taken by other means): its next unit takes its place
        QCOMPARE(units(1), (std::vector<int32_t> { 1, 4 }));
        w.wake(1);
        QCOMPARE(units(1), std::vector<int32_t> { 4 });
        w.erase(0);
        w.erase(3); // signature 0 empty: gone from its class
        QVERIFY(units(0).empty());
        w.wakeAll();
        QVERIFY(units(1).empty());
        QVERIFY(!w.anyDormant());
    }
};

QTEST_GUILESS_MAIN(TestEasyReservation)
#include "test_easy_reservation.moc"
