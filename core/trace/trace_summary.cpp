#include "trace_summary.h"

#include "fields.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace schedlab::trace {

namespace {

void summarizeNodes(const Trace& t, TraceSummary& s)
{
    s.nodes = int64_t(t.nodes.size());
    for (const Node& n : t.nodes) {
        s.totalCpuMilli += n.cpuMilli;
        s.totalMemMiB += n.memMiB;
        s.totalGpus += n.numGpu;
        if (n.numGpu > 0) {
            ++s.gpuNodes;
            const std::string model = n.gpuModel >= 0 ? t.gpuModels[std::size_t(n.gpuModel)] : "unknown";
            s.gpusByModel[model] += n.numGpu;
            ++s.nodesByModel[model];
        }
    }
}

/// Per-task values whose distributions the summary gives.
struct TaskValues {
    std::vector<double> cpu, mem, gpu, run;
};

void summarizeTask(const Trace& t, const Job& j, const Task& task, TraceSummary& s, TaskValues& v)
{
    const TaskRequest& r = task.request;
    v.cpu.push_back(double(r.cpuMilli));
    v.mem.push_back(double(r.memMiB));
    v.gpu.push_back(double(r.totalGpuMilli()));
    ++s.tasksByNumGpu[r.numGpu];
    if (!r.needsGpu())
        ++s.cpuOnlyTasks;
    else if (r.isGpuShare())
        ++s.gpuShareTasks;
    else
        ++s.wholeGpuTasks;
    if (r.gpuModelMask != 0)
        ++s.modelConstrainedTasks;
    if (task.logged.startTimeS >= 0)
        ++s.tasksWithLoggedStart;
    if (task.logged.node.valid())
        ++s.tasksWithLoggedNode;
    const double rt = t.taskRunTimeS(j, task);
    if (rt >= 0) {
        v.run.push_back(rt);
        if (j.submitTimeS >= 0) {
            const double start = task.logged.startTimeS >= 0 ? task.logged.startTimeS : j.submitTimeS + task.submitOffsetS;
            s.lastEndS = std::max(s.lastEndS, start + rt);
        }
    }
}

void summarizeJobs(const Trace& t, TraceSummary& s)
{
    s.jobs = int64_t(t.jobs.size());
    s.tasks = int64_t(t.tasks.size());
    TaskValues v;
    std::vector<double> perJob;
    v.cpu.reserve(t.tasks.size());
    v.mem.reserve(t.tasks.size());
    v.gpu.reserve(t.tasks.size());
    v.run.reserve(t.tasks.size());
    perJob.reserve(t.jobs.size());
    for (const Job& j : t.jobs) {
        perJob.push_back(double(j.taskCount));
        if (j.taskCount > 1)
            ++s.multiTaskJobs;
        if (j.qos >= 0)
            ++s.jobsByQos[t.qosClasses[std::size_t(j.qos)]];
        if (j.submitTimeS >= 0) {
            ++s.jobsWithSubmitTime;
            s.firstSubmitS = s.firstSubmitS < 0 ? j.submitTimeS : std::min(s.firstSubmitS, j.submitTimeS);
            s.lastSubmitS = std::max(s.lastSubmitS, j.submitTimeS);
        }
        for (uint32_t i = 0; i < j.taskCount; ++i)
            summarizeTask(t, j, t.tasks[j.firstTask + i], s, v);
    }
    s.cpuMilliPerTask = distributionOf(v.cpu);
    s.memMiBPerTask = distributionOf(v.mem);
    s.gpuMilliPerTask = distributionOf(v.gpu);
    s.runTimeS = distributionOf(v.run);
    s.tasksPerJob = distributionOf(perJob);
}

void summarizeLogged(const LoggedDecisions& l, TraceSummary& s)
{
    s.loggedDecisions = int64_t(l.decisions.size());
    std::map<int32_t, TraceSummary::LoggedReasonCount> reasons;
    std::map<int32_t, std::vector<uint32_t>> reasonTasks;
    std::vector<uint32_t> unschedulableTasks;
    for (const LoggedDecision& d : l.decisions) {
        if (d.outcome == LoggedOutcome::Placed)
            ++s.loggedPlaced;
        else if (d.outcome == LoggedOutcome::Waited)
            ++s.loggedWaited;
        else {
            ++s.loggedUnschedulable;
            s.loggedUnschedulableAttempts += d.count;
            unschedulableTasks.push_back(d.task);
            for (uint32_t i = 0; i < d.reasonCount; ++i) {
                const int32_t name = l.reasons[d.firstReason + i].name;
                reasons[name].attempts += d.count;
                reasonTasks[name].push_back(d.task);
            }
        }
        if (d.candidateCount > 0)
            ++s.loggedWithCandidates;
        if (d.source >= 0)
            ++s.loggedBySource[l.names[std::size_t(d.source)]];
    }
    auto distinct = [](std::vector<uint32_t>& v) {
        std::sort(v.begin(), v.end());
        return int64_t(std::unique(v.begin(), v.end()) - v.begin());
    };
    s.tasksEverUnschedulable = distinct(unschedulableTasks);
    for (auto& [name, r] : reasons) {
        r.reason = name >= 0 ? l.names[std::size_t(name)] : std::string("?");
        r.tasks = distinct(reasonTasks[name]);
        s.loggedReasons.push_back(r);
    }
    std::stable_sort(s.loggedReasons.begin(), s.loggedReasons.end(),
        [](const TraceSummary::LoggedReasonCount& a, const TraceSummary::LoggedReasonCount& b) { return a.attempts > b.attempts; });
}

} // namespace

