#include "trace_window.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace schedlab::trace {

Result<trace::Trace> timeWindow(const trace::Trace& t, double fromS, double lengthS)
{
    double first = std::numeric_limits<double>::infinity();
    for (const trace::Job& j : t.jobs)
        if (j.submitTimeS >= 0)
            first = std::min(first, j.submitTimeS);
    if (!std::isfinite(first))
        return makeError(ErrorCode::Invalid, "the trace has no submit times; use the fill mode (a number of pods) instead");
    const double lo = first + fromS, hi = lo + lengthS;
    trace::Trace out;
    out.sourceFormat = t.sourceFormat;
    out.sourceFiles = t.sourceFiles;
    out.cpuUnit = t.cpuUnit;
    out.metadata = t.metadata;
    out.gpuModels = t.gpuModels;
    out.qosClasses = t.qosClasses;
    out.users = t.users;
    out.jobNames = t.jobNames; // offsets stay valid
    out.nodes = t.nodes;
    for (const trace::Job& j : t.jobs) {
        if (j.submitTimeS < lo || j.submitTimeS >= hi || j.runTimeS < 0)
            continue;
        trace::Job copy = j;
        copy.firstTask = uint32_t(out.tasks.size());
        for (uint32_t i = 0; i < j.taskCount; ++i)
            out.tasks.push_back(t.tasks[j.firstTask + i]);
        out.jobs.push_back(copy);
    }
    if (out.jobs.empty())
        return makeError(ErrorCode::Empty, "no job with a run time was submitted in the window [" + std::to_string(fromS) + " s, "
                + std::to_string(fromS + lengthS) + " s) after the first submit");
    return out;
}

} // namespace schedlab::trace
