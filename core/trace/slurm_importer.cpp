#include "slurm_importer.h"

#include "accounting_log.h"
#include "duplicate_guard.h"
#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "slurm_fields.h"
#include "slurm_layout.h"
#include "trace.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace schedlab::trace {

namespace {

constexpr int64_t kMaxCount = int64_t(1) << 24; // CPUs or nodes of one job
constexpr std::size_t kMaxHosts = std::size_t(1) << 16; // tasks of one job

/// SWF-style status code of a Slurm state (1 done, 0 failed, 5 cancelled, -1 other).
int16_t statusOf(std::string_view state)
{
    if (state == "COMPLETED")
        return 1;
    if (state == "CANCELLED")
        return 5;
    if (state == "FAILED" || state == "TIMEOUT" || state == "NODE_FAIL" || state == "OUT_OF_MEMORY" || state == "BOOT_FAIL"
        || state == "DEADLINE" || state == "PREEMPTED")
        return 0;
    return -1;
}

/// One sacct row's columns by index (-1: not in the layout); a bad value fails the row.
struct SacctRow {
    const std::vector<std::string_view>& fields;
    RowReader& row;
    std::string& error;

    std::string_view text(int col) const { return col >= 0 ? trimmed(fields[std::size_t(col)]) : std::string_view(); }

    /// Unix seconds; -1 when absent or bad.
    double time(int col, const char* name, const LocalTimeZone& zone)
    {
        const std::string_view t = text(col);
        if (col < 0 || isSlurmNoTime(t))
            return -1;
        auto civil = parseSlurmDateTime(t, error);
        if (!civil) {
            row.fail("bad-time", name, error + "; row skipped");
            return -1;
        }
        return double(zone.toUnix(*civil));
    }

    /// A count in 0..kMaxCount; -1 when absent or bad.
    int64_t count(int col, const char* name)
    {
        const std::string_view t = text(col);
        int64_t v = 0;
        if (t.empty())
            return -1;
        if (const ParseStatus s = parseInt64(t, v); s != ParseStatus::Ok || v < 0 || v > kMaxCount) {
            row.fail(s == ParseStatus::Ok ? "out-of-range" : "bad-number", name,
                (s == ParseStatus::Ok ? quoted(t) + " is outside 0.." + std::to_string(kMaxCount) : parseMessage(s, t)) + "; row skipped");
            return -1;
        }
        return v;
    }

    SlurmTres tres(int col, const char* name)
    {
        if (text(col).empty())
            return {};
        auto r = parseSlurmTres(text(col), error);
        if (!r) {
            row.fail("bad-tres", name, error + "; row skipped");
            return {};
        }
        return *r;
    }

    /// Seconds; -1 when absent or bad (a warning, not a failure).
    double duration(int col, const char* name)
    {
        if (text(col).empty())
            return -1;
        auto d = parseSlurmDuration(text(col), error);
        if (!d && !error.empty()) {
            row.warn("bad-duration", name, error + "; taken as unknown");
            error.clear();
        }
        return d ? *d : -1;
    }
};

/// What a job row says before it becomes a Job (times in Unix seconds, -1 = unknown).
struct SacctValues {
    double submit = -1, eligible = -1, start = -1, end = -1;
    SlurmTres alloc, req;
    int64_t nodesCount = -1, cpus = -1, priority = -1;
    std::optional<SlurmMemory> reqMem;
    std::optional<std::vector<std::string>> hosts;
};

int64_t firstPositive(std::initializer_list<int64_t> vs)
{
    for (int64_t v : vs)
        if (v > 0)
            return v;
    return int64_t(-1);
}

/// Reads the columns of a job row; false (the row failed) when one is bad.
bool readValues(SacctRow& r, const SacctLayout& L, const LocalTimeZone& zone, SacctValues& v)
{
    v.submit = r.time(L.submit, "Submit", zone);
    v.eligible = r.time(L.eligible, "Eligible", zone);
    v.start = r.time(L.start, "Start", zone);
    v.end = r.time(L.end, "End", zone);
    v.alloc = r.tres(L.allocTres, "AllocTRES");
    v.req = r.tres(L.reqTres, "ReqTRES");
    v.nodesCount = firstPositive({ r.count(L.nnodes, "NNodes"), r.count(L.allocNodes, "AllocNodes"), v.alloc.nodes,
        r.count(L.reqNodes, "ReqNodes"), v.req.nodes });
    v.cpus = firstPositive({ r.count(L.ncpus, "NCPUS"), r.count(L.allocCpus, "AllocCPUS"), v.alloc.cpu,
        r.count(L.reqCpus, "ReqCPUS"), v.req.cpu });
    v.priority = r.count(L.priority, "Priority");
    if (!r.text(L.reqMem).empty() && !(v.reqMem = parseSlurmMemory(r.text(L.reqMem), r.error)))
        r.row.fail("bad-memory", "ReqMem", r.error + "; row skipped");
    if (v.submit < 0 && r.row.ok())
        r.row.fail("no-submit", "Submit", "no submit time; row skipped");
    if (r.row.ok() && !(v.hosts = expandHostlist(r.text(L.nodeList), kMaxHosts, r.error)))
        r.row.fail("bad-nodelist", "NodeList", r.error + "; row skipped");
    return r.row.ok();
}

/// The job's state word, upper case ("CANCELLED by 123" -> "CANCELLED"; none -> "UNKNOWN").
std::string stateOf(const SacctRow& r, const SacctLayout& L)
{
    std::string state(r.text(L.state).substr(0, r.text(L.state).find(' ')));
    for (char& c : state)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    if (state.empty())
        state = "UNKNOWN";
    return state;
}

} // namespace