TraceSummary summarize(const LoadedTrace& loaded)
{
    const Trace& t = loaded.trace;
    TraceSummary s;
    s.format = t.sourceFormat;
    s.cpuUnit = t.cpuUnit == ResourceUnit::NormalizedNano ? "1e-9 of largest machine" : "milli-core";
    s.files = loaded.files;
    s.importSeconds = loaded.seconds;
    s.metadata = t.metadata;
    summarizeNodes(t, s);
    summarizeJobs(t, s);
    summarizeLogged(t.logged, s);

    s.warnings = loaded.diagnostics.total();
    s.warningsByCategory = loaded.diagnostics.byCategory();
    s.notes = loaded.diagnostics.notes();
    for (const Warning& w : loaded.diagnostics.kept()) {
        if (s.firstWarnings.size() >= 20)
            break;
        s.firstWarnings.push_back(w);
    }
    return s;
}

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

QJsonObject distJson(const Distribution& d)
{
    return QJsonObject { { "count", double(d.count) }, { "min", d.min }, { "mean", d.mean }, { "p50", d.p50 },
        { "p90", d.p90 }, { "p99", d.p99 }, { "max", d.max } };
}

template <class Map>
QJsonObject mapJson(const Map& m)
{
    QJsonObject o;
    for (const auto& [k, v] : m) {
        if constexpr (std::is_integral_v<std::decay_t<decltype(k)>>)
            o.insert(QString::number(k), double(v));
        else
            o.insert(q(k), double(v));
    }
    return o;
}
} // namespace

