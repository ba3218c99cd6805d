#include "k8s_importer.h"

#include "accounting_log.h"
#include "fields.h"
#include "import_context.h"
#include "k8s_events.h"
#include "line_reader.h"
#include "rfc3339.h"
#include "slurm_fields.h"
#include "trace.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace schedlab::trace {

Status K8sImporter::addJson(LineReader& reader, ImportContext& ctx)
{
    m_files.push_back(reader.displayName());
    if (!reader.readRest(m_text, kJsonPadding))
        return *reader.error();
    if (!ctx.tick(reader))
        return ctx.cancelledError(reader);
    if (trimmed(std::string_view(m_text.data(), m_text.size())).empty())
        return makeError(ErrorCode::Empty, "file is empty", reader.displayName());
    return m_json.read(m_text.data(), m_text.size(), reader.displayName(), m_objects, ctx.diagnostics);
}

Status K8sImporter::addSchedulerLog(LineReader& reader, ImportContext& ctx, bool json, double modifiedUnixS)
{
    m_files.push_back(reader.displayName());
    m_hasLog = true;
    if (json)
        return m_log.addJson(reader, ctx);
    std::string error;
    const auto zone = LocalTimeZone::make(ctx.options.timezone, error);
    if (!zone)
        return makeError(ErrorCode::Invalid, "--timezone: " + error);
    const bool yearGiven = ctx.options.logYear > 0; // else the year of the file's modification time, in UTC
    const int year = yearGiven ? ctx.options.logYear : std::atoi(formatRfc3339(modifiedUnixS).substr(0, 4).c_str());
    const int64_t headerBefore = m_log.headerTimed, prefixBefore = m_log.prefixTimed;
    Status s = m_log.addText(reader, ctx, *zone, year);
    // Say where the times came from: only lines timed by the klog header assumed a year.
    if (m_log.headerTimed > headerBefore) {
        m_logYear = year;
        if (!yearGiven)
            ctx.diagnostics.note("kube-scheduler-log year from the file's modification time (--log-year to set it)");
    }
    if (m_log.prefixTimed > prefixBefore)
        ctx.diagnostics.note("kube-scheduler-log times from each line's timestamp prefix (year and UTC offset included)",
            m_log.prefixTimed - prefixBefore);
    return s;
}

Status K8sImporter::addDecisionLog(LineReader& reader, ImportContext& ctx)
{
    m_files.push_back(reader.displayName());
    m_hasLog = true;
    return m_log.addDecisionLog(reader, ctx, m_objects);
}