struct SlurmImporter::State {
    std::optional<LocalTimeZone> zone;
    std::unordered_map<std::string, int32_t> nodeIndex;
    std::unordered_map<std::string, int32_t> userIndex;
    std::unordered_map<std::string, int64_t> seenJobIds; ///< JobID text -> line
    struct Step {
        std::string parent, file;
        int64_t line;
    };
    std::vector<Step> steps; ///< checked against the jobs at the end (steps may come first)
    std::map<std::string, int64_t> states, clusters;
    std::vector<std::string> files, layouts;
    int64_t ordinal = 0, rows = 0, eligibleLater = 0, estimatedRun = 0, cappedRun = 0, estimatedWait = 0;
    int64_t perCpuFlag = 0, hostCountDiffers = 0, startBeforeSubmit = 0, neverStarted = 0, pendingRanges = 0, sharedRaw = 0;
    /// Per job: its JobIDRaw (-1: none), so that node sizes never add rows of one allocation.
    std::vector<int64_t> allocationOf;
    std::unordered_map<int64_t, std::string> rawText; ///< JobIDRaw -> the JobID text of its first row
    int64_t lastRaw = -1; ///< the JobIDRaw of the row identify() last read
    bool anyNodeList = false;

    /// The time zone and the --sacct-fields layout, once per file.
    Status setUp(const ImportOptions& options, std::optional<SacctLayout>& layout, std::vector<std::string_view>& fields,
        std::string& error);
    /// A header line sets the layout (`header` true); a data row without one needs a known layout.
    Status detectLayout(const std::vector<std::string_view>& fields, char delimiter, std::optional<SacctLayout>& layout,
        const std::string& file, int64_t lineNo, std::string& error, bool& header);
    /// Ids: JobIDRaw, else a numeric JobID; arrays (123_4), het jobs (123+0) and exports without
    /// ids get the row's ordinal (the JobID text is then the job's name). False: a duplicate.
    bool identify(SacctRow& r, const SacctLayout& L, std::string_view jobIdText, int64_t lineNo, Job& job, bool& idFromText);
    /// Eligible time, time limit, status, priority, QoS, user, group and name.
    void describe(SacctRow& r, const SacctLayout& L, const SacctValues& v, const std::string& state, bool idFromText,
        std::string_view jobIdText, Trace& trace, Job& job);
    /// Run time and logged start/end.
    void runTimes(SacctRow& r, const SacctLayout& L, const std::string& state, SacctValues& v, Job& job);
    /// One task per allocated node; false (the row failed) when there are too many.
    bool addTasks(SacctRow& r, const SacctLayout& L, const SacctValues& v, Trace& trace, Job& job);
};

Status SlurmImporter::State::setUp(const ImportOptions& options, std::optional<SacctLayout>& layout, std::vector<std::string_view>& fields,
    std::string& error)
{
    if (!zone) {
        zone = LocalTimeZone::make(options.timezone, error);
        if (!zone)
            return makeError(ErrorCode::Invalid, "--timezone: " + error);
    }
    if (!options.sacctFields.empty()) {
        splitChar(options.sacctFields, ',', fields);
        layout = sacctLayoutFromNames(fields, "--sacct-fields", error);
        if (!layout)
            return makeError(ErrorCode::Invalid, "--sacct-fields: " + error);
    }
    return {};
}

