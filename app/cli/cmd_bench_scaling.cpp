// `schedlab-cli bench scaling`: timed replay cost against the number of jobs and the queue length.
// Generated traces on 64 nodes at 3x the cluster's GPU capacity, so the queue grows with the
// trace; FCFS + FirstFit without backfilling and with EASY. Seconds are simulation time only.

#include "cli_args.h"
#include "commands.h"

#include "policy/placement_policy.h"
#include "sim/timed_replay.h"
#include "trace/trace_generator.h"

#include <algorithm>
#include <cstdio>

namespace schedlab::cli {

int benchScaling(int64_t maxJobs, int64_t maxEasyJobs)
{
    std::printf("timed replay scaling: 64 nodes, offered GPU load 3x capacity, FCFS, FirstFit, no decision log\n");
    std::printf("%10s %12s %12s %12s %12s %14s\n", "jobs", "peak queue", "none s", "EASY s", "none us/job", "EASY us/job");
    bool ok = true;
    for (int64_t jobs : { int64_t(10000), int64_t(20000), int64_t(50000), int64_t(100000), int64_t(200000), int64_t(500000),
             int64_t(1000000) }) {
        if (jobs > maxJobs)
            break;
        trace::GeneratorOptions g;
        g.nodes = 64;
        g.jobs = jobs;
        g.seed = 7;
        g.targetGpuLoad = 3;
        auto t = trace::generateTrace(g);
        if (!t)
            return fail(t.error().toString());
        double secs[2] = { -1, -1 };
        int peak = 0;
        for (int b = 0; b < 2; ++b) {
            if (b == 1 && jobs > maxEasyJobs)
                break;
            sim::TimedOptions o;
            o.backfill = b ? sim::Backfill::Easy : sim::Backfill::None;
            sim::Recording rec;
            rec.decisions = false;
            rec.heat = false;
            auto p = policy::makePlacementPolicy("firstfit");
            auto r = sim::runTimedReplay(t.value(), *p, o, rec);
            if (!r) {
                std::printf("  %s\n", r.error().toString().c_str());
                ok = false;
                continue;
            }
            secs[b] = r->simSeconds;
            for (const auto& s : r->series)
                peak = std::max(peak, int(s.queued));
        }
        auto col = [](double s) { return s < 0 ? std::string("-") : std::to_string(s).substr(0, 7); };
        auto per = [&](double s) { return s < 0 ? std::string("-") : std::to_string(s * 1e6 / double(jobs)).substr(0, 7); };
        std::printf("%10lld %12d %12s %12s %12s %14s\n", (long long)jobs, peak, col(secs[0]).c_str(), col(secs[1]).c_str(),
            per(secs[0]).c_str(), per(secs[1]).c_str());
        std::fflush(stdout);
    }
    return ok ? 0 : 1;
}

} // namespace schedlab::cli
