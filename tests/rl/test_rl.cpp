// The learned policy: hand-computed features and rewards, checkpoints (round trip, corrupted,
// NaN, mismatched), TorchScript both ways, the policy's choice and Q-values, deterministic
// training, divergence stopping a round with the parent untouched, and rounds in a project.

#include "test_util.h"
#include "trace_builder.h"

#include "rl/choice_buffer.h"
#include "rl/dqn_trainer.h"
#include "rl/features.h"
#include "rl/fine_tune.h"
#include "rl/imitation.h"
#include "rl/learned_policy.h"
#include "rl/q_network.h"
#include "rl/reward.h"
#include "rl/reward_observer.h"
#include "trace/trace_window.h"
#include "sim/fill_experiment.h"
#include "sim/timed_replay.h"
#include "trace/trace_generator.h"
#include "workflow/fine_tune_session.h"

#pragma push_macro("slots")
#undef slots
#include <torch/script.h>
#include <torch/torch.h>
#pragma pop_macro("slots")

#include <QCryptographicHash>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <optional>
#include <set>

using namespace schedlab;
using schedlab::test::TraceBuilder;

namespace {

// A fresh network from the torch module (loaded on first use); a test cannot go on without one.
std::unique_ptr<rl::QNetwork> newNet(uint64_t seed)
{
    auto n = rl::QNetwork::create(seed);
    if (!n)
        qFatal("%s", n.error().toString().c_str());
    return std::move(n).value();
}
QByteArray sha(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// A scripted scorer built in C++ (what a PyTorch team would hand over).
std::string scriptedModule(const std::string& path, const std::string& body)
{
    torch::jit::Module m("Probe");
    m.define("def forward(self, x):\n    " + body + "\n");
    m.save(path);
    return path;
}

// A fill trace big enough to learn something, small enough to train in seconds.
trace::Trace smallFillTrace()
{
    trace::GeneratorOptions g;
    g.nodes = 24;
    g.jobs = 600;
    g.seed = 5;
    return trace::generateTrace(g).value();
}

// Three cpu nodes of 8 cores; node 1 has 4 cores taken. A 2-core task: dominant share after
// is 0.25 / 0.75 / 0.25.
struct ThreeNodes {
    TraceBuilder b;
    std::optional<cluster::ClusterState> c;
    ThreeNodes()
    {
        b.node(8000, 8000, 0).node(8000, 8000, 0).node(8000, 8000, 0);
        b.task(4000, 0, 0, 0).task(2000, 0, 0, 0);
        c.emplace(b.t);
        c->allocate(c->makePlacement(1, { 4000, 0, 0, 0, 0 }, 0));
    }
};

rl::TrainOptions quickTraining()
{
    rl::TrainOptions o;
    o.episodes = 2;
    o.run.fillOptions()->maxPods = 300;
    o.batchSize = 32;
    o.seed = 77;
    return o;
}
} // namespace

class TestRl : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void featuresByHand()
    {
        TraceBuilder b;
        b.node(32000, 65536, 4);
        cluster::ClusterState c(b.t);
        c.allocate(c.makePlacement(0, { 8000, 16384, 1, 500, 0 }, 0x1));
        // one typical class: a 600-milli GPU share
        metrics::TypicalWorkload w;
        w.classes.push_back({ trace::TaskRequest { 0, 0, 1, 600, 0 }, 1, 1.0 });
        rl::FeatureExtractor fx(w);
        rl::DecisionContext ctx;
        ctx.queued = 9;
        ctx.headWaitS = 600;
        ctx.waitTargetS = 600;
        const trace::TaskRequest whole { 4000, 8192, 1, 1000, 0 };
        const rl::FeatureRow f = fx.compute(c, 0, whole, c.bestFitGpus(0, whole), 80, ctx);
        QCOMPARE(c.bestFitGpus(0, whole), uint64_t(0x2));
        const float expected[rl::kFeatureCount] = { 0.75f, 0.75f, 0.875f, 0.125f, 0.125f, 0.25f, 0.0f, 1.0f, 0.0f, 0.375f,
            0.8f, float(std::log(10.0) / std::log(1001.0)), 0.5f, 0.0f, 0.5f, 0.125f };
        for (int i = 0; i < rl::kFeatureCount; ++i)
            QVERIFY2(std::abs(f[std::size_t(i)] - expected[i]) < 1e-6f,
                qPrintable(QString("%1 = %2, expected %3").arg(rl::featureNames()[std::size_t(i)]).arg(f[std::size_t(i)]).arg(expected[i])));
        // A 300-milli share on GPU 0 (500 free): GPU 0 keeps 200 < 600, F goes 500 -> 200 gpu-milli,
        // delta -300 / 1000 / 8.
        const rl::FeatureRow g = fx.compute(c, 0, { 4000, 8192, 1, 300, 0 }, 0x1, 50, ctx);
        QCOMPARE(g[6], float(-0.0375));
        QCOMPARE(rl::featureNames().size(), std::size_t(16));
    }