Status SlurmImporter::State::detectLayout(const std::vector<std::string_view>& fields, char delimiter,
    std::optional<SacctLayout>& layout, const std::string& file, int64_t lineNo, std::string& error, bool& header)
{
    header = looksLikeSacctHeader(fields);
    if (header) {
        layout = sacctLayoutFromNames(fields, "header", error);
        if (!layout)
            return Error { ErrorCode::Format, error, file, lineNo, -1 };
        return {};
    }
    if (!layout) {
        layout = knownHeaderlessSacctLayout(fields);
        if (!layout)
            return Error { ErrorCode::Format,
                "sacct output without a header line, in no known layout (" + std::to_string(fields.size())
                    + " fields; known: " + knownSacctLayoutsText()
                    + "; the fields were split at '" + delimiterText(delimiter) + "': output of sacct --delimiter needs --sacct-delimiter); give the field names in order with --sacct-fields, "
                      "as for sacct --format",
                file, lineNo, -1 };
    }
    if (std::find(layouts.begin(), layouts.end(), layout->source) == layouts.end())
        layouts.push_back(layout->source);
    return {};
}

bool SlurmImporter::State::identify(SacctRow& r, const SacctLayout& L, std::string_view jobIdText, int64_t lineNo, Job& job, bool& idFromText)
{
    ++ordinal;
    int64_t id = -1;
    idFromText = false;
    lastRaw = -1;
    if (int64_t v = 0; parseInt64(r.text(L.jobIdRaw), v) == ParseStatus::Ok && v >= 0)
        id = v, lastRaw = v;
    else if (parseInt64(jobIdText, v) == ParseStatus::Ok && v >= 0)
        id = v;
    else
        id = ordinal, idFromText = !jobIdText.empty();
    if (!jobIdText.empty()) {
        auto [it, fresh] = seenJobIds.emplace(std::string(jobIdText), lineNo);
        if (!fresh) {
            r.row.fail("duplicate-id", "JobID", "duplicate job " + quoted(jobIdText) + " (first at line "
                    + std::to_string(it->second) + "); row skipped");
            return false;
        }
    }
    // An array's own id stays with one of its records (the pending range, later the task that
    // took it): rows sharing a JobIDRaw under different JobIDs are each their own job.
    if (lastRaw >= 0) {
        auto [it, fresh] = rawText.emplace(lastRaw, std::string(jobIdText));
        sharedRaw += !fresh && it->second != jobIdText;
    }
    job.id = JobId { id };
    return true;
}

void SlurmImporter::State::describe(SacctRow& r, const SacctLayout& L, const SacctValues& v, const std::string& state,
    bool idFromText, std::string_view jobIdText, Trace& trace, Job& job)
{
    job.submitTimeS = v.submit;
    if (v.eligible > v.submit) {
        job.submitTimeS = v.eligible; // held or dependent: the scheduler could not start it earlier
        ++eligibleLater;
    }
    job.requestedTimeS = r.duration(L.timelimit, "Timelimit");
    if (job.requestedTimeS < 0 && L.timelimitRaw >= 0) {
        int64_t minutes = 0;
        if (parseInt64(r.text(L.timelimitRaw), minutes) == ParseStatus::Ok && minutes > 0)
            job.requestedTimeS = double(minutes) * 60;
    }
    job.status = statusOf(state);
    job.priority = int32_t(std::clamp<int64_t>(v.priority, 0, INT32_MAX));
    if (!r.text(L.qos).empty())
        job.qos = int16_t(trace.internQos(sanitizeUtf8(r.text(L.qos))));
    if (!r.text(L.user).empty()) {
        auto [it, fresh] = userIndex.emplace(sanitizeUtf8(r.text(L.user)), int32_t(trace.users.size()));
        if (fresh)
            trace.users.push_back(it->first);
        job.user = it->second;
    } else if (int64_t uid = 0; parseInt64(r.text(L.uid), uid) == ParseStatus::Ok && uid >= 0 && uid < INT32_MAX) {
        job.user = int32_t(uid);
    }
    if (int64_t gid = 0; parseInt64(r.text(L.gid), gid) == ParseStatus::Ok && gid >= 0 && gid < INT32_MAX)
        job.group = int32_t(gid);
    // Array tasks (123_4) and het job parts (123+0) without a JobName are named by their JobID.
    const bool compoundId = jobIdText.find_first_of("_+") != std::string_view::npos;
    const std::string_view name = !r.text(L.jobName).empty() ? r.text(L.jobName) : idFromText || compoundId ? jobIdText : std::string_view();
    if (!name.empty())
        trace.setJobName(job, sanitizeUtf8(name.substr(0, 256)));
}