QJsonObject toJson(const TraceSummary& s)
{
    QJsonArray files;
    for (const LoadedFile& f : s.files) {
        QJsonObject o { { "path", q(f.path) }, { "kind", q(f.kind) }, { "bytes", double(f.bytes) },
            { "textBytes", double(f.uncompressedBytes) } };
        // A path that is not UTF-8 is shown with its bad bytes replaced; its exact bytes go here,
        // so a script can open it again.
        if (!isValidUtf8(f.path))
            o.insert("pathBase64", QString::fromLatin1(QByteArray::fromStdString(f.path).toBase64()));
        files.append(o);
    }
    QJsonArray warnings;
    for (const Warning& w : s.firstWarnings)
        warnings.append(QJsonObject { { "category", q(w.category) }, { "file", q(w.file) },
            { "line", double(w.line) }, { "field", q(w.field) }, { "message", q(w.message) },
            { "text", q(w.toString()) } });
    QJsonObject meta;
    for (const auto& [k, v] : s.metadata)
        meta.insert(q(k), q(v));
    return QJsonObject {
        { "schema", "schedlab.info/1" },
        { "format", q(s.format) },
        { "cpuUnit", q(s.cpuUnit) },
        { "files", files },
        { "importSeconds", s.importSeconds },
        { "nodes",
            QJsonObject { { "count", double(s.nodes) }, { "gpuNodes", double(s.gpuNodes) },
                { "cpuMilli", double(s.totalCpuMilli) }, { "memMiB", double(s.totalMemMiB) },
                { "gpus", double(s.totalGpus) }, { "gpusByModel", mapJson(s.gpusByModel) },
                { "nodesByModel", mapJson(s.nodesByModel) } } },
        { "jobs",
            QJsonObject { { "count", double(s.jobs) }, { "multiTask", double(s.multiTaskJobs) },
                { "withSubmitTime", double(s.jobsWithSubmitTime) }, { "byQos", mapJson(s.jobsByQos) },
                { "tasksPerJob", distJson(s.tasksPerJob) } } },
        { "tasks",
            QJsonObject { { "count", double(s.tasks) }, { "cpuOnly", double(s.cpuOnlyTasks) },
                { "gpuShare", double(s.gpuShareTasks) }, { "wholeGpu", double(s.wholeGpuTasks) },
                { "modelConstrained", double(s.modelConstrainedTasks) },
                { "withLoggedStart", double(s.tasksWithLoggedStart) },
                { "withLoggedNode", double(s.tasksWithLoggedNode) }, { "byNumGpu", mapJson(s.tasksByNumGpu) },
                { "cpuMilli", distJson(s.cpuMilliPerTask) }, { "memMiB", distJson(s.memMiBPerTask) },
                { "gpuMilli", distJson(s.gpuMilliPerTask) }, { "runTimeS", distJson(s.runTimeS) } } },
        { "time",
            QJsonObject { { "firstSubmitS", s.firstSubmitS }, { "lastSubmitS", s.lastSubmitS },
                { "lastEndS", s.lastEndS },
                { "spanS", s.firstSubmitS >= 0 ? std::max(s.lastEndS, s.lastSubmitS) - s.firstSubmitS : -1.0 } } },
        { "warnings",
            QJsonObject { { "total", double(s.warnings) }, { "byCategory", mapJson(s.warningsByCategory) },
                { "first", warnings } } },
        { "logged", [&] {
             QJsonArray reasons;
             for (const TraceSummary::LoggedReasonCount& r : s.loggedReasons)
                 reasons.append(QJsonObject { { "reason", q(r.reason) }, { "attempts", double(r.attempts) }, { "tasks", double(r.tasks) } });
             return QJsonObject { { "decisions", double(s.loggedDecisions) }, { "placed", double(s.loggedPlaced) },
                 { "unschedulable", double(s.loggedUnschedulable) }, { "unschedulableAttempts", double(s.loggedUnschedulableAttempts) },
                 { "tasksEverUnschedulable", double(s.tasksEverUnschedulable) }, { "waited", double(s.loggedWaited) },
                 { "withCandidates", double(s.loggedWithCandidates) }, { "reasons", reasons }, { "bySource", mapJson(s.loggedBySource) } };
         }() },
        { "notes", mapJson(s.notes) },
        { "metadata", meta },
    };
}

namespace {
std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string distText(const Distribution& d)
{
    if (d.count == 0)
        return "n/a";
    return "min " + fmt("%.6g", d.min) + "  p50 " + fmt("%.6g", d.p50) + "  p90 " + fmt("%.6g", d.p90) + "  p99 "
        + fmt("%.6g", d.p99) + "  max " + fmt("%.6g", d.max) + "  mean " + fmt("%.6g", d.mean);
}
std::string duration(double s)
{
    if (s < 0)
        return "unknown";
    return fmt("%.0f s", s) + " (" + fmt("%.2f", s / 86400.0) + " days)";
}
} // namespace

namespace {
// Appends every piece to `o` (strings, C strings, integers). Building text by `o += a + b` trips a
// GCC 12 -Wrestrict false positive at -O3 (GCC bug 105329), and appending is cheaper anyway.
void piece(std::string& o, std::string_view v) { o.append(v); }
void piece(std::string& o, const char* v) { o.append(v); }
void piece(std::string& o, const std::string& v) { o.append(v); }
void piece(std::string& o, char v) { o.push_back(v); }
template <class T>
    requires std::is_integral_v<T>
void piece(std::string& o, T v)
{
    o.append(std::to_string(v));
}
template <class... Args>
void add(std::string& o, const Args&... args)
{
    (piece(o, args), ...);
}
} // namespace

