// libFuzzer target: KubeSchedulerConfiguration YAML (policy/k8s_scheduler_config.h). Any crash,
// leak, UB or hang is a finding; errors are expected outcomes. A configuration that parses must
// score a small cluster without breaking its own invariants.

#include "policy/k8s_scheduler_config.h"
#include "cluster/cluster_state.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace schedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto config = policy::parseKubeSchedulerConfig(text, "fuzz.yaml");
    if (!config)
        return 0;
    static const trace::Trace cluster = [] {
        trace::Trace t;
        for (int i = 0; i < 3; ++i) {
            trace::Node n;
            n.cpuMilli = 4000 * (i + 1);
            n.memMiB = 8192;
            n.numGpu = i;
            t.nodes.push_back(n);
        }
        return t;
    }();
    cluster::ClusterState state(cluster);
    const trace::TaskRequest r { 1000, 2048, 1, 500, 0 };
    for (int n = 0; n < state.nodeCount(); ++n) {
        const policy::K8sConfiguredScore s = policy::kubernetesConfiguredScore(*config, state, n, r);
        // Each plugin scores 0..100 before its weight.
        if (s.fit < 0 || s.fit > 100 || s.balanced < 0 || s.balanced > 100) {
            std::fprintf(stderr, "fuzz invariant broken: plugin score out of 0..100 (fit %lld, balanced %lld)\n",
                static_cast<long long>(s.fit), static_cast<long long>(s.balanced));
            std::abort();
        }
    }
    if (policy::feasibleNodesToFind(*config, 1000) < 100)
        std::abort();
    (void)config->summary();
    return 0;
}