void SlurmImporter::State::runTimes(SacctRow& r, const SacctLayout& L, const std::string& state, SacctValues& v, Job& job)
{
    // Run time: End - Start; without either (an anonymised export): CPUTimeRAW / CPUs, capped at
    // the time limit (a larger allocation than the request, e.g. whole nodes, inflates it), and
    // the wait ResvCPURAW / CPUs. Estimates are counted and named in the summary.
    double& start = v.start;
    double& end = v.end;
    const double elapsed = r.duration(L.elapsed, "Elapsed");
    if (start >= 0 && end >= 0) {
        job.runTimeS = end - start;
        if (job.runTimeS < 0) {
            r.row.warn("end-before-start", "End", "ends before it starts; run time unknown");
            job.runTimeS = -1, end = -1;
        }
    } else if (start >= 0 && elapsed >= 0 && state != "RUNNING" && state != "SUSPENDED") {
        job.runTimeS = elapsed, end = start + elapsed;
    } else if (L.start < 0 && L.end < 0 && L.cpuTimeRaw >= 0) {
        double cpuSeconds = 0;
        if (parseDouble(r.text(L.cpuTimeRaw), cpuSeconds) == ParseStatus::Ok && cpuSeconds >= 0) {
            job.runTimeS = cpuSeconds / double(std::max<int64_t>(v.cpus, 1));
            ++estimatedRun;
            if (job.requestedTimeS > 0 && job.runTimeS > job.requestedTimeS)
                job.runTimeS = job.requestedTimeS, ++cappedRun;
            double resv = 0;
            if (parseDouble(r.text(L.resvCpuRaw), resv) == ParseStatus::Ok && resv >= 0) {
                start = job.submitTimeS + resv / double(std::max<int64_t>(v.cpus, 1));
                end = start + job.runTimeS;
                ++estimatedWait;
            }
        }
    } else if (L.start < 0 && elapsed >= 0) {
        job.runTimeS = elapsed;
    }
    // A node-list column that names no node: the job never got an allocation (cancelled while
    // pending; sacct then prints Start = End = the cancel time). It is kept, not replayed.
    if (L.nodeList >= 0 && v.hosts->empty() && start >= 0) {
        start = end = -1;
        job.runTimeS = -1;
        ++neverStarted;
    }
    if (start >= 0 && start < job.submitTimeS) {
        ++startBeforeSubmit;
        char gap[32];
        std::snprintf(gap, sizeof gap, "%.0f s", job.submitTimeS - start);
        r.row.warn("start-before-submit", "Start",
            std::string("starts ") + gap + " before it was submitted (clock skew or a requeue?): kept as logged; a replay of the log starts it at its submit");
    }
}

