// libFuzzer target for one importer, chosen at compile time by SCHEDLAB_FUZZ_KIND:
// 0 openb node list, 1 openb pod list (with a fixed node list), 2 SWF, 3 Google task_events,
// 4 schedlab format, 5 format detection + whole loader, 6 Slurm sacct, 7 LSF lsb.acct, 8 Kubernetes
// JSON (objects and events, folded), 9 schedlab decision log, 10 kube-scheduler log (klog text or
// JSON lines, against a fixed cluster), 11 kube-scheduler-simulator recorder file. Any crash, leak, UB or hang is a finding;
// errors and warnings are expected outcomes.

#include "fuzz_common.h"

#include <cstdio>
#include <cstdlib>

#include "trace/format_registry.h"
#include "trace/google_importer.h"
#include "trace/import_context.h"
#include "trace/k8s_importer.h"
#include "trace/line_reader.h"
#include "trace/lsf_importer.h"
#include "trace/native_format.h"
#include "trace/openb_importer.h"
#include "trace/slurm_importer.h"
#include "trace/swf_importer.h"
#include "trace/trace.h"
#include "trace/trace_loader.h"

using namespace schedlab;
using namespace schedlab::trace;

// A broken invariant names itself before the crash libFuzzer records.
#define FUZZ_INVARIANT(cond)                                                                   \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            std::fprintf(stderr, "fuzz invariant broken: %s (line %d)\n", #cond, __LINE__);   \
            std::abort();                                                                      \
        }                                                                                      \
    } while (0)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    static const std::string path = fuzz::inputPath(".in");
    if (!fuzz::writeInput(path, data, size))
        return 0;
    ImportOptions options;
    options.reader.maxLineBytes = 1u << 20; // keep memory bounded under fuzzing
    Diagnostics diag;
    ThrottledProgress progress({});
    CancelToken cancel;
    ImportContext ctx { options, diag, progress, cancel, 0, 1 };
    Trace trace;
#if SCHEDLAB_FUZZ_KIND == 5
    auto loaded = loadTrace({ path }, options);
    (void)loaded;
    return 0;
#else
    auto reader = LineReader::open(path, options.reader);
    if (!reader)
        return 0;
    Status st;
#if SCHEDLAB_FUZZ_KIND == 0
    st = importOpenbNodes(*reader.value(), trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 1
    for (int i = 0; i < 3; ++i) {
        Node n;
        n.name = "n" + std::to_string(i);
        n.cpuMilli = 32000;
        n.memMiB = 65536;
        n.numGpu = 2 * i;
        n.gpuModel = i > 0 ? int16_t(trace.internGpuModel(i == 1 ? "T4" : "V100M32")) : int16_t(-1);
        trace.nodes.push_back(n);
    }
    st = importOpenbPods(*reader.value(), trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 2
    options.procsPerNode = size % 2 ? 0 : 4;
    st = importSwf(*reader.value(), trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 3
    GoogleImporter google;
    st = google.addTaskEvents(*reader.value(), ctx);
    if (st)
        st = google.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 4
    st = importNative(*reader.value(), trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 6
    static const char* const zones[] = { "UTC", "America/New_York", "UTC-06:00" };
    options.timezone = zones[size % 3];
    options.sacctFields = size % 5 == 0 ? "JobID,Submit,Start,End,State,NCPUS,ReqMem,NodeList" : "";
    SlurmImporter slurm;
    st = slurm.add(*reader.value(), trace, ctx);
    if (st)
        st = slurm.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 7
    LsfImporter lsf;
    st = lsf.add(*reader.value(), trace, ctx);
    if (st)
        st = lsf.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 8
    K8sImporter k8s;
    st = k8s.addJson(*reader.value(), ctx);
    if (st)
        st = k8s.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 9
    K8sImporter k8s;
    st = k8s.addDecisionLog(*reader.value(), ctx);
    if (st)
        st = k8s.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 10
    // A kube-scheduler log (klog text, or the JSON format for odd sizes) against a fixed cluster
    // of the pods and nodes the seeds name, so that decisions are matched and folded.
    static const std::string cluster = [] {
        const std::string p = fuzz::inputPath(".cluster.json");
        std::string nodes;
        for (int i = 0; i < 4; ++i)
            nodes += std::string(i ? "," : "") + R"({"kind":"Node","metadata":{"name":"gen-node-000)" + std::to_string(i)
                + R"("},"status":{"allocatable":{"cpu":"8","memory":"32Gi","nvidia.com/gpu":"2"}}})";
        std::string pods;
        for (int i = 0; i < 8; ++i)
            pods += std::string(",") + R"({"kind":"Pod","metadata":{"name":"pod-)" + std::to_string(i)
                + R"(","namespace":"default","creationTimestamp":"2023-11-14T22:13:20Z"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}})";
        const std::string text = R"({"kind":"List","items":[)" + nodes + pods + "]}";
        fuzz::writeInput(p, reinterpret_cast<const uint8_t*>(text.data()), text.size());
        return p;
    }();
    options.logYear = 2023;
    K8sImporter k8s;
    auto objects = LineReader::open(cluster, options.reader);
    if (!objects || !k8s.addJson(*objects.value(), ctx))
        __builtin_trap(); // the fixed cluster always reads
    st = k8s.addSchedulerLog(*reader.value(), ctx, size % 2 == 1, 0);
    if (st)
        st = k8s.finish(trace, ctx);
