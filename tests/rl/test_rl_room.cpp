// The learned policy making room (two-level decision: make room or wait, then where the moved task
// goes) on clusters worked by hand, with scripted scorers; and safety constraints (CMDP): parsing,
// the dual-ascent step by hand, a timed round whose stored multipliers follow it, budgets marked.

#include "fn_scorer.h"
#include "trace_builder.h"

#include "rl/constraints.h"
#include "rl/fine_tune.h"
#include "workflow/fine_tune_session.h"
#include "rl/learned_policy.h"
#include "rl/q_network.h"
#include "rl/reward_observer.h"
#include "sim/timed_replay.h"
#include "trace/trace_generator.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace schedlab;
using test::FnScorer;
using test::TraceBuilder;

namespace {

/// Rows standing for an action score `action`; node rows score `node(row)`.
std::unique_ptr<rl::Scorer> scorer(float room, float wait, std::function<float(const float*)> node = {})
{
    return std::make_unique<FnScorer>([=](const float* f) {
        if (f[10] == rl::kWaitMarker)
            return wait;
        if (f[10] == rl::kMigrateMarker || f[10] == rl::kPreemptMarker)
            return room;
        return node ? node(f) : 0.0f;
    });
}

void gpuJob(TraceBuilder& b, int gpus, double submitS, double runS, int32_t priority = 0)
{
    b.task(1000, 0, gpus, 1000, submitS, runS);
    b.t.jobs.back().priority = priority;
}

const sim::UnitResult& unitOf(const sim::TimedResult& r, int job)
{
    for (const auto& u : r.units_)
        if (u.job == job)
            return u;
    qFatal("no unit of job %d", job);
}

std::vector<sim::Decision> migrated(const sim::TimedResult& r)
{
    std::vector<sim::Decision> out;
    for (const sim::Decision& d : r.decisions.decisions())
        if (d.outcome == sim::Outcome::Migrated)
            out.push_back(d);
    return out;
}

/// The replay, its rewards booked by `reward` when given.
sim::TimedResult run(const trace::Trace& t, policy::PlacementPolicy& p, sim::TimedOptions o, rl::RewardObserver* reward = nullptr)
{
    sim::Observers observers;
    if (reward)
        observers.push_back(reward);
    auto r = sim::runTimedReplay(t, p, o, sim::Recording {}, observers);
    if (!r)
        qFatal("replay failed: %s", r.error().toString().c_str());
    return std::move(r).value();
}

/// n0 (4 GPUs) holds X (3 GPUs, 0-5) and A (1 GPU, 0-100); n1 (16 GPUs) holds B (14 GPUs); n2
/// (4 GPUs) holds C (3 GPUs). At 10 D (4 GPUs) fits nowhere (3, 2 and 1 GPUs free). Moving A
/// frees n0; A can go to n2 (leaves 0 free: the engine's best fill) or n1 (leaves 1).
trace::Trace moveCase()
{
    TraceBuilder b;
    b.node(64000, 0, 4).node(64000, 0, 16).node(64000, 0, 4);
    gpuJob(b, 3, 0, 5);
    gpuJob(b, 1, 0, 100);
    gpuJob(b, 14, 0, 100);
    gpuJob(b, 3, 0, 100);
    gpuJob(b, 4, 10, 50);
    return b.t;
}

} // namespace

class TestRlRoom : public QObject {
    Q_OBJECT
private slots:
    void takingTheRoomMovesWhereTheAgentSays()
    {
        const trace::Trace t = moveCase();
        sim::TimedOptions o;
        o.migration = sim::Migration::Defragment;
        // Node rows score -free_gpu before (BestFit-like, as fractions of the node): X and A go to
        // n0, B to n1, C to n2. Level 2 then prefers n1 for A (2/16 free beats n2's 1/4), where
        // the engine's rule would take n2.
        auto fullest = [](const float* f) { return -f[2]; };
        rl::LearnedPolicy agent(scorer(1, 0, fullest));
        const sim::TimedResult r = run(t, agent, o);
        QCOMPARE(r.migrations, int64_t(1));
        QCOMPARE(unitOf(r, 4).startS, 10.0); // D starts on the freed n0 at once
        QCOMPARE(unitOf(r, 1).finishS, 160.0); // A restarted: 60 s later
        auto moves = migrated(r);
        QCOMPARE(int(moves.size()), 1);
        QCOMPARE(moves[0].job, 1);
        QCOMPARE(moves[0].node, 1); // the agent's destination
        QCOMPARE(moves[0].feasible, 2);

        // The heuristic engine sends A to n2 (it fills it); the rest is the same. (BestFit's ties
        // by node order, as inside the learned policy.)
        o.tieBreak = policy::TieBreak::First;
        auto bestfit = policy::makePlacementPolicy("bestfit");
        const sim::TimedResult h = run(t, *bestfit, o);
        QCOMPARE(h.migrations, int64_t(1));
        QCOMPARE(migrated(h).at(0).node, 2);
        QCOMPARE(unitOf(h, 4).startS, 10.0);
    }

