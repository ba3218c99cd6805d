// Making room in the timed replay: Kubernetes-style preemption and defragmenting migration, on
// tiny clusters worked by hand (GPU counts only; every task asks 1000 cpu).

#include "trace_builder.h"

#include "policy/placement_policy.h"
#include "sim/fill_experiment.h"
#include "sim/state_journal.h"
#include "sim/timed_replay.h"

#include <QtTest>

using namespace schedlab;
using test::TraceBuilder;

namespace {

sim::TimedResult mustRun(const trace::Trace& t, sim::TimedOptions o, const std::string& policyName = "firstfit",
    const sim::Recording& recording = {})
{
    auto p = policy::makePlacementPolicy(policyName);
    auto r = sim::runTimedReplay(t, *p, o, recording);
    if (!r)
        qFatal("replay failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}

const sim::UnitResult& unitOf(const sim::TimedResult& r, int job)
{
    for (const auto& u : r.units_)
        if (u.job == job)
            return u;
    qFatal("no unit of job %d", job);
}

/// A job of `gpus` whole GPUs submitted at `submitS`, running `runS`, with `priority`.
void gpuJob(TraceBuilder& b, int gpus, double submitS, double runS, int32_t priority = 0)
{
    b.task(1000, 0, gpus, 1000, submitS, runS);
    b.t.jobs.back().priority = priority;
}

std::vector<sim::Decision> decisionsWith(const sim::TimedResult& r, sim::Outcome o)
{
    std::vector<sim::Decision> out;
    for (const sim::Decision& d : r.decisions.decisions())
        if (d.outcome == o)
            out.push_back(d);
    return out;
}

} // namespace

class TestRoom : public QObject {
    Q_OBJECT
private slots:
    void preemptionEvictsTheFewestLessImportant()
    {
        // One node of 4 GPUs. A (priority 0, 1 GPU) and B (priority 1, 1 GPU) run from 0 to 100;
        // D (priority 5, 3 GPUs) arrives at 10. Evicting both frees 4 GPUs; B, the more
        // important, is reprieved first (3 free with it back: D fits), A is not: A is the only
        // victim. D runs 10-60; A queues again and starts when D ends: 60-160.
        TraceBuilder b;
        b.node(64000, 0, 4);
        gpuJob(b, 1, 0, 100, 0);
        gpuJob(b, 1, 0, 100, 1);
        gpuJob(b, 3, 10, 50, 5);
        sim::TimedOptions o;
        o.preemption = sim::Preemption::Priority;
        const sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.preemptions, int64_t(1));
        QCOMPARE(unitOf(r, 1).startS, 0.0);
        QCOMPARE(unitOf(r, 1).finishS, 100.0);
        QCOMPARE(unitOf(r, 2).startS, 10.0);
        QCOMPARE(unitOf(r, 0).startS, 60.0);
        QCOMPARE(unitOf(r, 0).finishS, 160.0);
        QCOMPARE(r.completed, int64_t(3));
        QCOMPARE(r.workLostGpuHours, 10.0 / 3600); // A ran 10 s on 1 GPU
        QCOMPARE(r.workLostCpuHours, 10.0 / 3600); // and 1 core
        const auto evicted = decisionsWith(r, sim::Outcome::Evicted);
        QCOMPARE(int(evicted.size()), 1);
        QCOMPARE(evicted[0].job, 0);
        QCOMPARE(evicted[0].timeS, 10.0);
        QCOMPARE(evicted[0].node, 0);
        QCOMPARE(r.stateHash, mustRun(b.t, {}).stateHash); // the cluster ends empty either way

        // Without preemption D waits for A and B: 100-150. Capacity held it (2 GPUs free, 3
        // asked), not placement: it does not count as blocked with room.
        const sim::TimedResult plain = mustRun(b.t, {});
        QCOMPARE(plain.preemptions, int64_t(0));
        QCOMPARE(unitOf(plain, 2).startS, 100.0);
        QCOMPARE(plain.gpuBlockedWithRoom, int64_t(0));
    }

    void preemptionPicksTheNodeByKubernetesCriteria()
    {
        // n0 holds A (priority 0) and B (priority 1), 2 GPUs each; n1 holds C (priority 0, 4 GPUs).
        // D (priority 5, 4 GPUs) at 10: on n0 the victims would be {A, B} (highest priority 1),
        // on n1 {C} (highest 0): n1 wins. An equal priority never preempts: E (priority 0,
        // 4 GPUs) at 20 waits, although C's priority equals its own.
        TraceBuilder b;
        b.node(64000, 0, 4).node(64000, 0, 4);
        gpuJob(b, 2, 0, 100, 0);
        gpuJob(b, 2, 0, 100, 1);
        gpuJob(b, 4, 0, 100, 0);
        gpuJob(b, 4, 10, 50, 5);
        gpuJob(b, 4, 20, 10, 0);
        sim::TimedOptions o;
        o.preemption = sim::Preemption::Priority;
        const sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.preemptions, int64_t(1));
        const auto evicted = decisionsWith(r, sim::Outcome::Evicted);
        QCOMPARE(evicted.front().job, 2);
        QCOMPARE(evicted.front().node, 1);
        QCOMPARE(unitOf(r, 3).startS, 10.0);
        QCOMPARE(unitOf(r, 0).startS, 0.0);
        QCOMPARE(unitOf(r, 1).startS, 0.0);
        // n1 frees at 60 (D ends): C (submitted first) and E queue for it; FCFS: C 60-160, then E
        // when n0 frees at 100: 100-110.
        QCOMPARE(unitOf(r, 2).startS, 60.0);
        QCOMPARE(unitOf(r, 4).startS, 100.0);
        QCOMPARE(r.workLostGpuHours, 10.0 * 4 / 3600);
    }

