#include "native_format.h"

#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "native_logged.h"
#include "trace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace schedlab::trace {

namespace {

class Writer {
public:
    explicit Writer(std::FILE* f)
        : m_file(f)
    {
    }
    void line(const std::string& s)
    {
        m_buf += s;
        m_buf += '\n';
        if (m_buf.size() > (1u << 20))
            flush();
    }
    bool flush()
    {
        if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
            m_failed = true;
        m_buf.clear();
        return !m_failed;
    }
    bool failed() const { return m_failed; }

private:
    std::FILE* m_file;
    std::string m_buf;
    bool m_failed = false;
};

std::string num(int64_t v) { return std::to_string(v); }
std::string num(double v) { return formatDouble(v); }

} // namespace

Status writeNativeTrace(const Trace& trace, const std::string& path)
{
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    Writer w(f);
    w.line(kNativeMagic);
    w.line("source," + percentEscape(trace.sourceFormat));
    w.line(std::string("unit,") + (trace.cpuUnit == ResourceUnit::NormalizedNano ? "normalized-nano" : "absolute"));
    for (const std::string& s : trace.sourceFiles)
        w.line("file," + percentEscape(s));
    for (const auto& [k, v] : trace.metadata)
        w.line("meta," + percentEscape(k) + "," + percentEscape(v));
    for (const std::string& s : trace.gpuModels)
        w.line("model," + percentEscape(s));
    for (const std::string& s : trace.qosClasses)
        w.line("qos," + percentEscape(s));
    for (const std::string& s : trace.users)
        w.line("user," + percentEscape(s));
    for (const Node& n : trace.nodes)
        w.line("node," + percentEscape(n.name) + "," + num(n.cpuMilli) + "," + num(n.memMiB) + "," + num(int64_t(n.numGpu))
            + "," + num(int64_t(n.gpuModel)) + "," + num(n.power.idleW) + "," + num(n.power.peakW));
    char mask[16];
    for (const Job& j : trace.jobs) {
        w.line("job," + num(j.id.value) + "," + percentEscape(trace.jobNameView(j)) + "," + num(j.submitTimeS) + "," + num(j.runTimeS) + ","
            + num(j.requestedTimeS) + "," + num(int64_t(j.priority)) + "," + num(int64_t(j.qos)) + ","
            + num(int64_t(j.user)) + "," + num(int64_t(j.group)) + "," + num(int64_t(j.status)) + ","
            + (j.gang ? "1" : "0") + "," + num(int64_t(j.taskCount)));
        for (uint32_t i = 0; i < j.taskCount; ++i) {
            const Task& t = trace.tasks[j.firstTask + i];
            std::snprintf(mask, sizeof mask, "%x", t.request.gpuModelMask);
            w.line("task," + num(t.request.cpuMilli) + "," + num(t.request.memMiB) + ","
                + num(int64_t(t.request.numGpu)) + "," + num(int64_t(t.request.gpuMilli)) + "," + mask + ","
                + num(t.submitOffsetS) + "," + num(t.runTimeS) + "," + num(int64_t(t.logged.node.value)) + ","
                + num(t.logged.startTimeS) + "," + num(t.logged.endTimeS));
        }
    }
    writeLoggedRecords(trace.logged, [&](const std::string& s) { w.line(s); });
    w.line("end," + num(int64_t(trace.jobs.size())) + "," + num(int64_t(trace.tasks.size()))
        + (trace.logged.empty() ? std::string() : "," + num(int64_t(trace.logged.decisions.size()))));
    bool ok = w.flush();
    ok = (std::fflush(f) == 0) && ok;
    ok = (::fsync(fileno(f)) == 0) && ok;
    ok = (std::fclose(f) == 0) && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return makeError(ErrorCode::Io, "cannot write: " + why, path);
    }
    return {};
}

namespace {

/// Reads a native trace's records after the magic line, one kind of record per member function.
class NativeReader {
public:
    NativeReader(LineReader& reader, Trace& trace, ImportContext& ctx)
        : m_reader(reader)
        , m_trace(trace)
        , m_ctx(ctx)
    {
    }

    Status read();

private:
    Status fail(const std::string& field, const std::string& msg) const
    {
        std::string where = field.empty() ? std::string() : "column " + field + ": ";
        return Error { ErrorCode::Parse, where + msg, m_reader.displayName(), m_reader.lineNumber(), -1 };
    }
    bool needFields(std::size_t n) const { return f.size() == n; }
    bool i64(std::size_t i, const char* name, int64_t& out)
    {
        ParseStatus st = parseInt64(f[i], out);
        if (st != ParseStatus::Ok) {
            text = std::string(name) + ": " + parseMessage(st, f[i]);
            return false;
        }
        return true;
    }
    bool dbl(std::size_t i, const char* name, double& out)
    {
        ParseStatus st = parseDouble(f[i], out);
        if (st != ParseStatus::Ok) {
            text = std::string(name) + ": " + parseMessage(st, f[i]);
            return false;
        }
        return true;
    }
    bool str(std::size_t i, std::string& out)
    {
        if (!percentUnescape(f[i], out)) {
            text = "bad escape in " + quoted(f[i]);
            return false;
        }
        return true;
    }

