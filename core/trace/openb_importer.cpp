#include "openb_importer.h"

#include "duplicate_guard.h"
#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "trace.h"

#include <algorithm>
#include <limits>

namespace schedlab::trace {

namespace {

constexpr int64_t kMaxResource = int64_t(1) << 50; // far above any machine; guards overflow in sums

// Reads the header line; fails on an empty file or a missing required column.
Result<ColumnMap> readHeader(LineReader& reader, const std::vector<std::string_view>& required, const char* what)
{
    std::string_view line;
    std::vector<std::string_view> fields;
    while (reader.next(line)) {
        if (isBlank(line))
            continue;
        splitChar(line, ',', fields);
        ColumnMap columns(fields);
        for (std::string_view name : required) {
            if (columns.index(name) < 0)
                return Error { ErrorCode::Format,
                    std::string(what) + ": missing required column '" + std::string(name) + "' (header is "
                        + quoted(line) + ")",
                    reader.displayName(), reader.lineNumber(), -1 };
        }
        return columns;
    }
    if (reader.error())
        return *reader.error();
    return Error { ErrorCode::Empty, std::string(what) + ": file is empty", reader.displayName(), -1, -1 };
}

Status finish(LineReader& reader, int64_t rows, const char* what)
{
    if (reader.error())
        return *reader.error();
    if (rows == 0)
        return Error { ErrorCode::Empty, std::string(what) + ": no data rows after the header", reader.displayName(),
            -1, -1 };
    return {};
}

/// Column indexes of an openb pod list (-1: absent).
struct PodColumns {
    explicit PodColumns(const ColumnMap& cols)
        : name(cols.index("name"))
        , cpu(cols.index("cpu_milli"))
        , mem(cols.index("memory_mib"))
        , numGpu(cols.index("num_gpu"))
        , gpuMilli(cols.index("gpu_milli"))
        , spec(cols.index("gpu_spec"))
        , qos(cols.index("qos"))
        , phase(cols.index("pod_phase"))
        , create(cols.index("creation_time"))
        , del(cols.index("deletion_time"))
        , sched(cols.index("scheduled_time"))
    {
    }
    int name, cpu, mem, numGpu, gpuMilli, spec, qos, phase, create, del, sched;
};

/// The pod's request, its GPU share checked against its GPU count.
void readRequest(RowReader& row, const PodColumns& c, TaskRequest& req)
{
    req.cpuMilli = row.integer(c.cpu, "cpu_milli", true, 0, 0, kMaxResource);
    req.memMiB = row.integer(c.mem, "memory_mib", true, 0, 0, kMaxResource);
    req.numGpu = int32_t(row.integer(c.numGpu, "num_gpu", true, 0, 0, 4096));
    req.gpuMilli = int32_t(row.integer(c.gpuMilli, "gpu_milli", true, 0, 0, 1000));
    if (row.ok() && req.numGpu == 0 && req.gpuMilli != 0)
        row.fail("inconsistent", "gpu_milli",
            "gpu_milli is " + std::to_string(req.gpuMilli) + " but num_gpu is 0; row skipped");
    if (row.ok() && req.numGpu > 0 && req.gpuMilli == 0)
        row.fail("inconsistent", "gpu_milli", "num_gpu is " + std::to_string(req.numGpu)
                + " but gpu_milli is 0; row skipped");
    if (row.ok() && req.numGpu > 1 && req.gpuMilli != 1000)
        row.fail("inconsistent", "gpu_milli",
            "a task with " + std::to_string(req.numGpu) + " GPUs must ask for whole GPUs (1000), found "
                + std::to_string(req.gpuMilli) + "; row skipped");
}

/// gpu_spec: GPU models separated by '|', into the request's model mask.
void readGpuSpec(RowReader& row, int col, Trace& trace, std::vector<std::string_view>& models, TaskRequest& req)
{
    std::string_view spec = trimmed(row.text(col));
    if (spec.empty())
        return;
    splitChar(spec, '|', models);
    for (std::string_view m : models) {
        m = trimmed(m);
        if (m.empty())
            continue;
        std::string model = isValidUtf8(m) ? std::string(m) : sanitizeUtf8(m);
        int idx = trace.internGpuModel(model);
        if (idx < 0) {
            row.fail("too-many-models", "gpu_spec", "more than 32 GPU models; " + quoted(m));
            break;
        }
        req.gpuModelMask |= 1u << idx;
    }
}

/// QoS class and pod phase (the job's status).
void readQosAndPhase(RowReader& row, const PodColumns& c, Trace& trace, Job& job)
{
    if (c.qos >= 0) {
        std::string qos = row.utf8Text(c.qos, "qos");
        if (!qos.empty())
            job.qos = int16_t(trace.internQos(qos));
    }
    if (c.phase >= 0) {
        std::string_view phase = trimmed(row.text(c.phase));
        if (phase == "Pending")
            job.status = int16_t(PodPhase::Pending);
        else if (phase == "Running")
            job.status = int16_t(PodPhase::Running);
        else if (phase == "Succeeded")
            job.status = int16_t(PodPhase::Succeeded);
        else if (phase == "Failed")
            job.status = int16_t(PodPhase::Failed);
        else if (!phase.empty())
            row.warn("unknown-value", "pod_phase", quoted(phase) + " is not a known phase; kept as unknown");
    }
}

/// Creation, scheduling and deletion times: the job's submit and run time, the task's logged
/// start and end. False when a time is bad (the row failed).
bool readTimes(RowReader& row, const PodColumns& c, Job& job, Task& task)
{
    const double created = row.real(c.create, "creation_time", false, -1, 0);
    const double deleted = row.real(c.del, "deletion_time", false, -1, 0);
    const double scheduled = row.real(c.sched, "scheduled_time", false, -1, 0);
    if (!row.ok())
        return false;
    job.submitTimeS = created;
    task.logged.startTimeS = scheduled;
    task.logged.endTimeS = deleted;
    if (scheduled >= 0 && deleted >= 0) {
        if (deleted >= scheduled)
            job.runTimeS = deleted - scheduled;
        else
            row.warn("inconsistent", "deletion_time", "deleted before it was scheduled; run time unknown");
    }
    if (created >= 0 && scheduled >= 0 && scheduled < created)
        row.warn("inconsistent", "scheduled_time", "scheduled before it was created");
    return true;
}

} // namespace

Status importOpenbNodes(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    auto header = readHeader(reader, { "sn", "cpu_milli", "memory_mib", "gpu" }, "openb node list");
    if (!header)
        return header.error();
    const ColumnMap& cols = header.value();
    const int cSn = cols.index("sn"), cCpu = cols.index("cpu_milli"), cMem = cols.index("memory_mib"),
              cGpu = cols.index("gpu"), cModel = cols.index("model");
    const std::string& file = reader.displayName();

    const std::size_t base = trace.nodes.size();
    DuplicateGuard<std::string> seen([&](std::size_t i) { return trace.nodes[base + i].name; });
    std::vector<std::string_view> fields;
    std::string_view line;
    int64_t rows = 0;
    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        ++rows;
        if (rows == 256)
            trace.nodes.reserve(base + estimateRows(reader.fileSize(), reader.bytesRead(), reader.lineNumber(), reader.isGzip()));
        splitChar(line, ',', fields);
        RowReader row(ctx, file, reader.lineNumber(), fields);
        if (fields.size() != cols.size()) {
            row.fail("field-count", "",
                "expected " + std::to_string(cols.size()) + " fields, found " + std::to_string(fields.size()));
            continue;
        }
        Node node;
        node.name = row.utf8Text(cSn, "sn");
        if (node.name.empty())
            row.fail("missing-value", "sn", "node name is empty");
        node.cpuMilli = row.integer(cCpu, "cpu_milli", true, 0, 0, kMaxResource);
        node.memMiB = row.integer(cMem, "memory_mib", true, 0, 0, kMaxResource);
        node.numGpu = int32_t(row.integer(cGpu, "gpu", true, 0, 0, 4096));
        std::string model = cModel >= 0 ? row.utf8Text(cModel, "model") : std::string();
        if (!row.ok())
            continue;
        if (node.numGpu > 0 && !model.empty()) {
            int idx = trace.internGpuModel(model);
            if (idx < 0) {
                row.fail("too-many-models", "model", "more than 32 GPU models; " + quoted(model) + " ignored");
                continue;
            }
            node.gpuModel = int16_t(idx);
        } else if (node.numGpu == 0 && !model.empty()) {
            row.warn("inconsistent", "model", "node has no GPU but a model " + quoted(model) + "; model ignored");
        }
        if (const int64_t first = seen.add(node.name, reader.lineNumber()); first >= 0) {
            row.fail("duplicate-id", "sn",
                "duplicate node " + quoted(node.name) + " (first at line " + std::to_string(first) + "); row skipped");
            continue;
        }
        trace.nodes.push_back(std::move(node));
    }
    return finish(reader, rows, "openb node list");
}