    void migrationMovesTheSmallestTaskThatFreesANode()
    {
        // Two nodes of 4 GPUs. X (3 GPUs, 0-5) and A (1 GPU, 0-100) go to n0, B (2 GPUs, 0-100) to
        // n1. At 10 D (4 GPUs) finds 3 free on n0 and 2 on n1. Moving A (the smallest) to n1
        // frees n0: D runs there 10-60; A restarts on n1 and ends 60 s later, at 160.
        TraceBuilder b;
        b.node(64000, 0, 4).node(64000, 0, 4);
        gpuJob(b, 3, 0, 5);
        gpuJob(b, 1, 0, 100);
        gpuJob(b, 2, 0, 100);
        gpuJob(b, 4, 10, 50);
        sim::TimedOptions o;
        o.migration = sim::Migration::Defragment;
        const sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.migrations, int64_t(1));
        QCOMPARE(r.preemptions, int64_t(0));
        QCOMPARE(unitOf(r, 3).startS, 10.0);
        QCOMPARE(unitOf(r, 1).startS, 0.0); // a move keeps its start (its wait is unchanged)
        QCOMPARE(unitOf(r, 1).finishS, 160.0);
        QCOMPARE(r.workLostGpuHours, 60.0 / 3600);
        const auto moved = decisionsWith(r, sim::Outcome::Migrated);
        QCOMPARE(int(moved.size()), 1);
        QCOMPARE(moved[0].job, 1);
        QCOMPARE(moved[0].node, 1);
        QCOMPARE(moved[0].timeS, 10.0);
        QCOMPARE(r.completed, int64_t(4));
        QCOMPARE(r.gpuBlockedWithRoom, int64_t(0)); // the move started it at once
        // Its candidates: the destinations (only n1 has room: 2 free, 1 left after it).
        QCOMPARE(moved[0].feasible, 1);
        QCOMPARE(int(moved[0].candidateCount), 1);
        const policy::Candidate* top = r.decisions.candidatesOf(moved[0]);
        QCOMPARE(top[0].node, 1);
        QCOMPARE(top[0].raw, 1000.0);
        // With a journal, the state the move saw still has A on n0 (3 GPUs free there, 2 on n1).
        sim::StateJournal journal;
        sim::Recording withJournal;
        withJournal.journal = &journal;
        const sim::TimedResult j = mustRun(b.t, o, "firstfit", withJournal);
        const sim::Decision mj = decisionsWith(j, sim::Outcome::Migrated).front(); // a copy: the vector is a temporary
        const auto seen = journal.stateAt(mj.statePos);
        QCOMPARE(seen->freeGpuMilli(0), int64_t(3000));
        QCOMPARE(seen->freeGpuMilli(1), int64_t(2000));

