// `schedlab-cli bench model`: inference latency of the learned policy per decision (all_node,
// 1523 candidate nodes), raw scorer latency on all candidates, and training environment steps
// per second, fill and timed.

#include "cli_args.h"
#include "commands.h"

#include "base/stats.h"
#include "rl/dqn_trainer.h"
#include "rl/learned_policy.h"
#include "rl/q_network.h"
#include "trace/trace_window.h"
#include "sim/fill_experiment.h"
#include "trace/trace_generator.h"
#include "trace/trace_loader.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace schedlab::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Times every place() of the wrapped policy.
class Timed final : public policy::PlacementPolicy {
public:
    explicit Timed(std::unique_ptr<policy::PlacementPolicy> p)
        : m_p(std::move(p))
    {
    }
    std::string name() const override { return m_p->name(); }
    void reset(const policy::PolicyContext& ctx, const cluster::ClusterState& c) override { m_p->reset(ctx, c); }
    policy::PlacementDecision place(const cluster::ClusterState& c, const policy::PlacementRequest& r, Rng& rng, int topK) override
    {
        const auto t0 = Clock::now();
        auto d = m_p->place(c, r, rng, topK);
        micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        return d;
    }
    void onAllocated(const cluster::Placement& p, const trace::TaskRequest& r) override { m_p->onAllocated(p, r); }
    void onReleased(const cluster::Placement& p, const trace::TaskRequest& r) override { m_p->onReleased(p, r); }
    std::vector<double> micros;

private:
    std::unique_ptr<policy::PlacementPolicy> m_p;
};

void printLatency(const char* what, std::vector<double>& us)
{
    const Distribution d = distributionOf(us);
    std::printf("  %-44s %8lld decisions  p50 %7.1f us  p99 %7.1f us  max %8.1f us\n", what, static_cast<long long>(d.count),
        d.p50, d.p99, d.max);
}

} // namespace

int benchModel(const std::string& tracesDir)
{
    namespace fs = std::filesystem;
    const fs::path ob = fs::path(tracesDir) / "alibaba-gpu-v2023";
    auto created = rl::QNetwork::create(1);
    if (!created)
        return fail(created.error().toString());
    std::unique_ptr<rl::QNetwork> net = std::move(created).value();
    std::printf("learned policy (%s), this machine, one thread\n", net->describe().c_str());
    if (fs::exists(ob)) {
        auto loaded = trace::loadTrace({ (ob / "openb_node_list_all_node.csv").string(), (ob / "openb_pod_list_default.csv").string() });
        if (!loaded)
            return fail(loaded.error().toString());
        const trace::Trace& t = loaded->trace;
        std::printf("openb all_node (%zu nodes) x pod_list_default, fill ratio 1.3, seed 42:\n", t.nodes.size());
        for (int topK : { 0, 8 }) {
            Timed timed(std::unique_ptr<policy::PlacementPolicy>(new rl::LearnedPolicy(net->cloneNetwork())));
            sim::Recording rec;
            rec.decisions = topK > 0;
            rec.topK = topK;
            rec.heat = false;
            auto r = sim::runFillExperiment(t, timed, sim::FillOptions {}, rec);
            if (!r)
                return fail(r.error().toString());
            printLatency(topK ? "place() incl. top-8 Q-values for the log" : "place() (preselect + features + Q)", timed.micros);
        }
        // The scorer alone on every node as a candidate (no preselection).
        std::vector<float> rows(t.nodes.size() * rl::kFeatureCount, 0.5f), q;
        std::vector<double> us;
        for (int i = 0; i < 2000; ++i) {
            const auto t0 = Clock::now();
            (void)net->score(rows.data(), int(t.nodes.size()), rl::kFeatureCount, q);
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        }
        printLatency("Q-network on all 1523 candidates at once", us);

        rl::TrainOptions o;
        o.episodes = 1;
        o.run.fillOptions()->maxPods = 5000;
        auto copy = net->cloneNetwork();
        auto gpuNode = trace::loadTrace({ (ob / "openb_node_list_gpu_node.csv").string(), (ob / "openb_pod_list_default.csv").string() });
        if (gpuNode) {
            auto rep = rl::train(*copy, gpuNode->trace, o);
            if (rep)
                std::printf("  training, fill gpu_node x default (5000 pods, DQN updates every 4 steps): %.0f env steps/s\n",
                    rep->episodes[0].stepsPerSecond);
        }
    } else {
        std::printf("(no openb traces under %s; pass --traces DIR)\n", tracesDir.c_str());
    }
    trace::GeneratorOptions g;
    g.nodes = 64;
    g.jobs = 4000;
    g.seed = 42;
    auto sample = trace::generateTrace(g);
    auto window = trace::timeWindow(sample.value(), 0, 4 * 3600.0);
    if (window) {
        rl::TrainOptions o;
        o.run = rl::trainingRun(sim::RunMode::Timed);
        o.episodes = 3;
        auto copy = net->cloneNetwork();
        const auto t0 = Clock::now();
        auto rep = rl::train(*copy, window.value(), o);
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        if (rep)
            std::printf("  training, timed 4 h window of the sample (%zu jobs, 3 episodes): %.1f s, %.0f env steps/s\n",
                window->jobs.size(), s, double(rep->decisions) / s);
    }
    return 0;
}

} // namespace schedlab::cli