namespace {

/// A field under an object's JSON pointer; none for a decision log's record (named by its line).
std::string under(const std::string& pointer, const char* field)
{
    return pointer.empty() ? std::string() : pointer + field;
}

/// Counts of pods by what their times say, for the import's notes.
struct PodCounts {
    int64_t running = 0, pending = 0, noTimes = 0, startedBeforeCreated = 0, mirror = 0;
};

/// A static pod's mirror object: the kubelet started the pod on its node, no scheduler queued
/// it. It arrives and starts at the earlier of its object's creation and its start (after a
/// node restart its PodScheduled condition is days after the object was created; a mirror object
/// is created after the pod started), so it holds its node's resources from then and waits 0 s.
void startMirrorPod(Job& j, Task& t, PodCounts& counts)
{
    const double created = j.submitTimeS;
    const double first = created >= 0 ? std::min(created, t.logged.startTimeS) : t.logged.startTimeS;
    t.logged.startTimeS = first;
    j.submitTimeS = first;
    ++counts.mirror;
}

/// Nodes, first of each name kept; returns name -> node index.
std::unordered_map<std::string, int32_t> addNodes(const K8sObjects& o, Trace& trace, Diagnostics& diag)
{
    std::unordered_map<std::string, int32_t> nodeIndex;
    for (const K8sNode& n : o.nodes) {
        if (!nodeIndex.emplace(n.name, int32_t(trace.nodes.size())).second) {
            diag.warn("duplicate-node", n.file, n.line, n.pointer, "node " + trace::quoted(n.name) + " appears again; the first is kept");
            continue;
        }
        Node node;
        node.name = n.name;
        node.cpuMilli = n.cpuMilli;
        node.memMiB = n.memMiB;
        node.numGpu = n.gpus;
        if (n.gpus > 0 && !n.gpuModel.empty()) {
            const int m = trace.internGpuModel(n.gpuModel);
            node.gpuModel = int16_t(m);
            if (m < 0)
                diag.warn("too-many-models", n.file, n.line, n.pointer, "more than 32 GPU models; " + trace::quoted(n.gpuModel) + " left unnamed");
        }
        if (n.unschedulable)
            diag.note("k8s-cordoned-node");
        for (const auto& [name, value] : n.extended) {
            auto& total = trace.metadata["k8s.extended." + name];
            int64_t sum = 0;
            (void)parseInt64(total, sum);
            total = std::to_string(sum + value);
        }
        trace.nodes.push_back(std::move(node));
    }
    return nodeIndex;
}

/// The latest moment the dump shows: pods still running run until then.
double dumpTime(const K8sObjects& o, const SchedulerLog& log)
{
    double dumpS = -1;
    for (const K8sNode& n : o.nodes)
        dumpS = std::max(dumpS, n.createdS);
    for (const K8sPod& p : o.pods)
        for (double t : { p.createdS, p.scheduledS, p.startedS, p.endS })
            dumpS = std::max(dumpS, t);
    for (const K8sEvent& e : o.events)
        dumpS = std::max(dumpS, e.lastS);
    for (const SchedulerLog::Decision& d : log.decisions)
        dumpS = std::max(dumpS, d.unixS);
    return dumpS;
}

/// The pod's task: its request (GPU models as a mask) and where and when it ran, as logged.
Task taskOf(const K8sPod& p, const std::string& key, const std::unordered_map<std::string, int32_t>& nodeIndex, Trace& trace,
    Diagnostics& diag)
{
    Task t;
    t.request = p.request;
    if (p.request.needsGpu())
        for (const std::string& model : p.gpuModels) {
            const int m = trace.internGpuModel(model);
            if (m >= 0)
                t.request.gpuModelMask |= 1u << m;
        }
    if (!p.nodeName.empty()) {
        const auto it = nodeIndex.find(p.nodeName);
        if (it == nodeIndex.end())
            diag.warn("unknown-node", p.file, p.line, under(p.pointer, "/spec/nodeName"),
                "pod " + trace::quoted(key) + " is bound to " + trace::quoted(p.nodeName) + ", which no node object names");
        else
            t.logged.node = NodeId { it->second };
        t.logged.startTimeS = p.scheduledS >= 0 ? p.scheduledS : p.startedS;
    }
    t.logged.endTimeS = p.endS;
    return t;
}

/// The most any one node holds of each resource, to tell requests no node could ever hold.
struct Largest {
    int64_t cpuMilli = 0, memMiB = 0, numGpu = 0;
};

Largest largestNode(const Trace& trace)
{
    Largest most;
    for (const Node& n : trace.nodes) {
        most.cpuMilli = std::max(most.cpuMilli, n.cpuMilli);
        most.memMiB = std::max(most.memMiB, n.memMiB);
        most.numGpu = std::max<int64_t>(most.numGpu, n.numGpu);
    }
    return most;
}

/// A request larger than every node (16 EiB of memory, a typo of a unit): the pod could never be
/// scheduled, which a replay would only show as a pod that never starts. Warned with the pod's
/// JSON path. Nothing to compare with when the dump has no nodes.
void warnBeyondEveryNode(const K8sPod& p, const std::string& key, const Largest& most, bool haveNodes, Diagnostics& diag)
{
    if (!haveNodes)
        return;
    std::string what;
    auto add = [&](int64_t asked, int64_t largest, const char* resource, const char* unit) {
        if (asked > largest)
            what += (what.empty() ? "" : ", ") + std::to_string(asked) + unit + " " + resource + " (the largest node has "
                + std::to_string(largest) + unit + ")";
    };
    add(p.request.cpuMilli, most.cpuMilli, "cpu", " millicores");
    add(p.request.memMiB, most.memMiB, "memory", " MiB");
    add(p.request.numGpu, most.numGpu, "GPUs", "");
    if (!what.empty())
        diag.warn("beyond-every-node", p.file, p.line, under(p.pointer, "/spec/containers"),
            "pod " + trace::quoted(key) + " requests " + what + ": no node can ever hold it (a unit typo?); kept, it will not start");
}

/// Pods, first of each uid (or namespace/name) kept, one job of one task each. `podTask` gets
/// uid and ns/name -> task, `runGiven` (by task) whether a decision log gave the run time.
Status addPods(const K8sObjects& o, double dumpS, const std::unordered_map<std::string, int32_t>& nodeIndex, Trace& trace,
    ImportContext& ctx, std::unordered_map<std::string, uint32_t>& podTask, std::vector<char>& runGiven, PodCounts& counts)
{
    Diagnostics& diag = ctx.diagnostics;
    const Largest most = largestNode(trace);
    for (const K8sPod& p : o.pods) {
        const std::string key = p.ns.empty() ? p.name : p.ns + "/" + p.name; // decision logs' pods may have no namespace
        if ((!p.uid.empty() && podTask.count(p.uid)) || podTask.count(key)) {
            diag.warn("duplicate-uid", p.file, p.line, p.pointer, "pod " + trace::quoted(key) + " appears again; the first is kept");
            continue;
        }
        const uint32_t task = uint32_t(trace.tasks.size());
        if (!p.uid.empty())
            podTask[p.uid] = task;
        podTask[key] = task;
        Job j;
        j.id = JobId { int64_t(trace.jobs.size()) };
        if (!trace.setJobName(j, key))
            return Error { ErrorCode::Range, "more than 4 GiB of pod names", p.file, -1, -1 };
        j.submitTimeS = p.createdS;
        j.priority = p.priority;
        j.qos = int16_t(trace.internQos(p.qos));
        j.status = p.phase == "Succeeded" ? 1 : p.phase == "Failed" ? 0 : -1;
        j.gang = true;
        j.firstTask = task;
        j.taskCount = 1;
        Task t = taskOf(p, key, nodeIndex, trace, diag);
        warnBeyondEveryNode(p, key, most, !trace.nodes.empty(), diag);
        if (p.mirror && t.logged.startTimeS >= 0)
            startMirrorPod(j, t, counts);
        const double start = t.logged.startTimeS;
        // Static pods run before their mirror object is created: they arrived when they started.
        if (start >= 0 && (j.submitTimeS < 0 || start < j.submitTimeS)) {
            j.submitTimeS = start;
            ++counts.startedBeforeCreated;
        }
        if (p.runS >= 0) {
            j.runTimeS = p.runS; // a decision log says how long it runs
            runGiven[task] = 1;
        } else if (start >= 0 && p.endS >= start) {
            j.runTimeS = p.endS - start;
        } else if (start >= 0 && dumpS >= start) {
            j.runTimeS = dumpS - start; // still running: until the dump's last moment
            ++counts.running;
        } else if (p.nodeName.empty()) {
            ++counts.pending;
        }
        if (p.createdS < 0)
            ++counts.noTimes;
        for (const auto& [name, value] : p.extended)
            diag.note("k8s-extended-request " + name, value > 0 ? 1 : 0);
        trace.jobs.push_back(j);
        trace.tasks.push_back(t);
        if (int64_t(trace.tasks.size()) > ctx.options.maxTasks)
            return Error { ErrorCode::Range, "more than " + std::to_string(ctx.options.maxTasks) + " pods", p.file, -1, -1 };
    }
    return {};
}

void reportPods(const Trace& trace, const PodCounts& counts, const std::string& files, Diagnostics& diag)
{
    // The objects are a snapshot: a node may show less than it had when a pod was bound to it
    // (resized, or the resource's name changed). Kept as logged; replay "as logged" reports it.
    int64_t beyond = 0;
    for (const Task& t : trace.tasks)
        if (t.logged.node.valid()) {
            const Node& n = trace.nodes[std::size_t(t.logged.node.value)];
            beyond += n.cpuMilli < t.request.cpuMilli || n.memMiB < t.request.memMiB || n.numGpu < t.request.numGpu;
        }
    if (beyond)
        diag.note("k8s-bound-beyond-node-allocatable", beyond);
    if (counts.running)
        diag.note("k8s-running-at-dump", counts.running);
    if (counts.mirror)
        diag.note("k8s-mirror-pods (static pods the kubelet runs, never queued for the scheduler: they arrive and start "
                  "at the earlier of their creation and their start, waiting 0 s)",
            counts.mirror);
    if (counts.startedBeforeCreated)
        diag.note("k8s-started-before-created (arrival = start)", counts.startedBeforeCreated);
    if (counts.pending)
        diag.note("k8s-pending-at-dump", counts.pending);
    if (counts.noTimes)
        diag.warn("missing-field", files, -1, "",
            std::to_string(counts.noTimes) + " pods without a creation time (not replayed in time)");
}

/// A bind in a scheduler's log is timed to the microsecond, the pod's PodScheduled condition to
/// the second: the log's time is the logged start (so pods bound in the same second replay in
/// the order they were bound).
void retimeFromLog(const std::vector<std::pair<uint32_t, double>>& binds, const std::vector<char>& runGiven, double dumpS,
    Trace& trace, Diagnostics& diag)
{
    int64_t retimed = 0;
    for (const auto& [taskIndex, when] : binds) {
        Task& task = trace.tasks[taskIndex];
        Job& job = trace.jobs[taskIndex]; // one job per pod, in pod order
        if (!task.logged.node.valid() || (task.logged.startTimeS >= 0 && std::abs(task.logged.startTimeS - when) > 1.0))
            continue; // a different binding (the pod was rescheduled): keep the pod's own
        task.logged.startTimeS = when;
        if (!runGiven[taskIndex]) { // else the log's own run time stands
            if (task.logged.endTimeS >= when)
                job.runTimeS = task.logged.endTimeS - when;
            else if (dumpS >= when)
                job.runTimeS = dumpS - when;
        }
        job.submitTimeS = job.submitTimeS < 0 ? when : std::min(job.submitTimeS, when);
        ++retimed;
    }
    if (retimed)
        diag.note("k8s-start-times-from-the-scheduler-log", retimed);
}

/// Ignored kinds and the events that are not about scheduling (Pulled, Started, NodeReady...):
/// counted, listed.
void reportIgnored(const K8sObjects& o, Trace& trace, Diagnostics& diag)
{
    if (!o.ignoredKinds.empty())
        for (const auto& [kind, n] : o.ignoredKinds)
            diag.note("k8s-ignored " + kind, n);
    if (!o.otherEvents.empty()) {
        std::string list;
        int64_t total = 0;
        for (const auto& [reason, n] : o.otherEvents) {
            list += (list.empty() ? "" : ", ") + reason + " " + std::to_string(n);
            total += n;
        }
        diag.note("k8s-other-events", total);
        trace.metadata["k8s.otherEvents"] = list;
    }
}

} // namespace

