#pragma once
/// Alibaba GPU trace 2023 ("openb", FGD paper): node list and pod list CSVs.
/// Columns are found by header name (5, 10 or 11 column files). See README.md for the mapping.

#include "base/result.h"

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// Appends the nodes of `sn,cpu_milli,memory_mib,gpu,model` to trace.nodes.
Status importOpenbNodes(LineReader& reader, Trace& trace, ImportContext& ctx);

/// Appends one single-task job per pod row. Nodes already in `trace` are used to warn about pods
/// that no node can ever host.
Status importOpenbPods(LineReader& reader, Trace& trace, ImportContext& ctx);

/// openb pod_phase values as stored in Job::status.
enum class PodPhase : int16_t { Pending = 0, Running = 1, Succeeded = 2, Failed = 3 };

} // namespace schedlab::trace
