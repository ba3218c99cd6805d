#pragma once
/// schedlab decision logs (docs/decision-log.md, docs/decision-log.schema.json): JSON Lines an
/// external scheduler (an RL agent, a custom scheduler extender) writes, one record per line:
///   {"schema":"schedlab.decision-log/1","scheduler":"rl-agent v3"}            the header, first
///   {"kind":"node","name":"n1","cpu":"32","memory":"128Gi","gpu":8,"gpuModel":"A100"}
///   {"kind":"pod","name":"team-a/train-1","time":1700000000,"cpu":"4","memory":"16Gi","gpu":1,"runtime":3600}
///   {"kind":"decision","time":1700000003.25,"pod":"team-a/train-1","outcome":"placed","node":"n1",
///    "candidates":[{"node":"n1","score":0.91,"terms":{"q":0.91}}],"reward":{"balance":0.12}}
/// Reading is SchedulerLog::addDecisionLog (decision_log_reader.cpp): nodes and pods become a
/// cluster like Kubernetes objects, decisions become logged decisions with every candidate's
/// score. Writing (decision_log_writer.cpp) turns any trace's logged decisions (or its logged
/// placements) into such a log.

#include "base/result.h"

#include <string>
#include <string_view>

namespace schedlab::trace {

struct Trace;

/// The header's schema for this version; a reader takes "schedlab.decision-log/1" and "/1.x".
inline constexpr std::string_view kDecisionLogSchema = "schedlab.decision-log/1";

struct DecisionLogOptions {
    double epochUnixS = -1; ///< trace time 0 in Unix seconds; -1 = the trace's epoch.unixS, else 0
    std::string scheduler; ///< the header's scheduler; empty = the trace's first decision source
};

/// Writes `trace` as a decision log: its nodes, one pod per task (multi-task jobs' tasks named
/// "job-k"), and its logged decisions in order; a trace without logged decisions gets one placed
/// decision per logged placement. Times are Unix seconds.
Status writeDecisionLog(const Trace& trace, const std::string& path, const DecisionLogOptions& options = {});

/// The pod name of task k of `job` in a decision log.
std::string decisionLogPodName(const Trace& trace, uint32_t jobIndex, uint32_t k);

} // namespace schedlab::trace
