// Incident replay (core/incident, sim::StateJournal): rebuilt states against hand-computed ones
// and against replays stopped at the decision, logs that do not match, forks, incident detection.

#include "trace_builder.h"

#include "incident/fork.h"
#include "incident/incidents.h"
#include "incident/run_index.h"
#include "store/run_spec_codec.h"
#include "sim/state_journal.h"
#include "trace/trace_generator.h"

#include <QtTest>

#include <random>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {

std::shared_ptr<const trace::Trace> generated(int nodes, int64_t jobs, uint64_t seed = 3)
{
    trace::GeneratorOptions g;
    g.nodes = nodes;
    g.jobs = jobs;
    g.seed = seed;
    auto t = trace::generateTrace(g);
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return std::make_shared<const trace::Trace>(std::move(t).value());
}

std::shared_ptr<const incident::RunIndex> mustIndex(std::shared_ptr<const trace::Trace> t, const sim::RunSpec& spec,
    const sim::DecisionLog* recorded = nullptr)
{
    auto i = incident::buildRunIndex(std::move(t), spec, recorded);
    if (!i)
        qFatal("%s", i.error().toString().c_str());
    return i.value();
}

sim::RunSpec timedSpec(const std::string& policy, sim::Backfill bf = sim::Backfill::None)
{
    sim::TimedOptions o;
    o.backfill = bf;
    return sim::RunSpec::timed(policy, o);
}

// Every pod of the generated traces (they ask for far more than the ratio): long runs to seek in.
sim::RunSpec fillSpec(const std::string& policy)
{
    sim::FillOptions o;
    o.trimAboveRatio = false;
    return sim::RunSpec::fill(policy, o);
}

} // namespace

class TestIncident : public QObject {
    Q_OBJECT
private slots:
    void journalRebuildsEveryPosition()
    {
        TraceBuilder b;
        b.node(8000, 8000, 4).node(4000, 4000, 2);
        cluster::ClusterState live(b.t);
        sim::StateJournal j(1); // a snapshot after every op at first, thinned as it grows
        j.begin(live);
        std::vector<uint64_t> hashes { live.stateHash() };
        std::vector<cluster::Placement> running;
        std::mt19937 rng(7);
        for (int op = 0; op < 2000; ++op) {
            if (!running.empty() && (rng() % 2 == 0 || running.size() > 6)) {
                const std::size_t i = rng() % running.size();
                live.release(running[i]);
                j.release(running[i], live);
                running.erase(running.begin() + long(i));
            } else {
                const int n = int(rng() % 2);
                const trace::TaskRequest r { 500, 500, 0, 0, 0 };
                if (!live.fits(n, r)) {
                    --op;
                    continue;
                }
                const cluster::Placement p = live.makePlacement(n, r, 0);
                live.allocate(p);
                j.allocate(p, live);
                running.push_back(p);
            }
            hashes.push_back(live.stateHash());
        }
        QCOMPARE(j.position(), int64_t(2000));
        QVERIFY(j.snapshotCount() <= sim::StateJournal::kMaxSnapshots);
        QVERIFY(j.spacing() >= 8); // 2000 ops with at most 256 snapshots
        for (int64_t p = 0; p <= j.position(); ++p)
            QCOMPARE(j.stateAt(p)->stateHash(), hashes[std::size_t(p)]);
    }