    void rewardByHand()
    {
        rl::RewardConfig c; // 0.4 / 0.3 / 0.2 / 0.1, custom = fragmentation
        rl::RewardInputs in;
        in.placed = true;
        in.balanceAfter = 1.0;
        in.dominantAfter = 0.375;
        in.fragDelta = -0.0375;
        rl::RewardBreakdown r = rl::computeReward(c, in);
        QCOMPARE(r.custom, 0.0375);
        QVERIFY(std::abs(r.total - 0.71625) < 1e-12);
        in.waitS = 1200; // twice the 600 s target: -(e^1 - 1)
        r = rl::computeReward(c, in);
        QVERIFY(std::abs(r.tail + (std::exp(1.0) - 1.0)) < 1e-12);
        QVERIFY(std::abs(r.total - (0.71625 - (std::exp(1.0) - 1.0))) < 1e-12);
        r = rl::computeReward(c, rl::RewardInputs {}); // failed: only success = -1 counts
        QVERIFY(std::abs(r.total + 0.2) < 1e-12);
        // weights are normalised: doubling all changes nothing
        auto doubled = rl::RewardConfig::parse("balance=0.8,packing=0.6,success=0.4,custom=0.2");
        QVERIFY(doubled.ok());
        in.waitS = 0;
        QVERIFY(std::abs(rl::computeReward(doubled.value(), in).total - 0.71625) < 1e-12);
        // parsing errors name the key
        for (const char* bad : { "balance=-1", "packing=abc", "custom=nan", "speed=1", "balance", "customTerm=magic",
                 "balance=0,packing=0,success=0,custom=0" }) {
            auto p = rl::RewardConfig::parse(bad);
            QVERIFY2(!p.ok(), bad);
            QVERIFY2(p.error().message.find("reward weights") != std::string::npos, p.error().message.c_str());
        }
        QCOMPARE(rl::RewardConfig::preset("latency-first").value().customTerm, rl::CustomTerm::Wait);
        QVERIFY(!rl::RewardConfig::preset("fastest").ok());
        // toString round-trips
        auto again = rl::RewardConfig::parse(rl::RewardConfig::preset("packing-first").value().toString());
        QCOMPARE(again.value().packing, 0.5);
    }

    void checkpointRoundTripAndBadFiles()
    {
        auto net = newNet(3);
        const std::string file = path("a.slq");
        QVERIFY(net->save(file).ok());
        auto back = rl::QNetwork::load(file);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back.value()->weightHash(), net->weightHash());
        std::vector<float> rows(5 * rl::kFeatureCount);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = float(i % 7) / 7.0f;
        std::vector<float> q1, q2;
        QVERIFY(net->score(rows.data(), 5, rl::kFeatureCount, q1).ok());
        QVERIFY(back.value()->score(rows.data(), 5, rl::kFeatureCount, q2).ok());
        QCOMPARE(q1, q2);
        QVERIFY(!net->score(rows.data(), 5, 15, q2).ok()); // model mismatch

