// KubeSchedulerConfiguration: parsing (fields, profiles, errors with line and path) and the
// configured k8s-default on a two-node cluster, every score worked out by hand in the comments.
//
// The cluster of the scoring tests: A = 4000 mcpu / 8000 MiB, empty; B = 8000 / 8000 with 6000
// mcpu in use. The pod asks for 1000 mcpu and 4000 MiB, so with it A is at cpu 25 %, mem 50 %;
// B at cpu 7000/8000 (87 % in integer percent), mem 50 %.

#include "trace_builder.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/placement_policy.h"
#include "rl/learned_policy.h"

#include <QtTest>

using namespace schedlab;
using namespace schedlab::policy;
using schedlab::test::TraceBuilder;

namespace {

std::string config(const std::string& profileBody, const std::string& top = "")
{
    return "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + top
        + "profiles:\n- schedulerName: default-scheduler\n" + profileBody;
}

std::string fitArgs(const std::string& strategyBody)
{
    return "  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n" + strategyBody;
}

struct Cluster {
    TraceBuilder b;
    std::unique_ptr<cluster::ClusterState> state;
    Cluster()
    {
        b.node(4000, 8000, 0).node(8000, 8000, 0);
        state = std::make_unique<cluster::ClusterState>(b.t);
        state->allocate(state->makePlacement(1, { 6000, 0, 0, 0, 0 }, 0));
    }
    // Places the pod under `yaml`: the decision with both nodes' raw scores.
    PlacementDecision place(const std::string& yaml, const trace::TaskRequest& r = { 1000, 4000, 0, 0, 0 })
    {
        auto parsed = parseKubeSchedulerConfig(yaml, "test.yaml");
        if (!parsed)
            qFatal("%s", parsed.error().toString().c_str());
        auto p = makeConfiguredKubernetes("k8s-default", *parsed);
        p->reset(PolicyContext { b.t, nullptr }, *state);
        Rng rng(1);
        return p->place(*state, PlacementRequest { r, nullptr, nullptr, 0 }, rng, 8);
    }
};

double rawOf(const PlacementDecision& d, int node)
{
    for (const auto& c : d.top)
        if (c.node == node)
            return c.raw;
    return -1;
}

} // namespace

class TestK8sSchedulerConfig : public QObject {
    Q_OBJECT
private slots:
    void parsesWeightsStrategyAndPercentage()
    {
        const std::string yaml = config("  percentageOfNodesToScore: 30\n"
                                        "  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: 5\n"
                                        "      disabled:\n      - name: ImageLocality\n"
                                        + fitArgs("        type: RequestedToCapacityRatio\n        resources:\n        - name: cpu\n"
                                                  "          weight: 3\n        - name: nvidia.com/gpu\n        - name: example.com/fpga\n"
                                                  "        requestedToCapacityRatio:\n          shape:\n          - utilization: 0\n"
                                                  "            score: 0\n          - utilization: 100\n            score: 10\n"),
            "percentageOfNodesToScore: 70\n");
        auto c = parseKubeSchedulerConfig(yaml, "test.yaml");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().toString().c_str());
        QCOMPARE(c->profile, std::string("default-scheduler"));
        QCOMPARE(c->percentageOfNodesToScore, 30); // the profile's wins over the global 70
        QCOMPARE(c->fitWeight, int64_t(5));
        QCOMPARE(c->balancedWeight, int64_t(1));
        QCOMPARE(c->strategy, FitStrategy::RequestedToCapacityRatio);
        QCOMPARE(int(c->fitResources.size()), 2);
        QCOMPARE(c->fitResources[0].weight, int64_t(3));
        QCOMPARE(c->fitResources[1].resource, K8sResource::Gpu);
        QCOMPARE(c->fitResources[1].weight, int64_t(1));
        QCOMPARE(int(c->shape.size()), 2);
        QCOMPARE(c->shape[1].score, int64_t(10));
        // Unmodelled: the default plugins left (ImageLocality disabled) and the FPGA resource.
        const std::string all = [&] {
            std::string s;
            for (const auto& u : c->unmodelled)
                s += u + ";";
            return s;
        }();
        QVERIFY2(all.find("TaintToleration x3") != std::string::npos, all.c_str());
        QVERIFY2(all.find("ImageLocality") == std::string::npos, all.c_str());
        QVERIFY2(all.find("example.com/fpga") != std::string::npos, all.c_str());

