#pragma once
// A generated cluster scheduled by schedlab's k8s-default (FCFS, random ties) and written as
// kube-scheduler would have logged it, with the kubectl dump of the same cluster: no kube-scheduler
// runs on these machines, so tests and benchmarks of the log importer read this instead.
// - every bind: "Successfully bound pod to node" pod= node= evaluatedNodes= feasibleNodes=
//   (verbosity 2), at the time the replay placed the pod;
// - a pod no node fits when its turn comes: "Unable to schedule pod; no fit; waiting" pod= err=
//   "0/N nodes are available: <count> <reason>, ..." (reasons sorted, each node's first misfit);
// - verbosity 10 adds, before each decision, "Plugin scored node for pod" for NodeResourcesFit
//   and NodeResourcesBalancedAllocation and "Calculated node's final score for pod" for every
//   feasible node, node by node as 1.26+ log them; the scores are k8s-default's own
//   (kubernetes_plugins.h), so importing the log and rescoring with k8s-default agrees wherever
//   the logged choice had no tie.
// Text lines have klog's header (UTC, no year) and no prefix; --log-year says the year.

#include "base/result.h"
#include "trace/trace_generator.h"

#include <string>

namespace schedlab::cli {

struct SchedulerLogOptions {
    int verbosity = 10; ///< 2: binds and failures only; 10: and every score
    bool json = false; ///< the JSON logging format instead of klog text
    int64_t maxBytes = 0; ///< stop writing the log past this size (0 = whole run)
    /// A KubeSchedulerConfiguration (YAML) the generated scheduler runs with: its plugin weights
    /// and scoring strategy (the log's scores are then the configured plugins' weighted scores).
    /// It must score every node (percentageOfNodesToScore: 100, or fewer than 100 nodes).
    std::string schedulerConfig;
};

struct SchedulerLogStats {
    std::size_t nodes = 0, pods = 0, binds = 0, failures = 0;
    int64_t lines = 0, bytes = 0;
    int year = 0; ///< of the first line (the text format does not say it)
};

/// Writes dir/nodes.json, dir/pods.json (a kubectl dump at the end of the run) and
/// dir/kube-scheduler.log (or .json).
Result<SchedulerLogStats> writeGeneratedSchedulerLog(
    const trace::GeneratorOptions& generator, const SchedulerLogOptions& options, const std::string& dir);

} // namespace schedlab::cli