bool SlurmImporter::State::addTasks(SacctRow& r, const SacctLayout& L, const SacctValues& v, Trace& trace, Job& job)
{
    // Tasks: one per allocated node (the node list when it names them), the job's CPUs, memory
    // and GPUs spread over them (rounded up).
    const std::vector<std::string>& hosts = *v.hosts;
    anyNodeList |= L.nodeList >= 0;
    int64_t tasks = hosts.empty() ? std::max<int64_t>(v.nodesCount, 1) : int64_t(hosts.size());
    if (!hosts.empty() && v.nodesCount > 0 && v.nodesCount != tasks)
        ++hostCountDiffers;
    if (tasks > int64_t(kMaxHosts)) {
        r.row.fail("out-of-range", "NNodes", std::to_string(tasks) + " nodes; at most " + std::to_string(kMaxHosts) + "; row skipped");
        return false;
    }
    const int64_t jobCpus = std::max<int64_t>(v.cpus, 1);
    double memTotal = 0;
    if (v.alloc.memMiB >= 0)
        memTotal = v.alloc.memMiB;
    else if (v.reqMem)
        memTotal = v.reqMem->perCpu ? v.reqMem->mib * double(jobCpus) : v.reqMem->mib * double(std::max<int64_t>(v.nodesCount, 1));
    else if (v.req.memMiB >= 0)
        memTotal = v.req.memMiB;
    if (v.reqMem && v.reqMem->flagInNumber)
        ++perCpuFlag;
    const SlurmTres& gpuSource = v.alloc.gpus >= 0 ? v.alloc : v.req;
    const int64_t gpus = std::max<int64_t>(gpuSource.gpus, 0);
    uint32_t mask = 0;
    if (gpus > 0 && !gpuSource.gpuModel.empty())
        if (const int mi = trace.internGpuModel(sanitizeUtf8(gpuSource.gpuModel)); mi >= 0)
            mask = 1u << mi;

    job.gang = true;
    job.firstTask = uint32_t(trace.tasks.size());
    job.taskCount = uint32_t(tasks);
    for (int64_t k = 0; k < tasks; ++k) {
        Task task;
        task.request.cpuMilli = (jobCpus + tasks - 1) / tasks * 1000;
        task.request.memMiB = int64_t(std::llround(memTotal / double(tasks)));
        task.request.numGpu = int32_t((gpus + tasks - 1) / tasks);
        task.request.gpuMilli = task.request.numGpu > 0 ? 1000 : 0;
        task.request.gpuModelMask = task.request.numGpu > 0 ? mask : 0;
        task.logged.startTimeS = v.start;
        task.logged.endTimeS = v.start >= 0 ? v.end : -1;
        if (!hosts.empty()) {
            const std::string& h = hosts[std::size_t(k)];
            auto [it, fresh] = nodeIndex.emplace(h, int32_t(trace.nodes.size()));
            if (fresh) {
                Node n;
                n.name = sanitizeUtf8(h);
                trace.nodes.push_back(std::move(n));
            }
            task.logged.node = NodeId { it->second };
        }
        trace.tasks.push_back(task);
    }
    return true;
}

SlurmImporter::SlurmImporter()
    : m(std::make_unique<State>())
{
}
SlurmImporter::~SlurmImporter() = default;

Status SlurmImporter::add(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    m->files.push_back(file);
    // The parsers' messages: one text for the whole file.
    std::string error;
    std::optional<SacctLayout> layout;
    std::vector<std::string_view> fields;
    if (Status s = m->setUp(ctx.options, layout, fields, error); !s)
        return s;
    std::string_view line;
    const std::size_t base = trace.jobs.size();
    char delimiter = ctx.options.sacctDelimiter; // else from the first line: '|' unless a header says otherwise
    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        if (delimiter == 0) {
            delimiter = sacctHeaderDelimiter(line);
            if (delimiter == 0)
                delimiter = '|';
            else if (delimiter != '|')
                ctx.diagnostics.note("sacct --delimiter '" + delimiterText(delimiter) + "' (from the header)");
        }
        splitChar(line, delimiter, fields);
        // `sacct --parsable` (not parsable2) ends every line with a '|'.
        if (fields.size() > 1 && trimmed(fields.back()).empty() && (!layout || fields.size() == layout->fieldCount + 1))
            fields.pop_back();
        bool header = false;
        if (Status s = m->detectLayout(fields, delimiter, layout, file, reader.lineNumber(), error, header); !s)
            return s;
        if (header)
            continue;
        const SacctLayout& L = *layout;
        RowReader row(ctx, file, reader.lineNumber(), fields);
        if (fields.size() != L.fieldCount) {
            row.fail("field-count", "", "expected " + std::to_string(L.fieldCount) + " fields (" + L.source + "), found "
                    + std::to_string(fields.size()) + "; row skipped");
            continue;
        }
        SacctRow r { fields, row, error };
        const std::string_view jobIdText = r.text(L.jobId);
        if (const auto dot = jobIdText.find('.'); dot != std::string_view::npos) {
            m->steps.push_back({ std::string(jobIdText.substr(0, dot)), file, reader.lineNumber() });
            continue;
        }
        ++m->rows;
        if (m->rows == 256) {
            const std::size_t n = estimateRows(reader.fileSize(), reader.bytesRead(), reader.lineNumber(), reader.isGzip());
            trace.jobs.reserve(base + n);
            trace.tasks.reserve(trace.tasks.size() + n);
        }
        SacctValues v;
        if (!readValues(r, L, *m->zone, v))
            continue;
        // An array's pending remainder (123_[4-9], 123_[4-9%2]): tasks not started yet, whatever
        // times the row shows. Kept as one arrival without a run, never as a running job.
        const bool pendingRange = jobIdText.find("_[") != std::string_view::npos;
        if (pendingRange) {
            v.start = v.end = -1;
            v.hosts = std::vector<std::string> {};
        }
        Job job;
        bool idFromText = false;
        if (!m->identify(r, L, jobIdText, reader.lineNumber(), job, idFromText))
            continue;
        const std::string state = stateOf(r, L);
        ++m->states[state];
        if (!r.text(L.cluster).empty())
            ++m->clusters[std::string(r.text(L.cluster))];
        m->describe(r, L, v, state, idFromText, jobIdText, trace, job);
        m->runTimes(r, L, state, v, job);
        if (pendingRange)
            job.runTimeS = -1, ++m->pendingRanges;
        if (!m->addTasks(r, L, v, trace, job))
            continue;
        m->allocationOf.resize(trace.jobs.size(), -1);
        m->allocationOf.push_back(m->lastRaw);
        trace.jobs.push_back(std::move(job));
        if (auto e = ctx.tooManyTasks(reader, trace.tasks.size()))
            return *e;
    }
    if (reader.error())
        return *reader.error();
    return {};
}