    void timedStatesAreWhatEachDecisionSaw()
    {
        // One node of 4 cores, FCFS, no backfill. A (t0, 2 cores, 10 s), B (t1, 4 cores, 5 s),
        // C (t2, 1 core, 3 s), D (t3, 2 cores, 20 s). Decisions and the free cores each saw:
        //   0 A placed t0 (4000)  1 B waits t1 (2000, A runs)  2 B placed t10 (4000, A done)
        //   3 C waits t10 (0, B runs; D is behind C and not tried)  4 C placed t15 (4000)
        //   5 D placed t15 (3000, C runs)
        TraceBuilder b;
        b.node(4000, 1000, 0);
        b.task(2000, 0, 0, 0, 0, 10).task(4000, 0, 0, 0, 1, 5).task(1000, 0, 0, 0, 2, 3).task(2000, 0, 0, 0, 3, 20);
        auto t = std::make_shared<const trace::Trace>(b.t);
        auto index = mustIndex(t, timedSpec("firstfit"));
        const auto& ds = index->decisions.decisions();
        QCOMPARE(ds.size(), std::size_t(6));
        const int job[] = { 0, 1, 1, 2, 2, 3 };
        const sim::Outcome out[] = { sim::Outcome::Placed, sim::Outcome::Waited, sim::Outcome::Placed, sim::Outcome::Waited,
            sim::Outcome::Placed, sim::Outcome::Placed };
        const double time[] = { 0, 1, 10, 10, 15, 15 };
        const int64_t freeCpu[] = { 4000, 2000, 4000, 0, 4000, 3000 };
        for (int k = 0; k < 6; ++k) {
            auto in = incident::inspect(*index, k);
            QVERIFY(in);
            QCOMPARE(in->decision.job, job[k]);
            QCOMPARE(in->decision.outcome, out[k]);
            QCOMPARE(in->decision.timeS, time[k]);
            QCOMPARE(in->state->freeCpu(0), freeCpu[k]);
            if (out[k] == sim::Outcome::Placed)
                QCOMPARE(in->rankOfChoice, 1);
        }
        // Nearest decision: the first one at the nearest time.
        QCOMPARE(incident::nearestDecision(*index, -5), int64_t(0));
        QCOMPARE(incident::nearestDecision(*index, 9), int64_t(2));
        QCOMPARE(incident::nearestDecision(*index, 12), int64_t(2));
        QCOMPARE(incident::nearestDecision(*index, 13), int64_t(4));
        QCOMPARE(incident::nearestDecision(*index, 1e9), int64_t(4));
        QVERIFY(!incident::inspect(*index, 6));
        QVERIFY(!incident::inspect(*index, -1));
    }

    void journalTakesBackRolledBackAllocations()
    {
        TraceBuilder b;
        b.node(4000, 4000, 2);
        cluster::ClusterState live(b.t);
        sim::StateJournal j(2);
        j.begin(live);
        const trace::TaskRequest r { 1000, 1000, 1, 500, 0 };
        const cluster::Placement a = live.makePlacement(0, r, 1), c = live.makePlacement(0, r, 2);
        live.allocate(a);
        j.allocate(a, live);
        const uint64_t afterA = live.stateHash();
        live.allocate(c);
        j.allocate(c, live); // a snapshot after 2 ops
        live.release(c);
        j.undoAllocate(c, live); // taken back, with its snapshot
        QCOMPARE(j.position(), int64_t(1));
        QCOMPARE(j.snapshotCount(), std::size_t(1));
        QCOMPARE(j.stateAt(1)->stateHash(), afterA);
        live.allocate(c);
        j.allocate(c, live);
        live.release(a);
        j.undoAllocate(a, live); // not the last operation: recorded as a release
        QCOMPARE(j.position(), int64_t(3));
        QCOMPARE(j.stateAt(3)->stateHash(), live.stateHash());
        QCOMPARE(j.stateAt(1)->stateHash(), afterA);
    }