std::string toText(const TraceSummary& s)
{
    std::string o;
    add(o, "format: ", s.format, "  (resource unit: ", s.cpuUnit, ")\n");
    for (const LoadedFile& f : s.files)
        add(o, "  file: ", f.path, "  [", f.kind, ", ", f.bytes, " bytes]\n");
    add(o, "import: ", fmt("%.3f s", s.importSeconds), '\n');
    add(o, "nodes: ", s.nodes, " (", s.gpuNodes, " with GPUs)  cpu ", s.totalCpuMilli, "  mem ", s.totalMemMiB,
        " MiB  GPUs ", s.totalGpus, '\n');
    for (const auto& [model, n] : s.gpusByModel)
        add(o, "  ", model, ": ", n, " GPUs on ", s.nodesByModel.at(model), " nodes\n");
    add(o, "jobs: ", s.jobs, "  tasks: ", s.tasks, "  (multi-task jobs ", s.multiTaskJobs, ")\n");
    add(o, "  cpu-only tasks ", s.cpuOnlyTasks, ", GPU-share ", s.gpuShareTasks, ", whole-GPU ", s.wholeGpuTasks,
        ", model-constrained ", s.modelConstrainedTasks, '\n');
    add(o, "  tasks by GPU count:");
    for (const auto& [g, n] : s.tasksByNumGpu)
        add(o, ' ', g, 'x', n);
    add(o, '\n');
    if (!s.jobsByQos.empty()) {
        add(o, "  jobs by QoS:");
        for (const auto& [k, n] : s.jobsByQos)
            add(o, ' ', k, '=', n);
        add(o, '\n');
    }
    add(o, "  logged: start for ", s.tasksWithLoggedStart, " tasks, node for ", s.tasksWithLoggedNode, '\n');
    if (s.loggedDecisions > 0) {
        add(o, "logged decisions: ", s.loggedDecisions, " (", s.loggedPlaced, " placed, ", s.loggedUnschedulable, " unschedulable = ",
            s.loggedUnschedulableAttempts, " attempts for ", s.tasksEverUnschedulable, " tasks, ", s.loggedWaited, " waited; ",
            s.loggedWithCandidates, " with candidate scores)\n");
        for (const auto& [source, n] : s.loggedBySource)
            add(o, "  by ", source, ": ", n, '\n');
        if (!s.loggedReasons.empty()) {
            add(o, "  unschedulable because:");
            for (std::size_t i = 0; i < s.loggedReasons.size() && i < 8; ++i)
                add(o, i ? ";" : "", ' ', s.loggedReasons[i].reason, " (", s.loggedReasons[i].attempts, " attempts, ",
                    s.loggedReasons[i].tasks, s.loggedReasons[i].tasks == 1 ? " task)" : " tasks)");
            if (s.loggedReasons.size() > 8)
                add(o, "; ", s.loggedReasons.size() - 8, " more");
            add(o, '\n');
        }
    }
    if (s.firstSubmitS < 0) // -1 = unknown: no job has a submit time (a node list alone, a pod list without times)
        add(o, "time: no submit times (", s.jobs == 0 ? "no jobs" : "jobs without times; fill experiments only", ")\n");
    else
        add(o, "time: first submit ", fmt("%.6g", s.firstSubmitS), " s, last submit ", fmt("%.6g", s.lastSubmitS),
            " s, span ", duration(std::max(s.lastEndS, s.lastSubmitS) - s.firstSubmitS), '\n');
    add(o, "requests per task (percentiles by nearest rank):\n");
    add(o, "  cpu:       ", distText(s.cpuMilliPerTask), '\n');
    add(o, "  mem MiB:   ", distText(s.memMiBPerTask), '\n');
    add(o, "  gpu milli: ", distText(s.gpuMilliPerTask), '\n');
    add(o, "  run s:     ", distText(s.runTimeS), '\n');
    for (const auto& [k, v] : s.metadata) {
        if (k.find("Note") != std::string::npos || k.find("Information") != std::string::npos)
            continue;
        const std::string shown = v.substr(0, v.find('\n'));
        add(o, "meta ", k, ": ", std::string_view(shown).substr(0, 70), '\n');
    }
    for (const auto& [k, n] : s.notes)
        add(o, "note ", k, ": ", n, '\n');
    add(o, "warnings: ", s.warnings, '\n');
    for (const auto& [k, n] : s.warningsByCategory)
        add(o, "  ", k, ": ", n, '\n');
    for (const Warning& w : s.firstWarnings)
        add(o, "  ", w.toString(), '\n');
    return o;
}

} // namespace schedlab::trace