Status SlurmImporter::finish(Trace& trace, ImportContext& ctx)
{
    int64_t folded = 0;
    for (const State::Step& s : m->steps) {
        if (m->seenJobIds.count(s.parent))
            ++folded;
        else
            ctx.diagnostics.warn("step-without-job", s.file, s.line, "JobID",
                "step of job " + quoted(s.parent) + ", which has no allocation row; ignored");
    }
    if (trace.jobs.empty())
        return nothingImported("sacct output has no job rows", "sacct output has no usable job", "row", m->files, ctx.diagnostics);
    rebaseToEarliestSubmit(trace);
    if (trace.nodes.empty())
        addInferredPool(trace, "slurm", m->allocationOf);
    else
        inferNodeCapacities(trace, "slurm", m->allocationOf);

    auto joinCounts = [](const std::map<std::string, int64_t>& counts) {
        std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
        std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::string out;
        for (const auto& [k, n] : v)
            out += (out.empty() ? "" : ", ") + k + " " + std::to_string(n);
        return out;
    };
    std::string layouts;
    for (const std::string& l : m->layouts)
        layouts += (layouts.empty() ? "" : ", ") + l;
    trace.metadata["slurm.layout"] = layouts;
    trace.metadata["slurm.timezone"] = m->zone->name();
    trace.metadata["slurm.jobRows"] = std::to_string(m->rows);
    trace.metadata["slurm.stepsFolded"] = std::to_string(folded);
    trace.metadata["slurm.states"] = joinCounts(m->states);
    if (!m->clusters.empty())
        trace.metadata["slurm.clusters"] = joinCounts(m->clusters);
    if (m->estimatedRun > 0)
        trace.metadata["slurm.estimated"] = "no Start/End: run time = CPUTimeRAW / CPUs for " + std::to_string(m->estimatedRun)
            + " jobs (" + std::to_string(m->cappedRun) + " capped at their time limit), wait = ResvCPURAW / CPUs for "
            + std::to_string(m->estimatedWait);
    auto note = [&](const char* category, int64_t n) {
        if (n > 0)
            ctx.diagnostics.note(category, n);
    };
    note("slurm-steps-folded", folded);
    note("eligible-after-submit", m->eligibleLater);
    note("run-time-estimated", m->estimatedRun);
    note("run-time-capped-at-limit", m->cappedRun);
    note("wait-estimated", m->estimatedWait);
    note("reqmem-per-cpu-flag", m->perCpuFlag);
    note("nodelist-count-differs", m->hostCountDiffers);
    note("never-started", m->neverStarted);
    note("slurm-array-pending-range (123_[4-9]: tasks not started; one arrival without a run)", m->pendingRanges);
    note("slurm-jobidraw-shared (array rows under different JobIDs: each its own job; node sizes count one allocation once)",
        m->sharedRaw);
    return {};
}

} // namespace schedlab::trace
