// The learned policy's skip action (LearnedOptions::skip): level 1 skips a unit or keeps its
// turn, scored by the network on the wait and turn rows; a teacher skips while a shorter unit
// waits behind; the checkpoint keeps the skip budget. Scripted scorers (no torch in the test);
// the checkpoint case loads the torch module at run time.

#include "fn_scorer.h"
#include "trace_builder.h"

#include "rl/choice_buffer.h"
#include "rl/learned_policy.h"
#include "rl/q_network.h"
#include "sim/timed_replay.h"

#include <QtTest>

#include <functional>

using namespace schedlab;
using test::FnScorer;
using test::TraceBuilder;

namespace {

/// A (0-100) on the node's 4 cores, then B (1000 s, at 10) and C (10 s, at 20), each all 4.
trace::Trace threeJobs()
{
    TraceBuilder b;
    b.node(4000, 0, 0);
    b.task(4000, 0, 0, 0, 0, 100);
    b.task(4000, 0, 0, 0, 10, 1000);
    b.task(4000, 0, 0, 0, 20, 10);
    return b.t;
}

double startOf(const sim::TimedResult& r, int job)
{
    for (const auto& u : r.units_)
        if (u.job == job)
            return u.startS;
    qFatal("no unit of job %d", job);
}

rl::LearnedOptions skipping(int perPass = 8)
{
    rl::LearnedOptions o;
    o.skip = true;
    o.maxConsecutiveWaits = perPass;
    return o;
}

} // namespace

class TestRlSkip : public QObject {
    Q_OBJECT
private slots:
    void theNetworkDecidesOnTheWaitAndTurnRows()
    {
        const trace::Trace t = threeJobs();
        // Wait row scores feature 2 (a shorter unit behind), the turn row 0.5: skips B while C
        // waits behind it. C runs 100-110, B 110-1110 (test_skip.cpp works the same by hand).
        std::vector<std::array<float, 4>> waitRows; // features 0-3 of each wait row scored
        rl::LearnedPolicy p(std::make_unique<FnScorer>([&](const float* f) {
            if (f[10] == rl::kWaitMarker) {
                waitRows.push_back({ f[0], f[1], f[2], f[3] });
                return f[2];
            }
            return f[10] == rl::kTurnMarker ? 0.5f : 0.0f;
        }),
            skipping());
        QCOMPARE(p.skips(), 8);
        auto r = sim::runTimedReplay(t, p, {});
        QVERIFY(r.ok());
        QCOMPARE(startOf(*r, 2), 100.0);
        QCOMPARE(startOf(*r, 1), 110.0);
        // B at 20 (C behind it, 10 s < 1000 s): k = 1, log(2)/log(1001); requested 1000 s over a
        // 600 s target: 1000/1600; fits no node (A runs).
        // At 100 the same, but it fits. Only B's rows have a shorter unit behind.
        std::vector<std::array<float, 4>> ofB;
        for (const auto& w : waitRows)
            if (w[2] == 1.0f)
                ofB.push_back(w);
        QCOMPARE(int(ofB.size()), 2);
        for (const auto& w : ofB) {
            QCOMPARE(w[0], float(std::log1p(1.0) / std::log1p(1000.0)));
            QCOMPARE(w[1], float(1000.0 / 1600.0));
        }
        QCOMPARE(ofB[0][3], 0.0f);
        QCOMPARE(ofB[1][3], 1.0f);

        // A network that keeps every turn: queue order, B 100-1100, C 1100-1110.
        rl::LearnedPolicy keep(std::make_unique<FnScorer>([](const float* f) { return f[10] == rl::kTurnMarker ? 1.0f : 0.0f; }),
            skipping());
        auto k = sim::runTimedReplay(t, keep, {});
        QVERIFY(k.ok());
        QCOMPARE(startOf(*k, 1), 100.0);
        QCOMPARE(startOf(*k, 2), 1100.0);
        // Without the option there is no skip, whatever the network.
        rl::LearnedPolicy plain(std::make_unique<FnScorer>([](const float* f) { return f[10] == rl::kWaitMarker ? 1.0f : 0.0f; }),
            rl::LearnedOptions {});
        QCOMPARE(plain.skips(), 0);
        auto q = sim::runTimedReplay(t, plain, {});
        QVERIFY(q.ok());
        QCOMPARE(startOf(*q, 2), 1100.0);
    }

    void theTeacherSkipsWhileAShorterUnitWaitsBehind()
    {
        // The teacher decides (a pre-training round): the same schedule as shortest job first,
        // and its level-1 choices go to the sink as two rows, the chosen first.
        const trace::Trace t = threeJobs();
        rl::ChoiceBuffer buffer(1, 16);
        rl::LearnedPolicy p(std::make_unique<FnScorer>([](const float*) { return 0.0f; }), skipping());
        p.setTeacher(policy::makePlacementPolicy("bestfit"), &buffer);
        auto r = sim::runTimedReplay(t, p, {});
        QVERIFY(r.ok());
        QCOMPARE(startOf(*r, 2), 100.0);
        QCOMPARE(startOf(*r, 1), 110.0);
        int skips = 0, turns = 0;
        for (std::size_t d = 0; d < buffer.decisions(); ++d) {
            const float* first = buffer.rows(d);
            if (buffer.size(d) != 2 || (first[10] != rl::kWaitMarker && first[10] != rl::kTurnMarker))
                continue; // a node choice
            const float* other = first + rl::kFeatureCount;
            QCOMPARE(other[10], first[10] == rl::kWaitMarker ? rl::kTurnMarker : rl::kWaitMarker);
            if (first[10] == rl::kWaitMarker) {
                QCOMPARE(first[2], 1.0f); // only with a shorter unit behind
                ++skips;
            } else {
                QCOMPARE(first[2], 0.0f);
                ++turns;
            }
        }
        // B skipped at 20 and at 100; A at 0, B at 10, C at 20 and 100, B at 110 keep their turn.
        QCOMPARE(skips, 2);
        QCOMPARE(turns, 5);
    }

    void theCheckpointKeepsTheSkipBudget()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.slq").toStdString();
        auto net = rl::QNetwork::create(5);
        QVERIFY2(net.ok(), net.ok() ? "" : net.error().toString().c_str());
        QCOMPARE(net.value()->skipWaits(), 0);
        net.value()->setSkipWaits(16);
        QVERIFY(net.value()->save(path).ok());
        auto back = rl::QNetwork::load(path);
        QVERIFY(back.ok());
        QCOMPARE(back.value()->skipWaits(), 16);
        QCOMPARE(back.value()->cloneNetwork()->skipWaits(), 16);
        auto made = rl::makeModelPolicy("learned:" + path);
        QVERIFY(made.ok());
        QCOMPARE(made.value()->skips(), 16); // a replay of it skips as it was trained to

        auto plainNet = rl::QNetwork::create(5);
        QVERIFY(plainNet.ok());
        const std::string plainPath = dir.filePath("p.slq").toStdString();
        QVERIFY(plainNet.value()->save(plainPath).ok());
        auto plain = rl::makeModelPolicy("learned:" + plainPath);
        QVERIFY(plain.ok());
        QCOMPARE(plain.value()->skips(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRlSkip)
#include "test_rl_skip.moc"