    void decliningTheRoomWaits()
    {
        const trace::Trace t = moveCase();
        sim::TimedOptions o;
        o.migration = sim::Migration::Defragment;
        rl::LearnedPolicy agent(scorer(-1, 0, [](const float* f) { return -f[2]; }));
        const sim::TimedResult r = run(t, agent, o);
        QCOMPARE(r.migrations, int64_t(0));
        QCOMPARE(unitOf(r, 4).startS, 100.0); // D waits for A, B and C to end
        QCOMPARE(unitOf(r, 1).finishS, 100.0);
        QVERIFY(migrated(r).empty());
    }

    void preemptionOffersAreTheAgentsToTake()
    {
        // One node of 4 GPUs: A (priority 0, 1 GPU) and B (priority 1, 1 GPU) run 0-100; D
        // (priority 5, 3 GPUs) at 10. Kubernetes would evict A; an agent that takes the offer does
        // the same, one that declines lets D wait until 100.
        TraceBuilder b;
        b.node(64000, 0, 4);
        gpuJob(b, 1, 0, 100, 0);
        gpuJob(b, 1, 0, 100, 1);
        gpuJob(b, 3, 10, 50, 5);
        sim::TimedOptions o;
        o.preemption = sim::Preemption::Priority;
        rl::LearnedPolicy take(scorer(1, 0));
        rl::RewardObserver takeReward { rl::RewardConfig {} };
        const sim::TimedResult r = run(b.t, take, o, &takeReward);
        QCOMPARE(r.preemptions, int64_t(1));
        QCOMPARE(unitOf(r, 2).startS, 10.0);
        QCOMPARE(unitOf(r, 0).startS, 60.0); // A evicted, queued again, starts when D ends
        QCOMPARE(takeReward.episodeReward().room, -(10.0 / 3600) / (10.0 / 3600 + 1)); // 10 GPU-s lost
        rl::LearnedPolicy decline(scorer(-1, 0));
        rl::RewardObserver declineReward { rl::RewardConfig {} };
        const sim::TimedResult w = run(b.t, decline, o, &declineReward);
        QCOMPARE(w.preemptions, int64_t(0));
        QCOMPARE(unitOf(w, 2).startS, 100.0);
        QCOMPARE(declineReward.episodeReward().room, 0.0);
    }

    void multipliersPriceTheRoom()
    {
        // Taking the move books the placement reward less the room cost and the migrations
        // multiplier; the SLA multiplier is not paid (D waited 0 s).
        const trace::Trace t = moveCase();
        sim::TimedOptions o;
        o.migration = sim::Migration::Defragment;
        rl::LearnedPolicy plain(scorer(1, 0));
        rl::RewardObserver plainReward { rl::RewardConfig {} };
        const sim::TimedResult a = run(t, plain, o, &plainReward);
        rl::LearnedPolicy priced(scorer(1, 0));
        rl::RewardObserver pricedReward { rl::RewardConfig {} };
        pricedReward.setMultipliers({ 5.0, 0.75, 2.0 }, 3600);
        const sim::TimedResult b = run(t, priced, o, &pricedReward);
        QCOMPARE(a.migrations, int64_t(1));
        QCOMPARE(b.migrations, int64_t(1)); // the scripted scorer decides; the price is in the reward
        QCOMPARE(plainReward.episodeReward().room, -60.0 / (60.0 + 600.0)); // restart 60 s, target 600 s
        QVERIFY(std::abs(plainReward.episodeReward().total - pricedReward.episodeReward().total - 0.75) < 1e-9);
    }