        // No profiles, no percentage: kube-scheduler's defaults with its adaptive percentage.
        auto d = parseKubeSchedulerConfig("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", "d.yaml");
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().toString().c_str());
        QCOMPARE(d->percentageOfNodesToScore, 0);
        QCOMPARE(d->strategy, FitStrategy::LeastAllocated);
        QVERIFY(!d->isDefault()); // k8s-default without a file scores every node
        QVERIFY(KubeSchedulerConfig {}.isDefault());

        // disabled "*" then enabled: only what is enabled.
        auto only = parseKubeSchedulerConfig(config("  plugins:\n    score:\n      disabled:\n      - name: '*'\n      enabled:\n"
                                                    "      - name: NodeResourcesBalancedAllocation\n        weight: 2\n"),
            "o.yaml");
        QVERIFY(only.ok());
        QCOMPARE(only->fitWeight, int64_t(0));
        QCOMPARE(only->balancedWeight, int64_t(2));
        QVERIFY(only->unmodelled.empty());
    }

    void errorsNameLineAndPath_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("kind") << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n" << "kind: 'Pod' is not KubeSchedulerConfiguration" << 2;
        QTest::newRow("api") << "apiVersion: v1\nkind: KubeSchedulerConfiguration\n" << "apiVersion: 'v1' is not" << 1;
        QTest::newRow("not yaml") << "kind: [unclosed\n" << "not YAML" << 2;
        QTest::newRow("strategy") << QString::fromStdString(config(fitArgs("        type: Packed\n")))
                                  << "profiles[0].pluginConfig[0].args.scoringStrategy.type: 'Packed' is not LeastAllocated" << 9;
        QTest::newRow("shape order") << QString::fromStdString(config(fitArgs(
            "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
            "          - utilization: 50\n            score: 1\n          - utilization: 40\n            score: 2\n")))
                                     << "shape[1].utilization: utilization values must be increasing" << 14;
        QTest::newRow("score range") << QString::fromStdString(config(fitArgs(
            "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
            "          - utilization: 50\n            score: 11\n")))
                                     << "shape[0].score: '11' is not an integer in 0..10" << 13;
        QTest::newRow("resource weight") << QString::fromStdString(config(fitArgs("        type: MostAllocated\n        resources:\n"
                                                                                  "        - name: cpu\n          weight: 0\n")))
                                         << "resources[0].weight: '0' is not an integer in 1..100" << 12;
        QTest::newRow("percentage") << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 120\n"
                                    << "percentageOfNodesToScore: '120' is not an integer in 0..100" << 3;
        QTest::newRow("plugin weight") << QString::fromStdString(config("  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: lots\n"))
                                       << "profiles[0].plugins.score.enabled[0].weight: 'lots' is not an integer" << 9;
        // Strict as kube-scheduler (kubernetes#83030): a misspelt, unknown or repeated field stops
        // it from starting, so it is an error here too, not a silent LeastAllocated.
        QTest::newRow("misspelt") << QString::fromStdString(config("  plugnConfig:\n  - name: NodeResourcesFit\n"))
                                  << "profiles[0].plugnConfig: unknown field 'plugnConfig'" << 5;
        QTest::newRow("unknown top") << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofile: []\n"
                                     << "profile: unknown field 'profile'" << 3;
        QTest::newRow("twice") << QString::fromStdString(config("  plugins: {}\n  plugins: {}\n"))
                               << "profiles[0].plugins: field 'plugins' given twice" << 6;
        QTest::newRow("strategy field") << QString::fromStdString(config(fitArgs("        type: MostAllocated\n        resource:\n        - name: cpu\n")))
                                        << "scoringStrategy.resource: unknown field 'resource'" << 10;
        // Cut mid-file: what is left is valid YAML but names a field that does not exist.
        QTest::newRow("cut") << QString::fromStdString(config(fitArgs("        type: MostAllocated\n        resou")))
                             << "scoringStrategy.resou: unknown field 'resou'" << 10;
    }
    void errorsNameLineAndPath()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, message);
        QFETCH(int, line);
        auto c = parseKubeSchedulerConfig(yaml.toStdString(), "sched.yaml");
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.find(message.toStdString()) != std::string::npos, c.error().toString().c_str());
        QCOMPARE(c.error().file, std::string("sched.yaml"));
        QCOMPARE(c.error().line, int64_t(line));
    }

    // LeastAllocated (no args): A fit (75 + 50) / 2 = 62, balanced 1 - |.25 - .5| / 2 = .875 -> 87:
    // 149. B fit (12 + 50) / 2 = 31, balanced 1 - |.875 - .5| / 2 = .8125 -> 81: 112. As k8s-default.
    void leastAllocatedIsKubernetesDefault()
    {
        Cluster c;
        const PlacementDecision d = c.place(config(""));
        QCOMPARE(d.node, 0);
        QCOMPARE(rawOf(d, 0), 149.0);
        QCOMPARE(rawOf(d, 1), 112.0);
    }

    // MostAllocated, cpu weight 3, memory 1, fit weight 2, balanced disabled:
    // A (25*3 + 50) / 4 = 31 -> x2 = 62. B (87*3 + 50) / 4 = 311 / 4 = 77 -> x2 = 154.
    void mostAllocatedWithWeights()
    {
        Cluster c;
        const PlacementDecision d = c.place(config("  plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: 2\n"
                                                   "      disabled:\n      - name: NodeResourcesBalancedAllocation\n"
            + fitArgs("        type: MostAllocated\n        resources:\n        - name: cpu\n          weight: 3\n"
                      "        - name: memory\n          weight: 1\n")));
        QCOMPARE(d.node, 1);
        QCOMPARE(rawOf(d, 1), 154.0);
        QCOMPARE(rawOf(d, 0), 62.0);
    }

    // RequestedToCapacityRatio, shape 0:10 100:0 (scores x 10): A cpu 100 - 25 = 75, mem 50:
    // round(62.5) = 63 (LeastAllocated truncates to 62) + balanced 87 = 150. B cpu 100 - 87 = 13,
    // mem 50: round(31.5) = 32 + 81 = 113.
    void requestedToCapacityRatioRounds()
    {
        Cluster c;
        const PlacementDecision d = c.place(config(fitArgs("        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n"
                                                           "          shape:\n          - utilization: 0\n            score: 10\n"
                                                           "          - utilization: 100\n            score: 0\n")));
        QCOMPARE(rawOf(d, 0), 150.0);
        QCOMPARE(rawOf(d, 1), 113.0);
    }

    // Three points 0:0 50:8 100:10, balanced disabled: A cpu 25 -> 80 * 25 / 50 = 40, mem 50 -> 80:
    // 60. B cpu 87 -> 80 + 20 * 37 / 50 = 94, mem 80: 87. A pod asking no cpu on A: cpu at 0 %
    // scores 0 and is left out of the mean, memory 50 % -> 80: 80 (not 40).
    void requestedToCapacityRatioShape()
    {
        Cluster c;
        const std::string yaml = config("  plugins:\n    score:\n      disabled:\n      - name: NodeResourcesBalancedAllocation\n"
            + fitArgs("        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
                      "          - utilization: 0\n            score: 0\n          - utilization: 50\n            score: 8\n"
                      "          - utilization: 100\n            score: 10\n"));
        const PlacementDecision d = c.place(yaml);
        QCOMPARE(d.node, 1);
        QCOMPARE(rawOf(d, 0), 60.0);
        QCOMPARE(rawOf(d, 1), 87.0);
        QCOMPARE(rawOf(c.place(yaml, { 0, 4000, 0, 0, 0 }), 0), 80.0);
    }

    // GPUs as nvidia.com/gpu: 4 GPUs, 2 taken, the pod asks one: MostAllocated (2 + 1) * 100 / 4 = 75;
    // a node without GPUs has no allocatable of it and is scored on cpu alone.
    void gpuResource()
    {
        TraceBuilder b;
        b.node(8000, 8000, 4).node(8000, 8000, 0);
        cluster::ClusterState state(b.t);
        state.allocate(state.makePlacement(0, { 0, 0, 2, 1000, 0 }, state.bestFitGpus(0, { 0, 0, 2, 1000, 0 })));
        auto cfg = parseKubeSchedulerConfig(config(fitArgs("        type: MostAllocated\n        resources:\n"
                                                           "        - name: nvidia.com/gpu\n        - name: cpu\n")),
            "g.yaml");
        QVERIFY(cfg.ok());
        // cpu: 2000 * 100 / 8000 = 25; node 0: (75 + 25) / 2 = 50.
        QCOMPARE(kubernetesConfiguredScore(*cfg, state, 0, { 2000, 0, 1, 1000, 0 }).fit, int64_t(50));
        // A cpu-only pod on the GPU-less node: cpu alone, 25.
        QCOMPARE(kubernetesConfiguredScore(*cfg, state, 1, { 2000, 0, 0, 0, 0 }).fit, int64_t(25));
    }

    // percentageOfNodesToScore 50 on 300 nodes: 150 feasible nodes looked for, from where the last
    // cycle stopped; 10 % = 30 is below kube-scheduler's minimum of 100.
    void percentageOfNodesToScore()
    {
        QCOMPARE(feasibleNodesToFind(KubeSchedulerConfig {}, 5000), 5000); // not set: every node
        KubeSchedulerConfig adaptive;
        adaptive.percentageOfNodesToScore = 0;
        QCOMPARE(feasibleNodesToFind(adaptive, 5000), 500); // 50 - 5000/125 = 10 %
        QCOMPARE(feasibleNodesToFind(adaptive, 20000), 1000); // 50 - 160 < 5: 5 %
        QCOMPARE(feasibleNodesToFind(adaptive, 99), 99);

        TraceBuilder b;
        for (int i = 0; i < 300; ++i)
            b.node(4000, 4000, 0);
        cluster::ClusterState state(b.t);
        for (int pct : { 50, 10 }) {
            auto cfg = parseKubeSchedulerConfig(config("", "percentageOfNodesToScore: " + std::to_string(pct) + "\n"), "p.yaml");
            QVERIFY(cfg.ok());
            auto p = makeConfiguredKubernetes("k8s-sampling", *cfg);
            p->reset(PolicyContext { b.t, nullptr }, state);
            Rng rng(1);
            const PlacementDecision d = p->place(state, PlacementRequest { { 1000, 1000, 0, 0, 0 }, nullptr, nullptr, 0 }, rng, 8);
            QCOMPARE(d.feasible, pct == 50 ? 150 : 100);
        }
    }

    // The run's configuration reaches the policy through makeAnyPolicy; other policies ignore it.
    void makeAnyPolicyHonoursIt()
    {
        Cluster c;
        const std::string yaml = config(fitArgs("        type: MostAllocated\n"));
        auto configured = rl::makeAnyPolicy("k8s-default", {}, yaml);
        QVERIFY(configured.ok());
        configured.value()->reset(PolicyContext { c.b.t, nullptr }, *c.state);
        Rng rng(1);
        // MostAllocated (37 / 68) + balanced (87 / 81): B 149, A 124.
        const PlacementDecision d = configured.value()->place(*c.state, PlacementRequest { { 1000, 4000, 0, 0, 0 }, nullptr, nullptr, 0 }, rng, 8);
        QCOMPARE(d.node, 1);
        QCOMPARE(rawOf(d, 1), 149.0);
        QCOMPARE(rawOf(d, 0), 124.0);
        auto bestfit = rl::makeAnyPolicy("bestfit", {}, yaml);
        QVERIFY(bestfit.ok());
        QCOMPARE(bestfit.value()->name(), std::string("bestfit"));
        auto bad = rl::makeAnyPolicy("k8s-default", {}, "kind: Nope\n");
        QVERIFY(!bad.ok());
    }
};

QTEST_GUILESS_MAIN(TestK8sSchedulerConfig)
#include "test_k8s_scheduler_config.moc"