    Status record(std::string_view kind);
    Status task();
    Status job();
    Status node();
    Status named(std::string_view kind);
    Status end();

    LineReader& m_reader;
    Trace& m_trace;
    ImportContext& m_ctx;
    std::vector<std::string_view> f; ///< the current line's fields
    std::string text; ///< the last field error
    Job* openJob = nullptr;
    uint32_t expectTasks = 0;
    bool sawEnd = false;
    LoggedRecordReader logged;
};

Status NativeReader::read()
{
    std::string_view line;
    while (m_reader.next(line)) {
        if ((m_reader.lineNumber() & 8191) == 0 && !m_ctx.tick(m_reader))
            return m_ctx.cancelledError(m_reader);
        if (line.empty() || line[0] == '#')
            continue;
        if (sawEnd)
            return fail("", "data after the end record");
        splitChar(line, ',', f);
        if (Status st = record(f[0]); !st)
            return st;
    }
    if (m_reader.error())
        return *m_reader.error();
    if (openJob && expectTasks > 0)
        return fail("", "file ends inside job " + std::to_string(openJob->id.value));
    if (!sawEnd)
        return Error { ErrorCode::Io, "file is truncated (no end record)", m_reader.displayName(), m_reader.lineNumber(), -1 };
    return {};
}

Status NativeReader::record(std::string_view kind)
{
    if (openJob && expectTasks > 0 && kind != "task")
        return fail("", "job " + std::to_string(openJob->id.value) + " expects " + std::to_string(expectTasks)
                + " more task lines");
    if (kind == "task")
        return task();
    openJob = nullptr;
    if (kind == "job")
        return job();
    if (kind == "node")
        return node();
    if (kind == "meta") {
        if (!needFields(3))
            return fail("", "meta lines have 3 fields");
        std::string k, v;
        if (!str(1, k) || !str(2, v))
            return fail("", text);
        m_trace.metadata[k] = v;
        return {};
    }
    if (kind == "source" || kind == "file" || kind == "model" || kind == "qos" || kind == "user" || kind == "unit")
        return named(kind);
    if (LoggedRecordReader::handles(kind)) {
        if (Status st = logged.add(f, m_trace); !st)
            return fail("", st.error().message);
        return {};
    }
    if (kind == "end")
        return end();
    return fail("", "unknown record type " + quoted(kind));
}

Status NativeReader::task()
{
    if (!openJob || expectTasks == 0)
        return fail("", "task line without an open job");
    if (!needFields(11))
        return fail("", "task lines have 11 fields, found " + std::to_string(f.size()));
    Task t;
    int64_t numGpu = 0, gpuMilli = 0, node = 0;
    unsigned long mask = 0;
    if (!i64(1, "cpu_milli", t.request.cpuMilli) || !i64(2, "mem_mib", t.request.memMiB)
        || !i64(3, "num_gpu", numGpu) || !i64(4, "gpu_milli", gpuMilli)
        || !dbl(6, "submit_offset_s", t.submitOffsetS) || !dbl(7, "run_s", t.runTimeS)
        || !i64(8, "logged_node", node) || !dbl(9, "logged_start_s", t.logged.startTimeS)
        || !dbl(10, "logged_end_s", t.logged.endTimeS))
        return fail("", text);
    char* endp = nullptr;
    std::string maskText(f[5]);
    mask = std::strtoul(maskText.c_str(), &endp, 16);
    if (maskText.empty() || *endp != '\0' || mask > 0xFFFFFFFFul)
        return fail("gpu_model_mask", quoted(f[5]) + " is not a hexadecimal mask");
    if (numGpu < 0 || numGpu > 4096 || gpuMilli < 0 || gpuMilli > 1000 || t.request.cpuMilli < 0
        || t.request.memMiB < 0)
        return fail("", "request out of range");
    if (node < -1 || node >= int64_t(m_trace.nodes.size()))
        return fail("logged_node", std::to_string(node) + " is not a node index");
    t.request.numGpu = int32_t(numGpu);
    t.request.gpuMilli = int32_t(gpuMilli);
    t.request.gpuModelMask = uint32_t(mask);
    t.logged.node = NodeId { int32_t(node) };
    m_trace.tasks.push_back(t);
    if (auto e = m_ctx.tooManyTasks(m_reader, m_trace.tasks.size()))
        return *e;
    --expectTasks;
    return {};
}

Status NativeReader::job()
{
    if (!needFields(13))
        return fail("", "job lines have 13 fields, found " + std::to_string(f.size()));
    Job j;
    int64_t prio = 0, qos = 0, user = 0, group = 0, status = 0, gang = 0, count = 0;
    std::string name;
    if (!i64(1, "id", j.id.value) || !str(2, name) || !dbl(3, "submit_s", j.submitTimeS)
        || !dbl(4, "run_s", j.runTimeS) || !dbl(5, "requested_s", j.requestedTimeS)
        || !i64(6, "priority", prio) || !i64(7, "qos", qos) || !i64(8, "user", user)
        || !i64(9, "group", group) || !i64(10, "status", status) || !i64(11, "gang", gang)
        || !i64(12, "task_count", count))
        return fail("", text);
    if (count < 1 || count > (int64_t(1) << 24))
        return fail("task_count", std::to_string(count) + " is not a valid task count");
    if (qos < -1 || qos >= int64_t(m_trace.qosClasses.size()))
        return fail("qos", std::to_string(qos) + " is not a qos index");
    if (!m_trace.setJobName(j, name))
        return fail("name", "more than 4 GiB of job names");
    j.priority = int32_t(prio);
    j.qos = int16_t(qos);
    j.user = int32_t(user);
    j.group = int32_t(group);
    j.status = int16_t(status);
    j.gang = gang != 0;
    j.firstTask = uint32_t(m_trace.tasks.size());
    j.taskCount = uint32_t(count);
    m_trace.jobs.push_back(std::move(j));
    openJob = &m_trace.jobs.back();
    expectTasks = uint32_t(count);
    return {};
}

Status NativeReader::node()
{
    if (!needFields(8))
        return fail("", "node lines have 8 fields, found " + std::to_string(f.size()));
    Node n;
    int64_t gpus = 0, model = 0;
    if (!str(1, n.name) || !i64(2, "cpu_milli", n.cpuMilli) || !i64(3, "mem_mib", n.memMiB)
        || !i64(4, "num_gpu", gpus) || !i64(5, "gpu_model", model) || !dbl(6, "idle_w", n.power.idleW)
        || !dbl(7, "peak_w", n.power.peakW))
        return fail("", text);
    if (model < -1 || model >= int64_t(m_trace.gpuModels.size()))
        return fail("gpu_model", std::to_string(model) + " is not a model index");
    if (gpus < 0 || gpus > 4096 || n.cpuMilli < 0 || n.memMiB < 0)
        return fail("", "capacity out of range");
    n.numGpu = int32_t(gpus);
    n.gpuModel = int16_t(model);
    m_trace.nodes.push_back(std::move(n));
    return {};
}

/// source, file, model, qos, user and unit: one escaped value each.
Status NativeReader::named(std::string_view kind)
{
    if (!needFields(2))
        return fail("", std::string(kind) + " lines have 2 fields");
    std::string v;
    if (!str(1, v))
        return fail("", text);
    if (kind == "source")
        m_trace.sourceFormat = v;
    else if (kind == "file")
        m_trace.sourceFiles.push_back(v);
    else if (kind == "model") {
        if (m_trace.gpuModels.size() >= std::size_t(kMaxGpuModels))
            return fail("", "more than 32 GPU models");
        m_trace.gpuModels.push_back(v);
    } else if (kind == "qos")
        m_trace.qosClasses.push_back(v);
    else if (kind == "user")
        m_trace.users.push_back(v);
    else if (v == "absolute")
        m_trace.cpuUnit = ResourceUnit::Absolute;
    else if (v == "normalized-nano")
        m_trace.cpuUnit = ResourceUnit::NormalizedNano;
    else
        return fail("unit", quoted(v) + " is not a known unit");
    return {};
}

/// The end record: counts checked against what was read.
Status NativeReader::end()
{
    int64_t jobs = 0, tasks = 0, decisions = 0;
    if (!(needFields(3) || needFields(4)) || !i64(1, "jobs", jobs) || !i64(2, "tasks", tasks)
        || (f.size() == 4 && !i64(3, "decisions", decisions)))
        return fail("", "bad end record");
    if (Status st = logged.finish(); !st)
        return fail("", st.error().message);
    if (decisions != int64_t(logged.decisions()))
        return fail("", "end record says " + std::to_string(decisions) + " logged decisions, file has "
                + std::to_string(logged.decisions()));
    if (jobs != int64_t(m_trace.jobs.size()) || tasks != int64_t(m_trace.tasks.size()))
        return fail("", "end record says " + std::to_string(jobs) + " jobs and " + std::to_string(tasks)
                + " tasks, file has " + std::to_string(m_trace.jobs.size()) + " and "
                + std::to_string(m_trace.tasks.size()));
    sawEnd = true;
    return {};
}

} // namespace

Status importNative(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    std::string_view line;
    if (!reader.next(line))
        return reader.error() ? *reader.error() : makeError(ErrorCode::Empty, "file is empty", file);
    if (line != kNativeMagic)
        return Error { ErrorCode::Parse, "not a schedlab trace (first line must be '" + std::string(kNativeMagic) + "')", file,
            reader.lineNumber(), -1 };
    NativeReader native(reader, trace, ctx);
    return native.read();
}

} // namespace schedlab::trace