    void constraintsParseAndStepByHand()
    {
        auto c = rl::Constraints::parse("sla=5,migrations=2,rate=0.25");
        QVERIFY(c.ok());
        QCOMPARE(c->budget[0], 5.0);
        QCOMPARE(c->budget[1], 2.0);
        QVERIFY(!c->on(rl::ConstraintKind::Evictions));
        QCOMPARE(c->rate, 0.25);
        QCOMPARE(c->toString(), std::string("sla=5,migrations=2,slaS=3600,rate=0.25"));
        QCOMPARE(rl::Constraints::parse(c->toString())->toString(), c->toString());
        QVERIFY(!rl::Constraints::parse("").value().any());
        for (const char* bad : { "sla=-1", "speed=3", "sla", "rate=0", "migrations=x", "slaS=nan" }) {
            auto e = rl::Constraints::parse(bad);
            QVERIFY2(!e.ok(), bad);
        }
        QVERIFY(rl::Constraints::parse("speed=3").error().message.find("speed") != std::string::npos);
        // lambda + rate x (value - budget) / max(budget, 1), floored at 0.
        QCOMPARE(rl::nextMultiplier(0, 8, 2, 0.5), 1.5);
        QCOMPARE(rl::nextMultiplier(1.5, 1, 2, 0.5), 1.25);
        QCOMPARE(rl::nextMultiplier(0.1, 0, 4, 1), 0.0);
        QCOMPARE(rl::nextMultiplier(0, 0.3, 0.1, 1), 0.2); // budgets under 1 step by the raw excess
        QCOMPARE(rl::nextMultiplier(0.7, -1, 2, 1), 0.7); // unmeasured: unchanged
        // Values from a replay: 2 of 8 units past the SLA = 25 %; 3 moves in a 2 h makespan.
        sim::TimedResult r;
        r.units = 8;
        r.slaViolations = { { "default", 1 }, { "LS", 1 } };
        r.migrations = 3;
        r.preemptions = 1;
        r.makespanS = 7200;
        QCOMPARE(rl::constraintValue(rl::ConstraintKind::Sla, r), 25.0);
        QCOMPARE(rl::constraintValue(rl::ConstraintKind::Migrations, r), 1.5);
        QCOMPARE(rl::constraintValue(rl::ConstraintKind::Evictions, r), 0.5);
    }

    void preselectionTravelsWithTheCheckpoint()
    {
        // A round records the candidate preselection it trained with; a child round without one
        // of its own inherits it; a network saved without a record has none (older checkpoints).
        trace::GeneratorOptions g;
        g.nodes = 16;
        g.jobs = 200;
        g.seed = 3;
        const trace::Trace t = trace::generateTrace(g).value();
        QTemporaryDir dir;
        rl::RoundOptions o;
        o.train.episodes = 1;
        o.train.run.fillOptions()->maxPods = 60;
        o.train.batchSize = 16;
        o.evalSeeds = { 42 };
        o.baselines = { "bestfit" };
        o.train.policy.preselectAbove = 7;
        o.train.policy.preselectTop = 3;
        o.outCheckpoint = dir.filePath("a.slq").toStdString();
        QVERIFY(workflow::runRound(t, {}, nullptr, o).ok());
        auto a = rl::QNetwork::load(o.outCheckpoint);
        QVERIFY(a.ok());
        QCOMPARE(a.value()->preselection().above, 7);
        QCOMPARE(a.value()->preselection().top, 3);
        rl::RoundOptions child = o;
        child.parentCheckpoint = o.outCheckpoint;
        child.train.policy = {};
        child.outCheckpoint = dir.filePath("b.slq").toStdString();
        QVERIFY(workflow::runRound(t, {}, nullptr, child).ok());
        QCOMPARE(rl::QNetwork::load(child.outCheckpoint).value()->preselection().top, 3);
        child.train.policy.preselectTop = 4;
        child.outCheckpoint = dir.filePath("c.slq").toStdString();
        QVERIFY(workflow::runRound(t, {}, nullptr, child).ok());
        QCOMPARE(rl::QNetwork::load(child.outCheckpoint).value()->preselection().above, 7);
        QCOMPARE(rl::QNetwork::load(child.outCheckpoint).value()->preselection().top, 4);
        auto fresh = rl::QNetwork::create(1).value();
        QVERIFY(fresh->save(dir.filePath("f.slq").toStdString()).ok());
        QCOMPARE(rl::QNetwork::load(dir.filePath("f.slq").toStdString()).value()->preselection().above, 0);
        // The defaults, and the model's record under a caller's zeros.
        const rl::LearnedOptions d = rl::resolvePreselection({});
        QCOMPARE(d.preselectAbove, 500);
        QCOMPARE(d.preselectTop, 50);
        QCOMPARE(rl::resolvePreselection({}, 7, 3).preselectTop, 3);
        rl::LearnedOptions mine;
        mine.preselectAbove = 9;
        QCOMPARE(rl::resolvePreselection(mine, 7, 3).preselectAbove, 9);
    }