Status K8sImporter::finish(Trace& trace, ImportContext& ctx)
{
    m_text.release(); // the last file's text is not needed any more
    K8sObjects& o = m_objects;
    Diagnostics& diag = ctx.diagnostics;
    const std::string files = [&] {
        std::string s;
        for (const std::string& f : m_files)
            s += (s.empty() ? "" : ", ") + f;
        return s;
    }();
    // When records were there but unreadable, the error says so with the first, not only "add some".
    const std::string skipped = diag.total() == 0 ? std::string()
        : "; " + std::to_string(diag.total()) + " record(s) were skipped as unreadable, the first: " + diag.kept().front().toString();
    if (o.nodes.empty() && o.pods.empty() && m_hasLog)
        return makeError(ErrorCode::Empty,
            "a scheduler's log needs the cluster it scheduled: add `kubectl get nodes -o json` and `kubectl get pods -A -o json` "
            "output, or node and pod records to a decision log (" + files + ")" + skipped,
            m_files.empty() ? std::string() : m_files.front());
    if (o.nodes.empty() && o.pods.empty())
        return makeError(ErrorCode::Empty,
            o.events.empty() && o.otherEvents.empty() ? "no Kubernetes node or pod in " + files
                                                      : "events but no node or pod objects in " + files
                    + " (add `kubectl get nodes -o json` and `kubectl get pods -A -o json` output)",
            m_files.empty() ? std::string() : m_files.front());

    const std::unordered_map<std::string, int32_t> nodeIndex = addNodes(o, trace, diag);
    const double dumpS = dumpTime(o, m_log);
    std::vector<char> runGiven(o.pods.size(), 0); // by task (at most one per pod): a decision log gave its run time
    std::unordered_map<std::string, uint32_t> podTask; // uid and ns/name -> task
    PodCounts counts;
    if (Status s = addPods(o, dumpS, nodeIndex, trace, ctx, podTask, runGiven, counts); !s)
        return s;
    reportPods(trace, counts, files, diag);

    const auto binds = foldLoggedDecisions(trace, ctx, nodeIndex, podTask);
    if (m_logYear > 0) // the year klog lines were read in, even when it came from a file's date
        trace.metadata["import.logYear"] = std::to_string(m_logYear);
    retimeFromLog(binds, runGiven, dumpS, trace, diag);
    reportIgnored(o, trace, diag);
    rebaseToEarliestSubmit(trace);
    trace.metadata["k8s.requests"] = "containers summed, max'ed with init containers (sidecars counted), + overhead; "
                                     "cpu rounded up to milli-cores, memory up to MiB; node allocatable rounded down";
    if (counts.running)
        trace.metadata["k8s.runningAtDump"] = std::to_string(counts.running) + " pods still running: run time until the dump's last time";
    return {};
}

} // namespace schedlab::trace
