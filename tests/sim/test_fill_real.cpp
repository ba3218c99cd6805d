// The FGD paper's fill experiment on the real openb trace (label real): gpu_node (1213 nodes,
// 6212 GPUs) x pod_list_default, ratio 1.3, seeds 42..44.
//
// Reference: the FGD authors publish their simulator's results for this experiment
// (hkust-adsl/kubernetes-scheduler-simulator, experiments/analysis/expected_results/
// analysis_allo_discrete.csv, workload openb_pod_list_default, tune 1.3, seeds 42-51). Mean final
// GPU allocation %: Random 87.47, DotProd 90.85, GpuClustering 91.88, GpuPacking 92.00, BestFit
// 93.08, FGD 95.39. The fill experiment's default tie rule (a node order drawn once per run from
// the seed, TieBreak::Order) reproduces each within a point; ties drawn anew per decision do not
// (FGD falls below BestFit: CPU-only pods, which never change F, then land on any node).

#include "test_util.h"

#include "sim/fill_experiment.h"
#include "trace/trace_loader.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace schedlab;

class TestFillReal : public QObject {
    Q_OBJECT
private:
    trace::Trace m_trace;

    double meanAlloc(const std::string& name, policy::TieBreak tie = sim::FillOptions {}.tieBreak)
    {
        double sum = 0;
        for (uint64_t seed = 42; seed <= 44; ++seed) {
            auto p = policy::makePlacementPolicy(name);
            sim::FillOptions o;
            o.seed = seed;
            o.tieBreak = tie;
            sim::Recording rec;
            rec.decisions = false;
            auto r = sim::runFillExperiment(m_trace, *p, o, rec);
            if (!r)
                qFatal("%s", r.error().toString().c_str());
            sum += r->finalGpuAllocPct;
        }
        return sum / 3;
    }

private slots:
    void initTestCase()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        auto t = trace::loadTrace({ test::realTrace("alibaba-gpu-v2023/openb_node_list_gpu_node.csv"),
            test::realTrace("alibaba-gpu-v2023/openb_pod_list_default.csv") });
        QVERIFY(t.ok());
        m_trace = std::move(t->trace);
    }

    void paperResultsWithTheDefaultTieRule()
    {
        QCOMPARE(sim::FillOptions {}.tieBreak, policy::TieBreak::Order);
        const std::map<std::string, double> published { { "random", 87.47 }, { "dotproduct", 90.85 },
            { "gpuclustering", 91.88 }, { "gpupacking", 92.00 }, { "bestfit", 93.08 }, { "fgd", 95.39 } };
        std::map<std::string, double> ours;
        for (const auto& [name, ref] : published) {
            ours[name] = meanAlloc(name);
            qInfo("final GPU allocation %% (ties: order) %-13s %.2f (published %.2f)", name.c_str(), ours[name], ref);
            QVERIFY2(std::abs(ours[name] - ref) < 1.0, name.c_str());
        }
        QVERIFY(ours["fgd"] > ours["bestfit"]);
        QVERIFY(ours["bestfit"] > ours["random"]);
        // Lowest-index ties (a fixed order too) give the same ranking.
        const double fgdFirst = meanAlloc("fgd", policy::TieBreak::First);
        const double bestfitFirst = meanAlloc("bestfit", policy::TieBreak::First);
        QVERIFY(fgdFirst > bestfitFirst);
    }

    // Defragment on failure (FillOptions::migration): moving one placed pod when that lets a failed
    // pod fit lowers BestFit's failures on openb; a budget caps the moves and keeps part of the gain.
    void migrationLowersFailuresWithinItsBudget()
    {
        sim::FillOptions o;
        o.seed = 60;
        sim::Recording rec;
        rec.decisions = false;
        rec.heat = false;
        auto run = [&](sim::FillOptions opts) {
            auto p = policy::makePlacementPolicy("bestfit");
            auto r = sim::runFillExperiment(m_trace, *p, opts, rec);
            if (!r)
                qFatal("%s", r.error().toString().c_str());
            return std::move(r).value();
        };
        const sim::FillResult plain = run(o);
        o.migration = sim::Migration::Defragment;
        const sim::FillResult moved = run(o);
        o.migrationBudget = 20;
        const sim::FillResult capped = run(o);
        qInfo("bestfit seed 60: failed %lld, with migration %lld (%lld moves), at most 20 moves %lld",
            static_cast<long long>(plain.failed), static_cast<long long>(moved.failed), static_cast<long long>(moved.migrations),
            static_cast<long long>(capped.failed));
        QVERIFY(moved.migrations > 20);
        QVERIFY(moved.failed < plain.failed);
        QVERIFY(moved.finalGpuAllocPct > plain.finalGpuAllocPct);
        QCOMPARE(capped.migrations, int64_t(20));
        QVERIFY(capped.failed < plain.failed && capped.failed > moved.failed);
        QCOMPARE(moved.placed + moved.failed, moved.pods);
    }

    // openb_pod_list_multigpu50 asks for ~183 % of the gpu_node cluster: trimmed down to the ratio
    // (the authors' tuneDownPods), its final allocation agrees with the untrimmed list's curve at
    // the 130 % point (the same share of a randomly ordered workload), while the untrimmed final
    // point (~183 % arrived) is another experiment.
    void aWorkloadAboveTheRatioIsTrimmed()
    {
        auto loaded = trace::loadTrace({ test::realTrace("alibaba-gpu-v2023/openb_node_list_gpu_node.csv"),
            test::realTrace("alibaba-gpu-v2023/openb_pod_list_multigpu50.csv") });
        QVERIFY(loaded.ok());
        const trace::Trace& t = loaded->trace;
        for (const char* name : { "fgd", "bestfit" }) {
            double trimmed = 0, at130 = 0;
            for (uint64_t seed = 42; seed <= 44; ++seed) {
                sim::FillOptions o;
                o.seed = seed;
                sim::Recording rec;
                rec.decisions = false;
                rec.heat = false;
                auto p = policy::makePlacementPolicy(name);
                auto r = sim::runFillExperiment(t, *p, o, rec);
                QVERIFY(r.ok());
                QVERIFY2(r->originalRequestPct > 180 && r->originalRequestPct < 186, qPrintable(QString::number(r->originalRequestPct)));
                QVERIFY(r->podsRemoved > 2000);
                QCOMPARE(r->pods + r->podsRemoved, r->originalPods);
                // Arrived workload ends at most at the ratio: the curve reaches 129 %, never 130.
                QCOMPARE(r->curve.back().arrivedPct, 129);
                trimmed += r->finalGpuAllocPct / 3;
                o.trimAboveRatio = false;
                auto q = policy::makePlacementPolicy(name);
                auto all = sim::runFillExperiment(t, *q, o, rec);
                QVERIFY(all.ok());
                QCOMPARE(all->podsRemoved, int64_t(0));
                QCOMPARE(all->pods, all->originalPods);
                QVERIFY(all->curve.back().arrivedPct >= 180);
                at130 += all->curve[129].gpuAllocPct / 3;
                QCOMPARE(all->curve[129].arrivedPct, 130);
            }
            qInfo("%s multigpu50: trimmed final %.2f %%, untrimmed at 130 %% arrived %.2f %%", name, trimmed, at130);
            QVERIFY2(std::abs(trimmed - at130) < 0.5, name);
        }
    }

    void bestFitBeatsRandomWithRandomTies()
    {
        const double bestfit = meanAlloc("bestfit", policy::TieBreak::Random);
        const double random = meanAlloc("random", policy::TieBreak::Random);
        const double fgd = meanAlloc("fgd", policy::TieBreak::Random);
        qInfo("final GPU allocation %% (ties: random): fgd %.2f bestfit %.2f random %.2f", fgd, bestfit, random);
        QVERIFY(bestfit > random);
        QVERIFY(fgd > random);
    }

    // Incident replay exactness: replaying to decision k rebuilds exactly the state the run
    // recorded there, for several k and both a cached and a random-drawing policy; a fork at k
    // under a fresh instance of the same policy ends exactly where the original did.
    void replayToDecisionReproducesRecordedStates()
    {
        for (const char* name : { "bestfit", "fgd", "random" }) {
            auto p = policy::makePlacementPolicy(name);
            sim::FillOptions o;
            o.seed = 43;
            sim::Recording rec;
            rec.decisions = false;
            auto full = sim::runFillExperiment(m_trace, *p, o, rec);
            QVERIFY(full.ok());
            QVERIFY(full->stateHashes.size() >= 10); // every 1000 of ~10,800 decisions
            std::map<int64_t, uint64_t> recorded(full->stateHashes.begin(), full->stateHashes.end());
            for (int64_t k : { int64_t(1000), int64_t(4000), int64_t(9000) }) {
                auto again = policy::makePlacementPolicy(name);
                sim::FillOptions stop = o;
                stop.stopAt = k;
                auto r = sim::runFillExperiment(m_trace, *again, stop, rec);
                QVERIFY(r.ok() && r->state);
                QCOMPARE(r->state->stateHash(), recorded.at(k));
                QCOMPARE(r->stateHashes.back().first, k);
            }
            auto same = policy::makePlacementPolicy(name), fresh = policy::makePlacementPolicy(name);
            sim::FillOptions fork = o;
            fork.fork = { 5000, fresh.get() };
            auto f = sim::runFillExperiment(m_trace, *same, fork, rec);
            QVERIFY(f.ok());
            QCOMPARE(f->stateHash, full->stateHash);
            QCOMPARE(f->finalGpuAllocPct, full->finalGpuAllocPct);
        }
        // ... and a fork under another policy does change the outcome
        auto bf = policy::makePlacementPolicy("bestfit"), rnd = policy::makePlacementPolicy("random");
        sim::FillOptions o;
        o.seed = 43;
        sim::Recording rec;
        rec.decisions = false;
        o.fork = { 2000, rnd.get() };
        auto f = sim::runFillExperiment(m_trace, *bf, o, rec);
        QVERIFY(f.ok());
        o.fork.at = -1;
        auto base = sim::runFillExperiment(m_trace, *policy::makePlacementPolicy("bestfit"), o, rec);
        QVERIFY(f->stateHash != base->stateHash);
        QVERIFY(f->finalGpuAllocPct < base->finalGpuAllocPct); // random packs worse after the fork
    }
};

QTEST_GUILESS_MAIN(TestFillReal)
#include "test_fill_real.moc"