    void constrainedRoundStoresItsMultipliers()
    {
        // A timed round with migration and budgets: every episode's constraint row is stored, the
        // multipliers follow the dual-ascent step from 0, and the evaluation reports the values
        // that decide whether the round is over budget.
        trace::GeneratorOptions g;
        g.nodes = 12;
        g.jobs = 500;
        g.seed = 11;
        g.targetGpuLoad = 1.6;
        const trace::Trace t = trace::generateTrace(g).value();
        QTemporaryDir dir;
        auto p = store::Project::open(dir.filePath("c.schedlab").toStdString()).value();
        rl::RoundOptions o;
        o.checkpointDir = dir.path().toStdString();
        o.train.run = rl::trainingRun(sim::RunMode::Timed);
        o.train.episodes = 4;
        o.train.batchSize = 32;
        o.train.seed = 5;
        o.train.run.timedOptions()->migration = sim::Migration::Defragment;
        o.train.constraints = rl::Constraints::parse("sla=1,migrations=0,rate=0.5").value();
        o.windowS = 1e9; // the whole trace (evaluated on it too)
        o.baselines = { "bestfit" };
        auto r = workflow::runRound(t, {}, p.get(), o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        auto rows = p->roundConstraints(r->roundId);
        QVERIFY(rows.ok());
        QCOMPARE(int(rows->size()), 4 * 2); // 4 episodes x {sla, migrations}
        double lambda[2] = { 0, 0 };
        int migrationsSeen = 0;
        for (int e = 1; e <= 4; ++e)
            for (int k = 0; k < 2; ++k) {
                const store::ConstraintPoint& c = rows->at(std::size_t((e - 1) * 2 + k));
                QCOMPARE(c.episode, e);
                QCOMPARE(c.name, std::string(k == 0 ? "migrations" : "sla")); // by name
                QCOMPARE(c.budget, k == 0 ? 0.0 : 1.0);
                QVERIFY(std::abs(c.multiplier - lambda[k]) < 1e-12);
                QVERIFY(c.value >= 0);
                migrationsSeen += k == 0 && c.value > 0;
                lambda[k] = std::max(0.0, lambda[k] + 0.5 * (c.value - c.budget) / std::max(c.budget, 1.0));
            }
        QVERIFY(migrationsSeen > 0); // the agent did move tasks while it explored
        // Evaluation: the constraint metrics beside the usual ones, for the agent and the baseline.
        QCOMPARE(r->eval.size(), std::size_t(2));
        for (const char* m : { "slaViolationPct", "migrationsPerHour", "evictionsPerHour" })
            QVERIFY2(r->eval[0].mean.count(m) && r->eval[1].mean.count(m), m);
        QCOMPARE(r->eval[0].mean.at("evictionsPerHour"), 0.0);
        const bool over = r->eval[0].mean.at("migrationsPerHour") > 0;
        QCOMPARE(std::any_of(r->overBudget.begin(), r->overBudget.end(), [](const std::string& s) { return s.rfind("migrations ", 0) == 0; }),
            over);
        QCOMPARE(workflow::overBudget(rows.value(), p->roundEval(r->roundId).value()), r->overBudget);
        const auto stored = p->rounds().value();
        QVERIFY(stored.back().optionsJson.find("\"constraints\":\"sla=1,migrations=0,slaS=3600,rate=0.5\"") != std::string::npos);
        QVERIFY(stored.back().optionsJson.find("\"migration\":\"defragment\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRlRoom)
#include "test_rl_room.moc"
