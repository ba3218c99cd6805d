#pragma once
/// Writes a trace as a kubectl dump: nodes.json (`kubectl get nodes -o json`), pods.json
/// (`kubectl get pods -A -o json`) and events.json (`kubectl get events -A -o json`), shaped like
/// what kubectl prints (metadata with labels and owner references, containers with env and
/// volume mounts, status conditions and container statuses), so that import benchmarks and tests
/// read realistic bytes. Tasks with a logged node become bound pods with a Scheduled event;
/// logged unschedulable decisions become FailedScheduling events. Importing the dump gives the
/// trace's nodes, requests and logged placements back (tested).

#include "base/result.h"

#include <string>

namespace schedlab::trace {

struct Trace;
struct Job;

struct KubectlDumpOptions {
    double epochUnixS = 1.7e9; ///< trace time 0 in Unix seconds
    bool events = true;
};

/// "namespace/name" of task k of job j as the dump names its pod (a job name "ns/x" keeps its
/// namespace, else "default"; tasks of multi-task jobs get "-k"; characters a pod name may not
/// hold become '-').
std::string kubectlPodName(const Trace& trace, const Job& job, uint32_t k);

/// Writes the three files into `dir` (created when missing). Every task is one pod.
Status writeKubectlDump(const Trace& trace, const std::string& dir, const KubectlDumpOptions& options = {});

} // namespace schedlab::trace