        // truncated
        {
            std::ifstream in(file, std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)), {});
            std::ofstream(path("trunc.slq"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        }
        auto t = rl::QNetwork::load(path("trunc.slq"));
        QVERIFY(!t.ok());
        QVERIFY2(t.error().file == path("trunc.slq") && t.error().message.find("corrupted") != std::string::npos,
            t.error().toString().c_str());
        // not a checkpoint at all
        std::ofstream(path("text.slq")) << "hello";
        QVERIFY(!rl::QNetwork::load(path("text.slq")).ok());
        QVERIFY(!rl::QNetwork::load(path("missing.slq")).ok());

        // a NaN weight and a wrong shape, written with libtorch directly
        auto write = [&](const char* name, bool nan, int64_t hidden1) {
            torch::serialize::OutputArchive ar;
            torch::nn::Linear l1(16, 64), l2(64, 32), l3(32, 1);
            torch::Tensor w1 = l1->weight.detach().clone();
            if (nan)
                w1[0][0] = std::nanf("");
            ar.write("fc1.weight", w1);
            ar.write("fc1.bias", l1->bias.detach());
            ar.write("fc2.weight", l2->weight.detach());
            ar.write("fc2.bias", l2->bias.detach());
            ar.write("fc3.weight", l3->weight.detach());
            ar.write("fc3.bias", l3->bias.detach());
            ar.write("meta", torch::tensor({ int64_t(0x51534C42), int64_t(1), int64_t(16), hidden1, int64_t(32) }, torch::kInt64));
            ar.save_to(path(name));
        };
        write("nan.slq", true, 64);
        auto n = rl::QNetwork::load(path("nan.slq"));
        QVERIFY(!n.ok());
        QVERIFY2(n.error().message.find("fc1.weight holds NaN") != std::string::npos, n.error().message.c_str());
        write("shape.slq", false, 128);
        auto s = rl::QNetwork::load(path("shape.slq"));
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("has shape") != std::string::npos, s.error().message.c_str());
        write("ok.slq", false, 64);
        QVERIFY(rl::QNetwork::load(path("ok.slq")).ok()); // the writer itself is right
    }

    void torchScriptBothWays()
    {
        auto net = newNet(11);
        const std::string pt = path("model.pt");
        QVERIFY(net->exportTorchScript(pt).ok());
        auto scripted = rl::loadTorchScript(pt, rl::kFeatureCount);
        QVERIFY2(scripted.ok(), scripted.ok() ? "" : scripted.error().toString().c_str());
        std::vector<float> rows(7 * rl::kFeatureCount);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = float((i * 13) % 11) / 11.0f;
        std::vector<float> a, b;
        QVERIFY(net->score(rows.data(), 7, rl::kFeatureCount, a).ok());
        QVERIFY(scripted.value()->score(rows.data(), 7, rl::kFeatureCount, b).ok());
        for (int i = 0; i < 7; ++i)
            QVERIFY(std::abs(a[std::size_t(i)] - b[std::size_t(i)]) < 1e-5f);
        // A module built elsewhere with the documented signature, and ones without it.
        QVERIFY(rl::loadTorchScript(scriptedModule(path("sum.pt"), "return x.sum(1)"), rl::kFeatureCount).ok());
        auto wrong = rl::loadTorchScript(scriptedModule(path("wrong.pt"), "return x"), rl::kFeatureCount);
        QVERIFY(!wrong.ok());
        QVERIFY2(wrong.error().message.find("model mismatch") != std::string::npos, wrong.error().message.c_str());
        std::ofstream(path("junk.pt")) << "not a zip";
        auto junk = rl::loadTorchScript(path("junk.pt"), rl::kFeatureCount);
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().file, path("junk.pt"));
    }

    void policyPicksTheBestQAndLogsIt()
    {
        ThreeNodes three;
        const TraceBuilder& b = three.b;
        const cluster::ClusterState& c = *three.c;
        const trace::TaskRequest r { 2000, 0, 0, 0, 0 };
        auto choose = [&](const std::string& body) {
            auto scorer = rl::loadTorchScript(scriptedModule(path("p.pt"), body), rl::kFeatureCount);
            rl::LearnedPolicy p(std::move(scorer).value());
            p.reset(policy::PolicyContext { b.t, nullptr }, c);
            Rng rng(1);
            return p.place(c, policy::PlacementRequest { r, nullptr, nullptr, 0 }, rng, 8);
        };
        policy::PlacementDecision most = choose("return x.select(1, 9)"); // dominant_after: pack
        QCOMPARE(most.node, 1);
        QCOMPARE(most.feasible, 3);
        QCOMPARE(most.top.size(), std::size_t(3));
        QCOMPARE(most.top[0].node, 1);
        QCOMPARE(most.top[0].score, 0.75); // the Q-value is the logged score
        QCOMPARE(most.top[1].score, 0.25);
        policy::PlacementDecision least = choose("return -x.select(1, 9)"); // spread
        QCOMPARE(least.node, 0); // first of the tied emptiest nodes in the heuristic's order
        QCOMPARE(least.top[0].score, -0.25);

        // Through the registry-like entry point and inside a whole fill experiment.
        auto net = newNet(2);
        QVERIFY(net->save(path("p.slq")).ok());
        auto made = rl::makeModelPolicy("learned:" + path("p.slq"));
        QVERIFY(made.ok() && made.value());
        QCOMPARE(made.value()->name(), std::string("learned"));
        QVERIFY(!rl::makeModelPolicy("learned:" + path("none.slq")).ok());
        QVERIFY(rl::isModelPolicy("torchscript:x.pt") && !rl::isModelPolicy("bestfit"));
        const trace::Trace t = smallFillTrace();
        auto fill = sim::runFillExperiment(t, *made.value(), {});
        QVERIFY(fill.ok());
        QVERIFY(fill->placed > 0);
        QVERIFY(!fill->decisions.decisions().empty());
    }

    void waitActionIsMaskedAfterMaxWaits()
    {
        // The scorer prefers the wait row (heuristic_score -1 scores +1, every node <= 0).
        TraceBuilder b;
        b.node(8000, 8000, 0).node(8000, 8000, 0);
        for (int i = 0; i < 6; ++i)
            b.task(2000, 0, 0, 0, 10.0 * i, 100);
        cluster::ClusterState c(b.t);
        rl::LearnedOptions o;
        o.allowWait = true;
        o.maxConsecutiveWaits = 2;
        auto scorer = rl::loadTorchScript(scriptedModule(path("w.pt"), "return -x.select(1, 10)"), rl::kFeatureCount);
        rl::LearnedPolicy p(std::move(scorer).value(), o);
        const policy::PolicyContext ctx { b.t, nullptr };
        p.reset(ctx, c);
        rl::RewardObserver reward { rl::RewardConfig {} }; // as a replay would tell it
        reward.policyReset(ctx, c);
        sim::DecisionLog log;
        Rng rng(1);
        const trace::TaskRequest r { 2000, 0, 0, 0, 0 };
        std::vector<int> nodes;
        for (int i = 0; i < 4; ++i) {
            const policy::PlacementRequest req { r, nullptr, nullptr, 100.0, 3, 50.0, 0.0 };
            auto d = p.place(c, req, rng, 8);
            nodes.push_back(d.node);
            QCOMPARE(d.feasible, 2);
            QCOMPARE(d.top.size(), std::size_t(2)); // candidates are logged even when it waits
            reward.decided(sim::DecidedEvent { c, req, d, 0 });
            const std::size_t k = log.add(sim::Decision {}, d.top);
            reward.logged(log, k, 0);
            const float* terms = log.rewardOf(log.decisions()[k]);
            QVERIFY(terms);
            QCOMPARE(terms[2], d.node < 0 ? 0.0f : 1.0f); // success: 0 for a wait, 1 for a placement
        }
        QCOMPARE(nodes, (std::vector<int> { -1, -1, 0, -1 })); // two waits, then masked; the counter restarts
        // In a fill experiment (no submit time) the wait action does not exist.
        auto d = p.place(c, policy::PlacementRequest { r, nullptr, nullptr, 0 }, rng, 8);
        QVERIFY(d.node >= 0);
        // A whole timed replay still finishes every job.
        auto scorer2 = rl::loadTorchScript(path("w.pt"), rl::kFeatureCount);
        rl::LearnedPolicy q(std::move(scorer2).value(), o);
        rl::RewardObserver rewards { rl::RewardConfig {} };
        auto run = sim::runTimedReplay(b.t, q, {}, sim::Recording {}, { &rewards });
        QVERIFY(run.ok());
        QCOMPARE(run->completed, int64_t(6));
        QVERIFY(run->waitS.max > 0); // it did hold jobs
        // Every logged decision carries its reward terms; total = weighted terms + tail.
        int withReward = 0;
        for (const sim::Decision& dec : run->decisions.decisions())
            if (const float* t = run->decisions.rewardOf(dec)) {
                ++withReward;
                const auto w = rl::RewardConfig {}.normalised();
                QVERIFY(std::abs(t[5] - float(w[0] * t[0] + w[1] * t[1] + w[2] * t[2] + w[3] * t[3] + t[4])) < 1e-5f);
            }
        QVERIFY(withReward >= 6);
    }

    void aHeuristicEarnsTheRewardTheAgentWould()
    {
        // The reward observes the replay, whoever decides. One 8-core node without GPUs, 8 GiB;
        // two 2-core tasks at 0 and 5 s (run 10 s). Each placement: balance 1 - |cpu share - mem
        // share| = 1 - |0.25 - 0| then 1 - |0.5 - 0|, packing the dominant share 0.25 then 0.5,
        // success 1, fragmentation 0 (no GPUs), no tail; total with the default weights (0.4,
        // 0.3, 0.2, 0.1) 0.3 + 0.075 + 0.2 = 0.575, then 0.2 + 0.15 + 0.2 = 0.55.
        TraceBuilder b;
        b.node(8000, 8192, 0);
        b.task(2000, 0, 0, 0, 0.0, 10);
        b.task(2000, 0, 0, 0, 5.0, 10);
        auto bestfit = policy::makePlacementPolicy("bestfit");
        rl::RewardObserver rewards { rl::RewardConfig {} };
        auto run = sim::runTimedReplay(b.t, *bestfit, {}, sim::Recording {}, { &rewards });
        QVERIFY(run.ok());
        const auto& ds = run->decisions.decisions();
        QCOMPARE(ds.size(), std::size_t(2));
        const float* first = run->decisions.rewardOf(ds[0]);
        const float* second = run->decisions.rewardOf(ds[1]);
        QVERIFY(first && second);
        QCOMPARE(first[0], 0.75f);
        QCOMPARE(first[1], 0.25f);
        QCOMPARE(first[2], 1.0f);
        QCOMPARE(first[3], 0.0f);
        QCOMPARE(first[4], 0.0f);
        QVERIFY(std::abs(first[5] - 0.575f) < 1e-6f);
        QCOMPARE(second[0], 0.5f);
        QCOMPARE(second[1], 0.5f);
        QVERIFY(std::abs(second[5] - 0.55f) < 1e-6f);
        QVERIFY(std::abs(rewards.episodeReward().total - 1.125) < 1e-9);
        // Without the observer the same replay logs no reward, and places the same.
        auto plain = sim::runTimedReplay(b.t, *bestfit, {});
        QVERIFY(plain.ok() && plain->decisions.rewardOf(plain->decisions.decisions()[0]) == nullptr);
        QCOMPARE(plain->scheduleHash, run->scheduleHash);
    }

    void preselectionKeepsTheHeuristicsBest()
    {
        TraceBuilder b;
        for (int i = 0; i < 12; ++i)
            b.node(8000, 8000, 0);
        b.task(1000, 0, 0, 0);
        cluster::ClusterState c(b.t);
        for (int i = 0; i < 12; ++i)
            if (i % 3 == 0)
                c.allocate(c.makePlacement(i, { 6000, 0, 0, 0, 0 }, 0)); // nodes 0, 3, 6, 9 fullest
        rl::LearnedOptions o;
        o.preselectAbove = 5;
        o.preselectTop = 4;
        auto scorer = rl::loadTorchScript(scriptedModule(path("s.pt"), "return -x.select(1, 9)"), rl::kFeatureCount);
        rl::LearnedPolicy p(std::move(scorer).value(), o);
        p.reset(policy::PolicyContext { b.t, nullptr }, c);
        Rng rng(1);
        const auto d = p.place(c, policy::PlacementRequest { { 1000, 0, 0, 0, 0 }, nullptr, nullptr, 0 }, rng, 8);
        // 12 feasible > 5: only BestFit's best 4 (the fullest nodes) are candidates, so even a
        // spreading scorer must pick one of them.
        QCOMPARE(d.feasible, 12);
        QCOMPARE(d.top.size(), std::size_t(4));
        QCOMPARE(d.node % 3, 0);
    }

    void timeWindows()
    {
        TraceBuilder b;
        b.node(8000, 8000, 0);
        for (int i = 0; i < 10; ++i)
            b.task(1000, 0, 0, 0, 100.0 + 3600.0 * i, 60);
        auto w = trace::timeWindow(b.t, 3600, 2 * 3600);
        QVERIFY(w.ok());
        QCOMPARE(w->jobs.size(), std::size_t(2)); // submits at 3700 and 7300 (first submit 100)
        QCOMPARE(w->jobs[0].submitTimeS, 3700.0);
        QCOMPARE(w->jobs[1].firstTask, uint32_t(1));
        QVERIFY(!trace::timeWindow(b.t, 100 * 3600, 3600).ok());
    }

    void trainingIsDeterministicAndLearns()
    {
        const trace::Trace t = smallFillTrace();
        auto a = newNet(5), b = newNet(5), c = newNet(5);
        const uint64_t before = a->weightHash();
        std::vector<rl::EpisodeStats> seen;
        auto ra = rl::train(*a, t, quickTraining(), [&](const rl::EpisodeStats& s) { seen.push_back(s); });
        QVERIFY2(ra.ok(), ra.ok() ? "" : ra.error().toString().c_str());
        QVERIFY(rl::train(*b, t, quickTraining()).ok());
        rl::TrainOptions other = quickTraining();
        other.seed = 78;
        QVERIFY(rl::train(*c, t, other).ok());
        QVERIFY(a->weightHash() != before); // it learned something
        QCOMPARE(a->weightHash(), b->weightHash()); // same seed, same weights
        QVERIFY(a->weightHash() != c->weightHash());
        QCOMPARE(seen.size(), std::size_t(2));
        // An episode is the fill experiment's pod list (trimmed to the ratio: the generated trace
        // asks for more), cut at maxPods.
        auto probe = policy::makePlacementPolicy("firstfit");
        auto episode = sim::runFillExperiment(
            t, *probe, rl::fillOptionsFor(quickTraining(), quickTraining().seed), rl::trainingRecording());
        QVERIFY(episode.ok() && episode->podsRemoved > 0);
        QCOMPARE(seen[0].decisions, std::min<int64_t>(300, episode->pods));
        QVERIFY(seen[0].gradientSteps > 0 && seen[0].meanLoss >= 0);
        QCOMPARE(seen[0].epsilon, 0.3);
        QCOMPARE(seen[1].epsilon, 0.02);
        // cancel
        CancelToken cancel;
        cancel.cancel();
        auto cancelled = rl::train(*c, t, quickTraining(), {}, {}, cancel);
        QVERIFY(!cancelled.ok() && cancelled.error().isCancelled());
    }

    void divergenceStopsTheRoundAndKeepsTheParent()
    {
        const trace::Trace t = smallFillTrace();
        const std::string parent = path("parent.slq"), child = path("child.slq"), project = path("div.schedlab");
        QVERIFY(newNet(9)->save(parent).ok());
        const QByteArray parentSha = sha(parent);
        auto p = store::Project::open(project).value();
        rl::RoundOptions o;
        o.parentCheckpoint = parent;
        o.outCheckpoint = child;
        o.train = quickTraining();
        o.train.learningRate = 1e30; // Adam steps of 1e30: the loss overflows
        auto r = workflow::runRound(t, {}, p.get(), o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("diverged") != std::string::npos, r.error().message.c_str());
        QCOMPARE(sha(parent), parentSha);
        QVERIFY(!QFile::exists(QString::fromStdString(child)));
        auto rounds = p->rounds().value();
        QCOMPARE(rounds.size(), std::size_t(1));
        QCOMPARE(rounds[0].status, std::string("failed"));
        QVERIFY(rounds[0].error.find("diverged") != std::string::npos);
    }

    void roundsAreStoredWithLineage()
    {
        const trace::Trace t = smallFillTrace();
        auto p = store::Project::open(path("rounds.schedlab")).value();
        rl::RoundOptions o;
        o.checkpointDir = m_dir.path().toStdString();
        o.train = quickTraining();
        o.evalSeeds = { 42, 43 };
        o.baselines = { "bestfit" };
        auto first = workflow::runRound(t, {}, p.get(), o);
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().toString().c_str());
        QCOMPARE(first->checkpoint, m_dir.filePath(QString("round-%1.slq").arg(first->roundId)).toStdString());
        QCOMPARE(first->eval.size(), std::size_t(2));
        QCOMPARE(first->eval[0].policy, std::string("learned"));
        QCOMPARE(first->eval[1].policy, std::string("bestfit"));
        QCOMPARE(first->eval[0].values.size(), std::size_t(2 * 3)); // 2 seeds x 3 metrics
        QVERIFY(first->eval[0].mean.at("finalGpuAllocPct") > 0);
        o.parentCheckpoint = first->checkpoint;
        o.parentRound = first->roundId;
        auto second = workflow::runRound(t, {}, p.get(), o);
        QVERIFY(second.ok());
        auto rows = p->rounds().value();
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[1].parentId, rows[0].id);
        QCOMPARE(rows[1].checkpointSha256, rl::fileSha256(second->checkpoint));
        QCOMPARE(p->roundCurve(rows[1].id)->size(), std::size_t(2));
        QCOMPARE(p->roundEval(rows[1].id)->size(), std::size_t(2 * 2 * 3));
        // the stored checkpoint replays
        QVERIFY(rl::makeModelPolicy("learned:" + second->checkpoint).ok());
    }

    // Pre-training from a teacher: the teacher decides, the network learns to rank its choice
    // first (agreement is measured on each episode before training on it, so on seeds it has not
    // trained on); deterministic; the teacher's round leads the lineage.
    void teacherPretrainingImitates()
    {
        const trace::Trace t = smallFillTrace();
        rl::TrainOptions o = quickTraining();
        o.episodes = 4;
        // The preselection's own heuristic as the teacher: its choice is candidate 0, which the
        // network can learn from the heuristic_score feature.
        auto net = newNet(3);
        auto report = rl::imitate(*net, t, o, "bestfit");
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().toString().c_str());
        QCOMPARE(int(report->episodes.size()), 4);
        QVERIFY(report->episodes.front().decisions > 100);
        const double first = report->episodes.front().episodeReturn, last = report->episodes.back().episodeReturn;
        QVERIFY2(last >= 0.9 && last > first, qPrintable(QString("agreement %1 -> %2").arg(first).arg(last)));
        auto again = newNet(3);
        QVERIFY(rl::imitate(*again, t, o, "bestfit").ok());
        QCOMPARE(again->weightHash(), net->weightHash());
        // FGD as the teacher: it decides by the fragmentation delta (a feature too).
        auto fgd = newNet(3);
        auto fgdReport = rl::imitate(*fgd, t, o, "fgd");
        QVERIFY(fgdReport.ok());
        QVERIFY2(fgdReport->episodes.back().episodeReturn > fgdReport->episodes.front().episodeReturn,
            qPrintable(QString("agreement %1 -> %2").arg(fgdReport->episodes.front().episodeReturn).arg(fgdReport->episodes.back().episodeReturn)));
        auto unknown = rl::imitate(*newNet(3), t, o, "oracle");
        QVERIFY(!unknown.ok());
        QVERIFY2(unknown.error().message.find("unknown teacher 'oracle'") != std::string::npos, unknown.error().message.c_str());

        // A session with a teacher: its round first (window "teacher fgd; ..."), the DQN round
        // its child, seeds as if it were round 0.
        auto p = store::Project::open(path("teacher.schedlab")).value();
        workflow::SessionOptions s;
        s.rounds = 1;
        s.teacher = "fgd";
        s.base.checkpointDir = m_dir.path().toStdString();
        s.base.train = quickTraining();
        s.base.evalSeeds = { 42 };
        s.base.baselines = { "fgd" };
        auto session = workflow::runSession(t, {}, p.get(), s);
        QVERIFY2(session.ok(), session.ok() ? "" : session.error().toString().c_str());
        auto rows = p->rounds().value();
        QCOMPARE(rows.size(), std::size_t(2));
        QVERIFY2(rows[0].window.rfind("teacher fgd; ", 0) == 0, rows[0].window.c_str());
        QCOMPARE(rows[1].parentId, rows[0].id);
        QCOMPARE(rows[0].seed, uint64_t(77));
        QCOMPARE(rows[1].seed, uint64_t(77 + 2));
        QVERIFY(rows[1].window.find("teacher") == std::string::npos);
        QVERIFY(rl::makeModelPolicy("learned:" + rows[0].checkpoint).ok());
    }

    void choiceBufferKeepsTheTeachersRowFirst()
    {
        // Five candidates, row i filled with i; the teacher chose row 3.
        std::vector<float> rows(5 * rl::kFeatureCount);
        for (int i = 0; i < 5; ++i)
            std::fill_n(rows.begin() + i * rl::kFeatureCount, rl::kFeatureCount, float(i));
        rl::ChoiceBuffer three(1, 3), all(1, 16);
        three.addChoice(rows.data(), 5, 3);
        all.addChoice(rows.data(), 5, 3);
        QCOMPARE(three.decisions(), std::size_t(1));
        QCOMPARE(three.size(0), 3); // the choice + 2 others
        QCOMPARE(all.size(0), 5); // fewer candidates than the cap: all of them
        QCOMPARE(three.rows(0)[0], 3.0f);
        QCOMPARE(all.rows(0)[0], 3.0f);
        std::set<float> others;
        for (int k = 1; k < all.size(0); ++k)
            others.insert(all.rows(0)[k * rl::kFeatureCount]);
        QCOMPARE(others, (std::set<float> { 0, 1, 2, 4 }));
        const float a = three.rows(0)[rl::kFeatureCount], b = three.rows(0)[2 * rl::kFeatureCount];
        QVERIFY(a != b && a != 3.0f && b != 3.0f);
        three.clear();
        QCOMPARE(three.decisions(), std::size_t(0));
    }

    void teacherLossKeepsTheTeacherInView()
    {
        // ThreeNodes: the network packs (node 1), a WorstFit teacher advising (not deciding) would
        // spread (node 0 or 2, dominant share after 0.25).
        ThreeNodes three;
        const TraceBuilder& b = three.b;
        const cluster::ClusterState& c = *three.c;
        auto scorer = rl::loadTorchScript(scriptedModule(path("pack.pt"), "return x.select(1, 9)"), rl::kFeatureCount);
        rl::LearnedPolicy p(std::move(scorer).value());
        rl::ChoiceBuffer advice(1, 16);
        p.setTeacher(policy::makePlacementPolicy("worstfit"), &advice, false);
        p.reset(policy::PolicyContext { b.t, nullptr }, c);
        Rng rng(1);
        const trace::TaskRequest r { 2000, 0, 0, 0, 0 };
        QCOMPARE(p.place(c, policy::PlacementRequest { r, nullptr, nullptr, 0 }, rng, 8).node, 1); // the network decided
        QCOMPARE(advice.decisions(), std::size_t(1));
        QCOMPARE(advice.size(0), 3);
        QCOMPARE(advice.rows(0)[9], 0.25f); // the teacher's row first: a spreading choice

        // Training from a fresh network with the default weights (balance and packing) and a
        // WorstFit teacher loss: the greedy network then ranks WorstFit's choice first far more
        // often than the same training without it.
        const trace::Trace t = smallFillTrace();
        auto agreement = [&](rl::QNetwork& net) { // -1 when the replay or the scorer fails
            rl::LearnedPolicy greedy(net.cloneNetwork());
            rl::ChoiceBuffer seen(2, 16);
            greedy.setTeacher(policy::makePlacementPolicy("worstfit"), &seen, false);
            if (!sim::runFillExperiment(t, greedy, rl::fillOptionsFor(quickTraining(), 42), rl::trainingRecording())
                     .ok()
                || seen.decisions() == 0)
                return -1.0;
            int64_t agree = 0;
            std::vector<float> q;
            for (std::size_t d = 0; d < seen.decisions(); ++d) {
                if (!net.score(seen.rows(d), seen.size(d), rl::kFeatureCount, q).ok())
                    return -1.0;
                agree += std::max_element(q.begin(), q.end()) == q.begin() ? 1 : 0;
            }
            return double(agree) / double(seen.decisions());
        };
        rl::TrainOptions o = quickTraining();
        o.episodes = 3;
        auto plain = newNet(4), taught = newNet(4);
        QVERIFY(rl::train(*plain, t, o).ok());
        o.teacherLoss = "worstfit";
        o.teacherLossWeight = 5;
        auto report = rl::train(*taught, t, o);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().toString().c_str());
        const double without = agreement(*plain), with = agreement(*taught);
        qInfo("agreement with WorstFit: %.3f without the teacher loss, %.3f with", without, with);
        QVERIFY2(with >= 0.6 && with > without + 0.2, qPrintable(QString("agreement with WorstFit: %1 without, %2 with").arg(without).arg(with)));
        // Refused: an unknown teacher, a negative weight.
        o.teacherLoss = "oracle";
        auto unknown = rl::train(*newNet(4), t, o);
        QVERIFY(!unknown.ok() && unknown.error().message.find("'oracle'") != std::string::npos);
        o.teacherLoss = "fgd";
        o.teacherLossWeight = -1;
        QVERIFY(!rl::train(*newNet(4), t, o).ok());
    }

    void validationKeepsTheBestEpisode()
    {
        const trace::Trace t = smallFillTrace();
        rl::TrainOptions o = quickTraining();
        o.episodes = 4;
        o.validationSeeds = { 9 };
        auto kept = newNet(6), last = newNet(6);
        auto greedyAlloc = [&](const rl::QNetwork& net) {
            rl::LearnedPolicy greedy(net.cloneNetwork(), o.learnedOptions());
            auto r = sim::runFillExperiment(t, greedy, rl::fillOptionsFor(o, 9), rl::trainingRecording());
            return r.ok() ? r->finalGpuAllocPct : -1.0;
        };
        const double start = greedyAlloc(*kept);
        std::vector<double> validation;
        auto report = rl::train(*kept, t, o, [&](const rl::EpisodeStats& s) { validation.push_back(s.validation); });
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().toString().c_str());
        QCOMPARE(validation.size(), std::size_t(4));
        QCOMPARE(report->startValidation, start); // the starting weights are validated first
        // The kept episode is the first best one, the starting weights (0) unless an episode beat them.
        const auto top = std::max_element(validation.begin(), validation.end());
        const int best = *top > start ? int(top - validation.begin()) + 1 : 0;
        QCOMPARE(report->keptEpisode, best);
        // The kept weights replay the kept episode's validation exactly; training without
        // validation (the same episodes: validating draws nothing from the training streams)
        // ends with the last episode's weights and replays the last validation.
        QCOMPARE(greedyAlloc(*kept), best == 0 ? start : validation[std::size_t(best - 1)]);
        rl::TrainOptions plain = o;
        plain.validationSeeds.clear();
        auto plainReport = rl::train(*last, t, plain);
        QVERIFY(plainReport.ok());
        QCOMPARE(plainReport->keptEpisode, 0);
        QCOMPARE(plainReport->startValidation, -1.0);
        QCOMPARE(greedyAlloc(*last), validation.back());
        QCOMPARE(kept->weightHash() == last->weightHash(), best == 4);
        // A round none of whose episodes beats its starting weights on the validation seeds ends
        // with them, bit for bit (a learning rate too small to change a choice: every episode ties).
        {
            rl::TrainOptions still = o;
            still.learningRate = 1e-9;
            auto net = newNet(6), moved = newNet(6);
            const uint64_t startHash = net->weightHash();
            std::vector<double> ties;
            auto r = rl::train(*net, t, still, [&](const rl::EpisodeStats& s) { ties.push_back(s.validation); });
            QVERIFY(r.ok());
            QCOMPARE(ties, std::vector<double>(4, r->startValidation));
            QCOMPARE(r->keptEpisode, 0);
            QCOMPARE(net->weightHash(), startHash);
            still.validationSeeds.clear();
            QVERIFY(rl::train(*moved, t, still).ok());
            QVERIFY(moved->weightHash() != startHash); // training did move the weights
        }
        // A timed round validates on its training window: the greedy policy's p99 wait, lower is
        // better; the same rules otherwise (the start is episode 0, the kept weights replay it).
        o.run = rl::trainingRun(sim::RunMode::Timed);
        o.episodes = 3;
        auto timedNet = newNet(6);
        auto greedyP99 = [&](const rl::QNetwork& net) {
            rl::LearnedPolicy greedy(net.cloneNetwork(), o.learnedOptions());
            auto r = sim::runTimedReplay(t, greedy, rl::timedOptionsFor(o, 9), rl::trainingRecording());
            return r.ok() ? r->waitS.p99 : -1.0;
        };
        const double timedStart = greedyP99(*timedNet);
        QVERIFY(timedStart > 0); // jobs do wait on this trace
        std::vector<double> waits;
        auto timed = rl::train(*timedNet, t, o, [&](const rl::EpisodeStats& s) { waits.push_back(s.validation); });
        QVERIFY2(timed.ok(), timed.ok() ? "" : timed.error().toString().c_str());
        QCOMPARE(waits.size(), std::size_t(3));
        QCOMPARE(timed->startValidation, timedStart);
        const auto low = std::min_element(waits.begin(), waits.end());
        const int keptTimed = *low < timedStart ? int(low - waits.begin()) + 1 : 0;
        QCOMPARE(timed->keptEpisode, keptTimed);
        QCOMPARE(greedyP99(*timedNet), keptTimed == 0 ? timedStart : waits[std::size_t(keptTimed - 1)]);
        QCOMPARE(rl::validationText(sim::RunMode::Timed, 654.2), std::string("p99 wait 654 s"));
        QCOMPARE(rl::validationText(sim::RunMode::Fill, 95.456), std::string("95.46 % GPU allocated"));
    }

    // WiSE-FT: mixWith interpolates weight by weight, and a round with a blend ends with exactly
    // (1 - blend) x its start + blend x what the same round without it ends with; with
    // validation, the kept weights are the blended ones the validation measured.
    void blendEndsBetweenStartAndFineTuned()
    {
        auto a = newNet(1), b = newNet(2);
        auto same = a->cloneNetwork();
        same->mixWith(*b, 0);
        QCOMPARE(same->weightHash(), a->weightHash());
        same->mixWith(*b, 1);
        QCOMPARE(same->weightHash(), b->weightHash());
        auto half = a->cloneNetwork();
        half->mixWith(*b, 0.25);
        QVERIFY(std::abs(half->weightSum() - (0.75 * a->weightSum() + 0.25 * b->weightSum())) < 1e-4);

        const trace::Trace t = smallFillTrace();
        rl::TrainOptions o = quickTraining();
        auto start = newNet(6), tuned = newNet(6), blended = newNet(6);
        QVERIFY(rl::train(*tuned, t, o).ok());
        o.blend = 0.5;
        QVERIFY(rl::train(*blended, t, o).ok());
        auto expected = start->cloneNetwork();
        expected->mixWith(*tuned, 0.5);
        QCOMPARE(blended->weightHash(), expected->weightHash());
        QVERIFY(blended->weightHash() != tuned->weightHash());

        o.validationSeeds = { 9 };
        o.episodes = 3;
        auto validated = newNet(6);
        std::vector<double> validation;
        auto r = rl::train(*validated, t, o, [&](const rl::EpisodeStats& s) { validation.push_back(s.validation); });
        QVERIFY(r.ok());
        rl::LearnedPolicy greedy(validated->cloneNetwork(), o.learnedOptions());
        auto replay = sim::runFillExperiment(t, greedy, rl::fillOptionsFor(o, 9), rl::trainingRecording());
        QVERIFY(replay.ok());
        QCOMPARE(replay->finalGpuAllocPct, r->keptEpisode == 0 ? r->startValidation : validation[std::size_t(r->keptEpisode - 1)]);

        for (double bad : { 0.0, 1.5, std::nan("") }) {
            o.blend = bad;
            auto refused = rl::train(*newNet(6), t, o);
            QVERIFY(!refused.ok() && refused.error().message.find("blend") != std::string::npos);
        }
    }

    // Weights change behaviour the way they say, on a trace the agents never trained on: a
    // packing-first agent (reward for the chosen node's dominant share after placing) keeps
    // fewer nodes busy than a balance-first one, and fragments GPUs less.
    void packingAndBalanceWeightsDiffer()
    {
        trace::GeneratorOptions g;
        g.nodes = 24;
        g.jobs = 800;
        g.seed = 5;
        g.targetGpuLoad = 0.6;
        const trace::Trace train = trace::generateTrace(g).value();
        g.seed = 6;
        const trace::Trace heldOut = trace::generateTrace(g).value();
        auto agent = [&](const char* weights) {
            rl::TrainOptions o;
            o.run = rl::trainingRun(sim::RunMode::Timed);
            o.episodes = 3;
            o.gamma = 0; // the reward of the placement itself: a bandit the network can learn quickly
            o.seed = 21;
            o.reward = rl::RewardConfig::parse(weights).value();
            auto net = newNet(4);
            auto r = rl::train(*net, train, o);
            if (!r)
                qFatal("%s", r.error().toString().c_str());
            rl::LearnedPolicy p(std::move(net), o.learnedOptions());
            sim::Recording quiet;
            quiet.decisions = false;
            auto run = sim::runTimedReplay(heldOut, p, sim::TimedOptions {}, quiet);
            if (!run)
                qFatal("%s", run.error().toString().c_str());
            double active = 0;
            for (const auto& s : run->series)
                active += s.activeNodes;
            return std::pair(active / double(std::max<std::size_t>(1, run->series.size())), run->meanGpuFragRate);
        };
        const auto [packActive, packFrag] = agent("balance=0,packing=0.8,success=0.2,custom=0");
        const auto [balanceActive, balanceFrag] = agent("balance=0.8,packing=0,success=0.2,custom=0");
        qInfo("mean active nodes: packing-first %.2f, balance-first %.2f; GPU fragmentation rate %.4f vs %.4f", packActive, balanceActive,
            packFrag, balanceFrag);
        QVERIFY(packActive < balanceActive);
        QVERIFY(packFrag < balanceFrag);
    }
};

QTEST_GUILESS_MAIN(TestRl)
#include "test_rl.moc"