    void aWaitingGangSeesItsTentativeTasks()
    {
        // Two nodes of 2000 m cpu. X (t0, 1000 m, 100 s) goes on node 0 (first fit). A (t1) is a
        // gang of two 1500 m tasks: task 0 goes on node 1, task 1 fits nowhere, A waits; its wait
        // decision saw node 0 with 1000 m and node 1 with 500 m free (its own task 0 tentatively
        // placed). At t100 X ends; A's task 0 sees both nodes free and goes on node 0, task 1 sees
        // node 0 with 500 m and goes on node 1.
        TraceBuilder b;
        b.node(2000, 1000, 0).node(2000, 1000, 0);
        b.task(1000, 0, 0, 0, 0, 100).task(1500, 0, 0, 0, 1, 10);
        trace::Trace t = b.t;
        t.tasks.push_back(t.tasks[1]);
        t.jobs[1].taskCount = 2;
        t.jobs[1].gang = true;
        auto index = mustIndex(std::make_shared<const trace::Trace>(t), timedSpec("firstfit"));
        const auto& ds = index->decisions.decisions();
        QCOMPARE(ds.size(), std::size_t(4));
        const sim::Outcome out[] = { sim::Outcome::Placed, sim::Outcome::Waited, sim::Outcome::Placed, sim::Outcome::Placed };
        const int node[] = { 0, -1, 0, 1 };
        const int64_t free0[] = { 2000, 1000, 2000, 500 }, free1[] = { 2000, 500, 2000, 2000 };
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(ds[std::size_t(k)].outcome, out[k]);
            QCOMPARE(ds[std::size_t(k)].node, node[k]);
            auto in = incident::inspect(*index, k);
            QVERIFY(in);
            QCOMPARE(in->state->freeCpu(0), free0[k]);
            QCOMPARE(in->state->freeCpu(1), free1[k]);
        }
    }

    void runOptionsKeepTheTieRule()
    {
        // What a stored run records is what its incident replay redoes: each tie rule round-trips.
        for (policy::TieBreak tie : policy::kTieBreaks) {
            store::RunRow row;
            row.id = 7;
            row.seed = 44;
            row.mode = "fill";
            sim::FillOptions f;
            f.tieBreak = tie;
            f.ratio = 1.1;
            row.optionsJson = store::optionsJson(sim::RunSpec::fill("bestfit", f));
            auto fill = store::specFromRow(row);
            QVERIFY(fill.ok());
            QCOMPARE(fill->fillOptions()->tieBreak, tie);
            QCOMPARE(fill->fillOptions()->ratio, 1.1);
            QCOMPARE(fill->fillOptions()->seed, uint64_t(44));
            row.mode = "timed";
            row.queue = "fcfs";
            row.backfill = "easy";
            sim::TimedOptions t;
            t.tieBreak = tie;
            row.optionsJson = store::optionsJson(sim::RunSpec::timed("bestfit", t));
            auto timed = store::specFromRow(row);
            QVERIFY(timed.ok());
            QCOMPARE(timed->timedOptions()->tieBreak, tie);
        }
        QCOMPARE(sim::FillOptions {}.tieBreak, policy::TieBreak::Order);
        QCOMPARE(sim::TimedOptions {}.tieBreak, policy::TieBreak::Random);
        store::RunRow old;
        old.id = 3;
        old.mode = "fill";
        old.optionsJson = R"({"ratio":1.3})"; // stored before the rule was recorded: random ties then
        auto o = store::specFromRow(old);
        QVERIFY(o.ok());
        QCOMPARE(o->fillOptions()->tieBreak, policy::TieBreak::Random);
        old.optionsJson = R"({"ratio":1.3,"tieBreak":"sideways"})";
        auto bad = store::specFromRow(old);
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("run 3") != std::string::npos);
        QVERIFY(bad.error().message.find("sideways") != std::string::npos);
    }

    void fillStatesMatchAReplayStoppedThere()
    {
        auto t = generated(24, 1500);
        auto index = mustIndex(t, fillSpec("fgd"));
        const int64_t n = int64_t(index->decisions.size());
        QVERIFY(n > 1500);
        for (int64_t k : { int64_t(0), int64_t(1), int64_t(777), n / 2, n - 1 }) {
            auto p = policy::makePlacementPolicy("fgd");
            sim::FillOptions o = *fillSpec("fgd").fillOptions();
            o.stopAt = k;
            sim::Recording rec;
            rec.decisions = false;
            auto stopped = sim::runFillExperiment(*t, *p, o, rec);
            QVERIFY(stopped && stopped->state);
            auto in = incident::inspect(*index, k);
            QVERIFY(in);
            QCOMPARE(in->state->stateHash(), stopped->state->stateHash());
            QCOMPARE(int64_t(in->decision.task), stopped->podIndexStopped);
        }
    }

    void timedStatesMatchTheRecordedPlacements()
    {
        // Every placed decision's node fits its request in the rebuilt state, and the state after
        // the last operation is the run's final state.
        auto t = generated(12, 800);
        auto index = mustIndex(t, timedSpec("bestfit", sim::Backfill::Easy));
        const auto& ds = index->decisions.decisions();
        QVERIFY(ds.size() > 800);
        int placed = 0;
        for (std::size_t k = 0; k < ds.size(); ++k) {
            if (ds[k].outcome != sim::Outcome::Placed)
                continue;
            auto st = index->journal.stateAt(ds[k].statePos);
            QVERIFY2(st->fits(ds[k].node, t->tasks[std::size_t(ds[k].task)].request), qPrintable(QString::number(k)));
            ++placed;
        }
        QVERIFY(placed >= 800);
        QCOMPARE(index->journal.stateAt(index->journal.position())->stateHash(), index->timed->stateHash);
    }

    void aDifferentLogIsRefused()
    {
        auto t = generated(12, 600);
        auto recorded = mustIndex(t, timedSpec("bestfit"));
        auto other = incident::buildRunIndex(t, timedSpec("worstfit"), &recorded->decisions);
        QVERIFY(!other);
        QVERIFY2(QString::fromStdString(other.error().message).contains("departs from the run's decision log at decision"),
            other.error().message.c_str());
        QVERIFY(incident::buildRunIndex(t, timedSpec("bestfit"), &recorded->decisions));
        QVERIFY(!incident::buildRunIndex(t, timedSpec("no-such-policy")));
    }

    void rescoringUnderTheRunsPolicyAgreesWithTheLog()
    {
        auto t = generated(16, 400);
        sim::RunSpec spec = fillSpec("bestfit");
        spec.fillOptions()->tieBreak = policy::TieBreak::First;
        auto index = mustIndex(t, spec);
        int checked = 0;
        for (int64_t k = 0; k < int64_t(index->decisions.size()); k += 37) {
            auto in = incident::inspect(*index, k, { "bestfit", "firstfit" });
            QVERIFY(in);
            QCOMPARE(in->rescored.size(), std::size_t(2));
            // every node has one reason; those that fit are the feasible ones the policy saw
            int nodes = 0;
            for (int m : in->misfits)
                nodes += m;
            QCOMPARE(nodes, int(t->nodes.size()));
            QCOMPARE(in->misfits[0], in->decision.feasible);
            if (in->decision.outcome != sim::Outcome::Placed)
                continue;
            QCOMPARE(in->rescored[0].decision.node, in->decision.node);
            QCOMPARE(in->rescored[0].rankOfLogged, 1);
            ++checked;
        }
        QVERIFY(checked > 3);
        QVERIFY(!incident::inspect(*index, 0, { "nosuch" }));
    }

    void forksStartFromTheRecordedState()
    {
        auto t = generated(12, 700);
        // Timed: a fork at decision 0 under B is a plain run of B; under the run's own policy nothing changes.
        auto timed = mustIndex(t, timedSpec("firstfit", sim::Backfill::Easy));
        auto plainB = mustIndex(t, timedSpec("bestfit", sim::Backfill::Easy));
        auto f0 = incident::forkRun(*timed, 0, "bestfit");
        QVERIFY(f0);
        QCOMPARE(f0->timed->stateHash, plainB->timed->stateHash);
        QCOMPARE(f0->timed->waitS.p99, plainB->timed->waitS.p99);
        QCOMPARE(f0->deltas[0].id, std::string("p99WaitS"));
        QCOMPARE(f0->deltas[0].fork, plainB->timed->waitS.p99);
        QCOMPARE(f0->deltas[0].original, timed->timed->waitS.p99);
        const int64_t mid = int64_t(timed->decisions.size() / 2);
        auto same = incident::forkRun(*timed, mid, "firstfit");
        QVERIFY(same);
        for (const incident::ForkDelta& d : same->deltas)
            QVERIFY2(d.delta() == 0, d.metric.c_str());
        // Fill: the same, and a window stops the fork after that many pods.
        auto fill = mustIndex(t, fillSpec("bestfit"));
        auto fillB = mustIndex(t, fillSpec("worstfit"));
        auto g0 = incident::forkRun(*fill, 0, "worstfit");
        QVERIFY(g0);
        QCOMPARE(g0->fill->stateHash, fillB->fill->stateHash);
        auto w = incident::forkRun(*fill, 100, "bestfit", 50);
        QVERIFY(w);
        QCOMPARE(w->fill->pods, int64_t(150));
        for (const incident::ForkDelta& d : w->deltas)
            QVERIFY2(std::abs(d.delta()) < 1e-9, d.metric.c_str());
        QVERIFY(!incident::forkRun(*fill, int64_t(fill->decisions.size()), "bestfit"));
        QVERIFY(!incident::forkRun(*fill, 5, "nosuch"));
    }

    void aStoredJournalGivesTheSameIndexAndIsChecked()
    {
        auto t = generated(12, 1500); // over 1000 decisions in both modes: a recorded state hash each
        for (bool fill : { false, true }) {
            sim::RunSpec spec = fill ? fillSpec("bestfit") : timedSpec("firstfit", sim::Backfill::Easy);
            auto replayed = mustIndex(t, spec);
            // what a project stores: the journal's ops, each decision's position, the final hash
            store::StoredJournal stored;
            stored.ops = replayed->journal.ops();
            for (const sim::Decision& d : replayed->decisions.decisions())
                stored.statePos.push_back(d.statePos);
            stored.finalHash = fill ? replayed->fill->stateHash : replayed->timed->stateHash;
            sim::DecisionLog log = replayed->decisions; // as read back (positions overwritten)
            const std::vector<std::pair<int64_t, uint64_t>> hashes = fill ? replayed->fill->stateHashes : replayed->timed->stateHashes;
            QVERIFY(!hashes.empty());
            auto index = incident::indexFromJournal(t, spec, log, stored, replayed->fill, replayed->timed, hashes);
            QVERIFY2(index, index ? "" : index.error().toString().c_str());
            QVERIFY(index.value()->fromStoredJournal);
            QCOMPARE(index.value()->hashesVerified, int(hashes.size()));
            for (int64_t k = 0; k < int64_t(log.size()); k += 13)
                QCOMPARE(incident::inspect(*index.value(), k)->state->stateHash(), incident::inspect(*replayed, k)->state->stateHash());
            // tampered journals are refused with a reason
            store::StoredJournal badNode = stored;
            badNode.ops[3].placement.node = 999;
            auto e1 = incident::indexFromJournal(t, spec, log, badNode, replayed->fill, replayed->timed, hashes);
            QVERIFY(!e1 && e1.error().message.find("no such node") != std::string::npos);
            store::StoredJournal badHash = stored;
            badHash.finalHash ^= 1;
            auto e2 = incident::indexFromJournal(t, spec, log, badHash, replayed->fill, replayed->timed, hashes);
            QVERIFY(!e2 && e2.error().message.find("final state") != std::string::npos);
            store::StoredJournal badPos = stored;
            badPos.statePos.back() = int64_t(stored.ops.size()) + 1;
            QVERIFY(!incident::indexFromJournal(t, spec, log, badPos, replayed->fill, replayed->timed, hashes));
            store::StoredJournal shortPos = stored;
            shortPos.statePos.pop_back();
            QVERIFY(!incident::indexFromJournal(t, spec, log, shortPos, replayed->fill, replayed->timed, hashes));
            store::StoredJournal overRelease = stored;
            for (auto& op : overRelease.ops)
                if (!op.release) {
                    op.release = true; // a release of what was never allocated
                    break;
                }
            QVERIFY(!incident::indexFromJournal(t, spec, log, overRelease, replayed->fill, replayed->timed, hashes));
        }
    }

    void incidentsOfAHandMadeRun()
    {
        // Series every 10 min, window 1 h, SLA 1 h: p99 0,0,...; at 5 h it jumps to 2 h for 3 ticks.
        auto idx = std::make_shared<incident::RunIndex>();
        TraceBuilder b;
        b.node(1000, 1000, 0);
        for (int i = 0; i < 10; ++i)
            b.task(100, 0, 0, 0, 18000 + i, 10);
        idx->trace = std::make_shared<const trace::Trace>(b.t);
        auto r = std::make_shared<sim::TimedResult>();
        for (int i = 0; i <= 60; ++i) {
            sim::SeriesPoint p;
            p.timeS = 600.0 * i;
            p.p99WaitS = (i >= 30 && i < 33) ? 7200 : 60;
            p.gpuFragRate = i == 45 ? 0.30 : 0.10; // a 20-point spike at 7.5 h
            r->series.push_back(p);
        }
        // Ten jobs started 2 h late in the 6th hour: SLA violations.
        for (int i = 0; i < 10; ++i) {
            sim::UnitResult u;
            u.job = i;
            u.submitS = 18000 + i;
            u.startS = 18000 + i + 7200 - 3600; // 1 h late: not above the 1 h limit
            if (i < 6)
                u.startS = 18000 + i + 7201;
            r->units_.push_back(u);
        }
        idx->timed = r;
        for (int i = 0; i < 5; ++i) {
            sim::Decision d;
            d.timeS = 100.0 * i + (i >= 2 ? 20000 : 0);
            d.task = 0;
            d.outcome = i >= 2 ? sim::Outcome::Failed : sim::Outcome::Placed;
            idx->decisions.add(d, {});
        }
        const auto list = incident::findIncidents(*idx);
        std::map<incident::IncidentKind, std::vector<incident::Incident>> by;
        for (const auto& i : list)
            by[i.kind].push_back(i);
        QCOMPARE(by[incident::IncidentKind::P99Above].size(), std::size_t(1));
        QCOMPARE(by[incident::IncidentKind::P99Above][0].startX, 18000.0);
        QCOMPARE(by[incident::IncidentKind::P99Above][0].endX, 19200.0);
        QCOMPARE(by[incident::IncidentKind::P99Above][0].peak, 7200.0);
        QCOMPARE(by[incident::IncidentKind::P99Jump].size(), std::size_t(1)); // 7200 >= 3 x 60, once
        QCOMPARE(by[incident::IncidentKind::P99Jump][0].startX, 18000.0);
        QCOMPARE(by[incident::IncidentKind::FragSpike].size(), std::size_t(1));
        QCOMPARE(by[incident::IncidentKind::FragSpike][0].startX, 27000.0);
        QVERIFY(std::abs(by[incident::IncidentKind::FragSpike][0].peak - 20.0) < 1e-9);
        QCOMPARE(by[incident::IncidentKind::SlaViolations].size(), std::size_t(1));
        QCOMPARE(by[incident::IncidentKind::SlaViolations][0].peak, 6.0);
        QCOMPARE(by[incident::IncidentKind::FailureBurst].size(), std::size_t(1));
        QCOMPARE(by[incident::IncidentKind::FailureBurst][0].peak, 3.0);
        QCOMPARE(by[incident::IncidentKind::FailureBurst][0].decision, int64_t(2));
        QCOMPARE(by[incident::IncidentKind::P99Above][0].decision, int64_t(2)); // nearest to 18000 s: the failure at 20000 s
        for (std::size_t i = 1; i < list.size(); ++i)
            QVERIFY(list[i - 1].startX <= list[i].startX);
    }
};

QTEST_GUILESS_MAIN(TestIncident)
#include "test_incident.moc"
