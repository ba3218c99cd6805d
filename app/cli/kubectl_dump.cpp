#include "kubectl_dump.h"

#include "policy/placement_policy.h"
#include "sim/timed_replay.h"
#include "trace/k8s_dump_writer.h"
#include "trace/trace_window.h"

#include <algorithm>

namespace schedlab::cli {

Result<KubectlDumpStats> writeGeneratedKubectlDump(const trace::GeneratorOptions& options, const std::string& dir)
{
    auto generated = trace::generateTrace(options);
    if (!generated)
        return generated.error();
    trace::Trace& t = generated.value();
    for (trace::Task& task : t.tasks)
        if (task.request.isGpuShare()) // Kubernetes has no GPU shares: whole devices, as the dump says
            task.request.gpuMilli = 1000;
    auto policy = policy::makePlacementPolicy("firstfit");
    sim::Recording rec;
    rec.heat = false;
    rec.topK = 0;
    auto run = sim::runTimedReplay(t, *policy, sim::TimedOptions {}, rec);
    if (!run)
        return run.error();
    // The snapshot moment: 90 % of the way from the first submit to the last finish.
    double first = 1e300, last = 0;
    for (const trace::Job& j : t.jobs)
        first = std::min(first, j.submitTimeS);
    for (const sim::UnitResult& u : run->units_)
        last = std::max(last, u.finishS);
    const double dumpS = first + 0.9 * (last - first);
    for (const sim::Decision& d : run->decisions.decisions()) {
        if (d.outcome != sim::Outcome::Placed || d.timeS > dumpS)
            continue;
        trace::Task& task = t.tasks[std::size_t(d.task)];
        const trace::Job& job = t.jobs[std::size_t(d.job)];
        task.logged.node = trace::NodeId { d.node };
        task.logged.startTimeS = d.timeS;
        const double end = d.timeS + t.taskRunTimeS(job, task);
        task.logged.endTimeS = end <= dumpS ? end : -1; // still running at the snapshot
    }
    auto snapshot = trace::timeWindow(t, 0, dumpS - first); // pods created by then
    if (!snapshot)
        return snapshot.error();
    KubectlDumpStats s;
    s.nodes = snapshot->nodes.size();
    s.pods = snapshot->tasks.size();
    for (const trace::Task& task : snapshot->tasks) {
        const bool bound = task.logged.node.valid();
        s.bound += bound;
        s.running += bound && task.logged.endTimeS < 0;
        s.pending += !bound;
    }
    trace::KubectlDumpOptions w;
    if (Status st = trace::writeKubectlDump(snapshot.value(), dir, w); !st)
        return st.error();
    return s;
}

} // namespace schedlab::cli