Status importOpenbPods(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    auto header = readHeader(reader, { "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli" }, "openb pod list");
    if (!header)
        return header.error();
    const ColumnMap& cols = header.value();
    const PodColumns c(cols);
    const std::string& file = reader.displayName();
    const FeasibilityChecker feasibility(trace);

    const std::size_t base = trace.jobs.size();
    DuplicateGuard<std::string> seen([&](std::size_t i) { return std::string(trace.jobNameView(trace.jobs[base + i])); });
    std::vector<std::string_view> fields, models;
    std::string_view line;
    int64_t rows = 0;
    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        ++rows;
        if (rows == 256) {
            const std::size_t n = estimateRows(reader.fileSize(), reader.bytesRead(), reader.lineNumber(), reader.isGzip());
            trace.jobs.reserve(base + n);
            trace.tasks.reserve(trace.tasks.size() + n);
            trace.jobNames.reserve(trace.jobNames.size() + n * (trace.jobNames.size() / std::max<std::size_t>(trace.jobs.size(), 1) + 1));
            seen.reserve(n);
        }
        splitChar(line, ',', fields);
        RowReader row(ctx, file, reader.lineNumber(), fields);
        if (fields.size() != cols.size()) {
            row.fail("field-count", "",
                "expected " + std::to_string(cols.size()) + " fields, found " + std::to_string(fields.size()));
            continue;
        }
        Job job;
        Task task;
        std::string name = row.utf8Text(c.name, "name");
        if (name.empty())
            row.fail("missing-value", "name", "pod name is empty");
        readRequest(row, c, task.request);
        if (c.spec >= 0 && row.ok())
            readGpuSpec(row, c.spec, trace, models, task.request);
        readQosAndPhase(row, c, trace, job);
        if (!readTimes(row, c, job, task))
            continue;
        if (const int64_t first = seen.add(name, reader.lineNumber()); first >= 0) {
            row.fail("duplicate-id", "name",
                "duplicate pod " + quoted(name) + " (first at line " + std::to_string(first) + "); row skipped");
            continue;
        }
        if (feasibility.hasNodes() && !feasibility.canEverHost(task.request))
            row.warn("never-fits", "",
                "pod " + quoted(name) + " asks for more than any node has; it can never run");

        if (!trace.setJobName(job, name))
            return Error { ErrorCode::Range, "more than 4 GiB of pod names", file, reader.lineNumber(), -1 };
        job.id = JobId { int64_t(trace.jobs.size()) };
        job.firstTask = uint32_t(trace.tasks.size());
        job.taskCount = 1;
        trace.tasks.push_back(task);
        trace.jobs.push_back(std::move(job));
        if (auto e = ctx.tooManyTasks(reader, trace.tasks.size()))
            return *e;
    }
    return finish(reader, rows, "openb pod list");
}

} // namespace schedlab::trace