        // The restart cost is an option; without migration D waits for A or B: 100-150.
        o.migrationRestartS = 30;
        QCOMPARE(unitOf(mustRun(b.t, o), 1).finishS, 130.0);
        const sim::TimedResult plain = mustRun(b.t, {});
        QCOMPARE(unitOf(plain, 3).startS, 100.0);
        // There D headed the queue from 10 to 100 with 5 GPUs free in all (3 + 2) for its 4, and
        // the cpu too: blocked with room, counted once over its passes.
        QCOMPARE(plain.gpuBlockedWithRoom, int64_t(1));
    }

    void migrationBudgetPerHour()
    {
        // Twice the situation above, an hour apart and then twice within one hour: with a budget
        // of one migration an hour, the third D waits for its node instead.
        TraceBuilder b;
        b.node(64000, 0, 4).node(64000, 0, 4);
        for (double at : { 0.0, 3600.0, 4000.0 }) {
            gpuJob(b, 3, at, 5);
            gpuJob(b, 1, at, 100);
            gpuJob(b, 2, at, 100);
            gpuJob(b, 4, at + 10, 50);
        }
        sim::TimedOptions o;
        o.migration = sim::Migration::Defragment;
        QCOMPARE(mustRun(b.t, o).migrations, int64_t(3));
        o.migrationsPerHour = 1;
        const sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.migrations, int64_t(2));
        QCOMPARE(unitOf(r, 11).startS, 4100.0); // the third D: after A and B end at 4100
        // The GPU jobs held by placement: none with moves, the third D at the budget, all three
        // without migration.
        o.migrationsPerHour = 0;
        QCOMPARE(mustRun(b.t, o).gpuBlockedWithRoom, int64_t(0));
        QCOMPARE(r.gpuBlockedWithRoom, int64_t(1));
        QCOMPARE(mustRun(b.t, {}).gpuBlockedWithRoom, int64_t(3));
    }

    void fillMovesAPodWhenThatLetsTheFailedOneFit()
    {
        // Two nodes of 4 GPUs, pods of 1, 1, 3 and 3 GPUs (ratio 1: the list fills the cluster
        // exactly). First fit fails only in the order 1, 1, 3, 3 (both 1s on n0, a 3 on n1, the
        // last 3 finds 2 + 1 free): moving a 1 to n1 frees n0 for it. Any order then places all.
        TraceBuilder b;
        b.node(64000, 0, 4).node(64000, 0, 4);
        for (int gpus : { 1, 1, 3, 3 })
            b.task(1000, 0, gpus, 1000);
        int failedWithout = 0, migrated = 0;
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            sim::FillOptions o;
            o.ratio = 1.0;
            o.seed = seed;
            auto p = policy::makePlacementPolicy("firstfit");
            auto plain = sim::runFillExperiment(b.t, *p, o);
            QVERIFY(plain.ok());
            QCOMPARE(plain->pods, int64_t(4));
            QCOMPARE(plain->migrations, int64_t(0));
            failedWithout += int(plain->failed);
            o.migration = sim::Migration::Defragment;
            sim::StateJournal journal;
            sim::Recording rec;
            rec.journal = &journal;
            auto q = policy::makePlacementPolicy("firstfit");
            auto moved = sim::runFillExperiment(b.t, *q, o, rec);
            QVERIFY(moved.ok());
            QCOMPARE(moved->failed, int64_t(0));
            QCOMPARE(moved->finalGpuAllocPct, 100.0);
            QCOMPARE(moved->migrations, plain->failed); // one move for the one failure
            migrated += int(moved->migrations);
            // The journal holds the move: replayed to the end it gives the final state.
            QCOMPARE(journal.stateAt(journal.position())->stateHash(), moved->stateHash);
            QCOMPARE(int(moved->decisions.decisions().size()), 4); // still one decision per pod
        }
        QVERIFY2(failedWithout > 0 && failedWithout < 40, qPrintable(QString::number(failedWithout)));
        QCOMPARE(migrated, failedWithout);
    }

    void gangsNeitherPreemptNorMove()
    {
        // A gang of two 4-GPU tasks waits for room as before, even with both options on.
        TraceBuilder b;
        b.node(64000, 0, 4).node(64000, 0, 4);
        gpuJob(b, 2, 0, 100, 0);
        gpuJob(b, 4, 10, 10, 9);
        trace::Job& gang = b.t.jobs.back();
        trace::Task second = b.t.tasks.back();
        b.t.tasks.push_back(second);
        gang.taskCount = 2;
        sim::TimedOptions o;
        o.preemption = sim::Preemption::Priority;
        o.migration = sim::Migration::Defragment;
        const sim::TimedResult r = mustRun(b.t, o);
        QCOMPARE(r.preemptions + r.migrations, int64_t(0));
        QCOMPARE(unitOf(r, 1).startS, 100.0);
    }
};

QTEST_GUILESS_MAIN(TestRoom)
#include "test_room.moc"
