#pragma once
/// Standard Workload Format 2.2 (Parallel Workloads Archive), docs/model.md §2.1.
/// One processor pool by default; ImportOptions::procsPerNode = K splits it into nodes of K
/// processors and each job into a gang of ceil(p / K) tasks. A processor is 1000 cpuMilli.

#include "base/result.h"

#include <string>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// Reads header comments and jobs; builds the cluster from MaxProcs (else MaxNodes, else the
/// largest request). Jobs with run time <= 0 are skipped with a warning; a requested time of -1
/// falls back to the run time (counted as "requested-time-fallback").
Status importSwf(LineReader& reader, Trace& trace, ImportContext& ctx);

/// Processors per node for an SWF log, from what came with it: the `<log>.machines` file next to
/// it (the Parallel Workloads Archive's "id name nodes processors-per-node ..." line), else the
/// header's MaxProcs / MaxNodes when MaxNodes > 1 divides it. 0 = nothing says (one pool).
int suggestedProcsPerNode(const std::string& swfPath, const Trace& trace);

/// "one pool of 240 processors" / "120 nodes of 2 processors" for a trace imported from SWF.
std::string swfClusterModel(const Trace& trace);

} // namespace schedlab::trace
