// Incident replay on real traces (label real): the openb fill experiment (gpu_node x default,
// FGD, ratio 1.3) and NASA iPSC (SWF, timed, EASY backfilling) replayed with a state journal
// reproduce the recorded runs decision by decision, and rebuilt states match replays stopped at
// the decision.

#include "test_util.h"

#include "incident/fork.h"
#include "incident/incidents.h"
#include "incident/run_index.h"
#include "policy/placement_policy.h"
#include "sim/state_journal.h"
#include "trace/trace_loader.h"

#include <QtTest>

#include <cstdio>

using namespace schedlab;

namespace {
std::shared_ptr<const trace::Trace> load(const std::vector<std::string>& files)
{
    auto r = trace::loadTrace(files);
    if (!r)
        qFatal("%s", r.error().toString().c_str());
    return std::make_shared<const trace::Trace>(std::move(r->trace));
}
} // namespace

class TestIncidentReal : public QObject {
    Q_OBJECT
private slots:
    void openbFillIsReproducedAndSeekable()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        auto t = load({ test::realTrace("alibaba-gpu-v2023/openb_node_list_gpu_node.csv"),
            test::realTrace("alibaba-gpu-v2023/openb_pod_list_default.csv") });
        auto fgd = policy::makePlacementPolicy("fgd");
        sim::FillOptions o; // the run as recorded: decisions and state hashes every 1000
        auto run = sim::runFillExperiment(*t, *fgd, o);
        QVERIFY(run);
        const sim::RunSpec spec = sim::RunSpec::fill("fgd", {});
        auto index = incident::buildRunIndex(t, spec, &run->decisions, &run->stateHashes);
        QVERIFY2(index, index ? "" : index.error().toString().c_str());
        const incident::RunIndex& x = *index.value();
        QCOMPARE(x.decisionsVerified, int64_t(run->decisions.size()));
        QCOMPARE(x.hashesVerified, int(run->stateHashes.size()));
        QVERIFY(x.hashesVerified >= 10); // 10.8k pods
        for (int64_t k : { int64_t(1), int64_t(4321), int64_t(run->pods - 1) }) {
            sim::FillOptions stop = o;
            stop.stopAt = k;
            sim::Recording rec;
            rec.decisions = false;
            auto p = policy::makePlacementPolicy("fgd");
            auto stopped = sim::runFillExperiment(*t, *p, stop, rec);
            QVERIFY(stopped && stopped->state);
            auto in = incident::inspect(x, k, { "bestfit" });
            QVERIFY(in);
            QCOMPARE(in->state->stateHash(), stopped->state->stateHash());
        }
        // the cluster fills: failures come in bursts, and fragmentation rises
        bool burst = false;
        int spikes = 0;
        for (const incident::Incident& i : incident::findIncidents(x)) {
            burst = burst || i.kind == incident::IncidentKind::FailureBurst;
            if (i.kind != incident::IncidentKind::FragSpike)
                continue;
            // The text and the inspector opened at the incident's decision agree on the rate.
            ++spikes;
            auto in = incident::inspect(x, i.decision);
            QVERIFY(in);
            char want[32];
            std::snprintf(want, sizeof want, "rose to %.1f %%", in->gpuFragRatePct);
            QVERIFY2(i.text.find(want) != std::string::npos, (i.text + " / inspector: " + want).c_str());
        }
        QVERIFY(burst);
        QVERIFY(spikes > 0);
        // a fork at decision 0 under BestFit is a plain BestFit run
        auto f = incident::forkRun(x, 0, "bestfit");
        QVERIFY(f);
        auto bf = policy::makePlacementPolicy("bestfit");
        auto plain = sim::runFillExperiment(*t, *bf, o);
        QCOMPARE(f->fill->finalGpuAllocPct, plain->finalGpuAllocPct);
        QCOMPARE(f->fill->stateHash, plain->stateHash);
    }

    void nasaTimedReplayIsReproduced()
    {
        SCHEDLAB_REQUIRE_REAL_TRACES();
        auto t = load({ test::realTrace("pwa-swf/NASA-iPSC-1993-3.1-cln.swf") });
        sim::TimedOptions o;
        o.backfill = sim::Backfill::Easy;
        sim::StateJournal recordedJournal; // as schedlab-cli replay --project records the run
        sim::Recording rec;
        rec.journal = &recordedJournal;
        auto p = policy::makePlacementPolicy("firstfit");
        auto run = sim::runTimedReplay(*t, *p, o, rec);
        QVERIFY(run);
        QVERIFY(run->stateHashes.size() >= 18); // every 1000 decisions
        const sim::RunSpec spec = sim::RunSpec::timed("firstfit", o);
        auto index = incident::buildRunIndex(t, spec, &run->decisions, &run->stateHashes);
        QVERIFY2(index, index ? "" : index.error().toString().c_str());
        const incident::RunIndex& x = *index.value();
        QCOMPARE(x.decisionsVerified, int64_t(run->decisions.size()));
        QVERIFY(x.decisionsVerified > 18000);
        QCOMPARE(x.hashesVerified, int(run->stateHashes.size())); // replay-to-k reproduces every recorded k
        auto tampered = run->stateHashes;
        tampered[tampered.size() / 2].second ^= 1;
        auto refused = incident::buildRunIndex(t, spec, &run->decisions, &tampered);
        QVERIFY(!refused);
        QVERIFY(refused.error().message.find("differs from the recorded one at decision") != std::string::npos);
        QCOMPARE(x.journal.stateAt(x.journal.position())->stateHash(), run->stateHash);
        // every placed decision's node has room for its task in the state it saw
        const auto& ds = x.decisions.decisions();
        for (std::size_t k = 0; k < ds.size(); k += 97) {
            if (ds[k].outcome != sim::Outcome::Placed)
                continue;
            auto in = incident::inspect(x, int64_t(k));
            QVERIFY(in);
            QVERIFY(in->state->fits(ds[k].node, t->tasks[std::size_t(ds[k].task)].request));
        }
        // a fork under the same policy changes nothing
        auto same = incident::forkRun(x, int64_t(ds.size() / 2), "firstfit", 24 * 3600);
        QVERIFY(same);
        for (const incident::ForkDelta& d : same->deltas)
            QCOMPARE(d.delta(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestIncidentReal)
#include "test_incident_real.moc"