#elif SCHEDLAB_FUZZ_KIND == 11
    K8sImporter k8s;
    st = k8s.addRecorderFile(*reader.value(), ctx);
    if (st)
        st = k8s.finish(trace, ctx);
#endif
    // Whatever was imported must be internally consistent.
    if (st) {
        std::size_t tasks = 0;
        for (const Job& j : trace.jobs) {
            FUZZ_INVARIANT(j.firstTask == tasks && j.taskCount > 0);
            tasks += j.taskCount;
            (void)trace.jobNameView(j);
        }
        FUZZ_INVARIANT(tasks == trace.tasks.size());
        for (const Task& t : trace.tasks)
            FUZZ_INVARIANT(t.logged.node.value < int32_t(trace.nodes.size()));
        // Logged decisions point at tasks, nodes, names and ranges that exist.
        const LoggedDecisions& l = trace.logged;
        for (const LoggedDecision& d : l.decisions) {
            FUZZ_INVARIANT(d.task < trace.tasks.size() && d.node < int32_t(trace.nodes.size()) && d.source < int32_t(l.names.size()));
            FUZZ_INVARIANT(std::size_t(d.firstReason) + d.reasonCount <= l.reasons.size());
            FUZZ_INVARIANT(std::size_t(d.firstCandidate) + d.candidateCount <= l.candidates.size());
            FUZZ_INVARIANT(std::size_t(d.firstReward) + d.rewardCount <= l.terms.size());
            for (uint32_t i = 0; i < d.reasonCount; ++i)
                FUZZ_INVARIANT(l.reasons[d.firstReason + i].name >= 0 && l.reasons[d.firstReason + i].name < int32_t(l.names.size()));
        }
#if SCHEDLAB_FUZZ_KIND == 6 || SCHEDLAB_FUZZ_KIND == 7
        // Accounting logs size their nodes from the log: at least every task logged on them.
        // (Kubernetes nodes come from their objects: a pod may be bound beyond what a node shows.)
        for (const Task& t : trace.tasks)
            if (t.logged.node.valid()) {
                const Node& n = trace.nodes[std::size_t(t.logged.node.value)];
                FUZZ_INVARIANT(n.cpuMilli >= t.request.cpuMilli && n.memMiB >= t.request.memMiB && n.numGpu >= t.request.numGpu);
            }
#endif
    }
    return 0;
#endif
}
