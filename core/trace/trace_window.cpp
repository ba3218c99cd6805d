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
    std::vector<int64_t> taskMap(t.logged.empty() ? 0 : t.tasks.size(), -1); // old task -> new, for logged decisions
    for (const trace::Job& j : t.jobs) {
        if (j.submitTimeS < lo || j.submitTimeS >= hi || j.runTimeS < 0)
            continue;
        trace::Job copy = j;
        copy.firstTask = uint32_t(out.tasks.size());
        for (uint32_t i = 0; i < j.taskCount; ++i) {
            if (!taskMap.empty())
                taskMap[j.firstTask + i] = int64_t(out.tasks.size());
            out.tasks.push_back(t.tasks[j.firstTask + i]);
        }
        out.jobs.push_back(copy);
    }
    // The logged decisions of the tasks kept (candidates, terms and reasons copied with them).
    if (!t.logged.empty()) {
        trace::LoggedDecisions& l = out.logged;
        l.names = t.logged.names;
        for (const trace::LoggedDecision& d : t.logged.decisions) {
            if (taskMap[d.task] < 0)
                continue;
            trace::LoggedDecision c = d;
            c.task = uint32_t(taskMap[d.task]);
            c.firstReason = uint32_t(l.reasons.size());
            l.reasons.insert(l.reasons.end(), t.logged.reasons.begin() + d.firstReason,
                t.logged.reasons.begin() + d.firstReason + d.reasonCount);
            c.firstReward = uint32_t(l.terms.size());
            l.terms.insert(l.terms.end(), t.logged.terms.begin() + d.firstReward, t.logged.terms.begin() + d.firstReward + d.rewardCount);
            c.firstCandidate = uint32_t(l.candidates.size());
            for (uint32_t k = 0; k < d.candidateCount; ++k) {
                trace::LoggedCandidate cand = t.logged.candidates[d.firstCandidate + k];
                const uint32_t from = cand.firstTerm;
                cand.firstTerm = uint32_t(l.terms.size());
                l.terms.insert(l.terms.end(), t.logged.terms.begin() + from, t.logged.terms.begin() + from + cand.termCount);
                l.candidates.push_back(cand);
            }
            l.decisions.push_back(c);
        }
    }
    if (out.jobs.empty())
        return makeError(ErrorCode::Empty, "no job with a run time was submitted in the window [" + std::to_string(fromS) + " s, "
                + std::to_string(fromS + lengthS) + " s) after the first submit");
    return out;
}

} // namespace schedlab::trace
