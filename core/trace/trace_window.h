#pragma once
/// Windows of a trace for training and held-out evaluation (docs/rl.md §3: a round replays "a window
/// of the trace", default 4 h of trace time).

#include "base/result.h"
#include "trace/trace.h"

namespace schedlab::trace {

/// The jobs submitted in [first submit + fromS, first submit + fromS + lengthS), with their tasks,
/// on the same cluster. Errors when the trace has no submit times or the window holds no job.
Result<trace::Trace> timeWindow(const trace::Trace& trace, double fromS, double lengthS);

} // namespace schedlab::trace
