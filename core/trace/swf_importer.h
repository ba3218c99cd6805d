#pragma once
/// Standard Workload Format 2.2 (Parallel Workloads Archive), DESIGN §2.
/// One processor pool by default; ImportOptions::procsPerNode = K splits it into nodes of K
/// processors and each job into a gang of ceil(p / K) tasks. A processor is 1000 cpuMilli.

#include "base/result.h"

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// Reads header comments and jobs; builds the cluster from MaxProcs (else MaxNodes, else the
/// largest request). Jobs with run time <= 0 are skipped with a warning; a requested time of -1
/// falls back to the run time (counted as "requested-time-fallback").
Status importSwf(LineReader& reader, Trace& trace, ImportContext& ctx);

} // namespace schedlab::trace
