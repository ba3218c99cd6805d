// A run's outputs are observers of its events (core/sim/replay_observer.h, docs/model.md §3): an
// observer the engine knows nothing of sees every cluster change and sample, its count of state
// operations is the journal's position, and watching changes nothing in the run.

#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "trace/trace_generator.h"

#include <QtTest>

using namespace schedlab;

namespace {

// An output the engine was not written for: counts events and keeps its own state position.
class Counter final : public sim::ReplayObserver {
public:
    int starts = 0, finishes = 0, samples = 0;
    int64_t allocs = 0, releases = 0, undos = 0, decisions = 0;
    int64_t position = 0, positionAtEnd = -1, stoppedBefore = -2;
    uint64_t finalHash = 0;

    void started(const cluster::ClusterState& c) override
    {
        ++starts;
        QCOMPARE(c.allocGpuMilli(), int64_t(0)); // the run starts on the empty cluster
    }
    void decided(const sim::DecidedEvent& e) override
    {
        (void)e;
        ++decisions;
    }
    void allocated(const cluster::Placement& p, const cluster::ClusterState& after) override
    {
        (void)p;
        (void)after;
        ++allocs, ++position;
    }
    void released(const cluster::Placement& p, const cluster::ClusterState& after) override
    {
        (void)p;
        (void)after;
        ++releases, ++position;
    }
    void undone(const cluster::Placement& p, const cluster::ClusterState& after) override
    {
        (void)p;
        (void)after;
        ++undos, --position;
    }
    void sampled(double x, const cluster::ClusterState& c) override
    {
        (void)x;
        (void)c;
        ++samples;
    }
    void finished(const sim::FinishedEvent& e) override
    {
        ++finishes;
        positionAtEnd = position;
        stoppedBefore = e.stoppedBefore;
        finalHash = e.cluster.stateHash();
    }
};

trace::Trace generated(int nodes, int64_t jobs, double load)
{
    trace::GeneratorOptions g;
    g.nodes = nodes;
    g.jobs = jobs;
    g.seed = 5;
    g.targetGpuLoad = load;
    auto t = trace::generateTrace(g);
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return std::move(t).value();
}

} // namespace

class TestObservers : public QObject {
    Q_OBJECT
private slots:
    void timedReplayTellsEveryChange()
    {
        const trace::Trace t = generated(16, 1500, 3); // overloaded: EASY tries and takes back
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        auto p = policy::makePlacementPolicy("bestfit");
        const sim::TimedResult plain = sim::runTimedReplay(t, *p, o).value();
        sim::StateJournal journal;
        sim::Recording rec;
        rec.journal = &journal;
        Counter c;
        auto q = policy::makePlacementPolicy("bestfit");
        const sim::TimedResult r = sim::runTimedReplay(t, *q, o, rec, { &c }).value();
        QCOMPARE(r.scheduleHash, plain.scheduleHash); // watching changes nothing
        QCOMPARE(r.decisions.size(), plain.decisions.size());
        QCOMPARE(c.starts, 1);
        QCOMPARE(c.finishes, 1);
        QCOMPARE(c.samples, int(r.series.size()));
        QVERIFY(r.heat.columns() > 0 && r.heat.columns() <= c.samples); // the heat recorder saw them too
        QVERIFY(c.undos > 0); // tentative placements taken back
        QCOMPARE(c.allocs - c.undos, c.releases); // the cluster ends empty
        QCOMPARE(c.positionAtEnd, journal.position());
        QCOMPARE(c.finalHash, r.stateHash);
        QCOMPARE(journal.stateAt(journal.position())->stateHash(), r.stateHash);
        for (const sim::Decision& d : r.decisions.decisions())
            QVERIFY(d.statePos >= 0 && d.statePos <= journal.position());
        QVERIFY(plain.decisions.decisions().front().statePos == -1); // no journal, no positions
        QVERIFY(!r.stateHashes.empty() && plain.stateHashes.empty()); // hashes need the journal
    }

    void fillExperimentTellsEveryChangeAndItsStop()
    {
        const trace::Trace t = generated(24, 1500, 1);
        sim::FillOptions o;
        o.migration = sim::Migration::Defragment; // moves: a release and an allocation each
        sim::StateJournal journal;
        sim::Recording rec;
        rec.journal = &journal;
        rec.hashEvery = 10;
        // The same hashes from the journal at the end as live at each decision.
        sim::StateHashRecorder fromJournal(10, journal);
        Counter c;
        auto p = policy::makePlacementPolicy("bestfit");
        const sim::FillResult r = sim::runFillExperiment(t, *p, o, rec, { &c, &fromJournal }).value();
        QCOMPARE(c.decisions, r.pods);
        QCOMPARE(c.allocs, r.placed + r.migrations);
        QVERIFY(r.migrations > 0);
        QCOMPARE(c.releases, r.migrations);
        QCOMPARE(c.undos, int64_t(0));
        QCOMPARE(c.positionAtEnd, journal.position());
        QCOMPARE(c.samples, int(r.curve.size()));
        QCOMPARE(c.stoppedBefore, int64_t(-1));
        QVERIFY(r.stateHashes.size() >= 10); // every 10 of ~180 pods
        QVERIFY(fromJournal.take() == r.stateHashes);
        // Stopped before decision 100: finished says so, and the hash at 100 is the state there.
        o.stopAt = 100;
        Counter s;
        auto q = policy::makePlacementPolicy("bestfit");
        const sim::FillResult stopped = sim::runFillExperiment(t, *q, o, rec, { &s }).value();
        QCOMPARE(s.finishes, 1);
        QCOMPARE(s.stoppedBefore, int64_t(100));
        QCOMPARE(s.decisions, int64_t(100));
        QCOMPARE(stopped.stateHashes.back().first, int64_t(100));
        QCOMPARE(stopped.stateHashes.back().second, stopped.state->stateHash());
        QCOMPARE(stopped.heat.columns(), 0); // a stopped run has no series
    }
};

QTEST_GUILESS_MAIN(TestObservers)
#include "test_observers.moc"
