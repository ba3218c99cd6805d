// Logged replay: what a logged decision needs that our model does not give it, counted by kind
// and the first one named (job, node, resource, amounts). Never a silent fix, never a crash.

#include "timed_replay_impl.h"

#include "trace/fields.h"

namespace schedlab::sim::detail {

void Replay::noteDivergence(const char* kind, int32_t ui, double t, const std::string& detail)
{
    ++m_out.divergences[kind];
    if (!m_out.firstDivergence.empty() && t >= m_firstDivergenceT)
        return;
    m_firstDivergenceT = t;
    const trace::Job& job = m_trace.jobs[std::size_t(m_units[std::size_t(ui)].job)];
    m_out.firstDivergence = std::string(kind) + ": job " + m_trace.jobName(job) + " (id " + std::to_string(job.id.value) + ") at "
        + trace::formatDouble(t) + " s: " + detail;
}

void Replay::explainLoggedFailure(int32_t ui, int k, double t)
{
    const Unit& u = m_units[std::size_t(ui)];
    if (k < 0 || k >= u.count)
        k = 0;
    const trace::Task& task = taskOf(u, k);
    const std::string which = u.count > 1 ? "task " + std::to_string(k) + ": " : std::string();
    const int n = task.logged.node.value;
    if (!task.logged.node.valid()) {
        noteDivergence("no-logged-node", ui, t, which + "the log gives no node; not started");
        return;
    }
    if (n >= m_cluster.nodeCount()) {
        noteDivergence("unknown-node", ui, t, which + "logged node #" + std::to_string(n) + " is not in the cluster; not started");
        return;
    }
    const trace::TaskRequest& r = task.request;
    const std::string node = "node " + m_trace.nodes[std::size_t(n)].name + ": ";
    auto amounts = [](const char* what, int64_t asked, int64_t free, int64_t cap, const char* unit) {
        return std::string(what) + ": asks " + std::to_string(asked) + unit + ", " + std::to_string(free) + unit + " free of "
            + std::to_string(cap) + unit;
    };
    std::string detail;
    switch (m_cluster.misfit(n, r)) {
    case cluster::Misfit::Cpu:
    case cluster::Misfit::TooSmall:
        detail = r.cpuMilli > m_cluster.freeCpu(n) ? amounts("cpu", r.cpuMilli, m_cluster.freeCpu(n), m_cluster.capCpu(n), " milli-cores")
                                                   : amounts("memory", r.memMiB, m_cluster.freeMem(n), m_cluster.capMem(n), " MiB");
        break;
    case cluster::Misfit::Memory: detail = amounts("memory", r.memMiB, m_cluster.freeMem(n), m_cluster.capMem(n), " MiB"); break;
    case cluster::Misfit::GpuModel: detail = "GPU model " + std::string(cluster::misfitName(cluster::Misfit::GpuModel)); break;
    case cluster::Misfit::TooFewGpus:
    case cluster::Misfit::FreeGpus:
        detail = amounts("GPUs", r.numGpu, m_cluster.fullyFreeGpus(n), m_cluster.numGpu(n), "");
        break;
    case cluster::Misfit::GpuShare: detail = "GPU share: asks " + std::to_string(r.gpuMilli) + " gpu-milli on one GPU, none has it free"; break;
    case cluster::Misfit::Fits: detail = "the job's own tasks on this node together do not fit"; break;
    }
    noteDivergence("overcommitted", ui, t, which + node + detail + "; not started");
}

} // namespace schedlab::sim::detail
