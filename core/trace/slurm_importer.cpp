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
    int64_t perCpuFlag = 0, hostCountDiffers = 0, startBeforeSubmit = 0, neverStarted = 0;
    bool anyNodeList = false;
};

SlurmImporter::SlurmImporter()
    : m(std::make_unique<State>())
{
}
SlurmImporter::~SlurmImporter() = default;

Status SlurmImporter::add(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    m->files.push_back(file);
    std::string error;
    if (!m->zone) {
        m->zone = LocalTimeZone::make(ctx.options.timezone, error);
        if (!m->zone)
            return makeError(ErrorCode::Invalid, "--timezone: " + error);
    }
    std::optional<SacctLayout> layout;
    std::vector<std::string_view> fields;
    if (!ctx.options.sacctFields.empty()) {
        splitChar(ctx.options.sacctFields, ',', fields);
        layout = sacctLayoutFromNames(fields, "--sacct-fields", error);
        if (!layout)
            return makeError(ErrorCode::Invalid, "--sacct-fields: " + error);
    }
    std::string_view line;
    const std::size_t base = trace.jobs.size();
    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        splitChar(line, '|', fields);
        // `sacct --parsable` (not parsable2) ends every line with a '|'.
        if (fields.size() > 1 && trimmed(fields.back()).empty() && (!layout || fields.size() == layout->fieldCount + 1))
            fields.pop_back();
        if (looksLikeSacctHeader(fields)) {
            layout = sacctLayoutFromNames(fields, "header", error);
            if (!layout)
                return Error { ErrorCode::Format, error, file, reader.lineNumber(), -1 };
            continue;
        }
        if (!layout) {
            layout = knownHeaderlessSacctLayout(fields);
            if (!layout)
                return Error { ErrorCode::Format,
                    "sacct output without a header line, in no known layout (" + std::to_string(fields.size())
                        + " fields; known: " + knownSacctLayoutsText()
                        + "); give the field names in order with --sacct-fields, as for sacct --format",
                    file, reader.lineNumber(), -1 };
        }
        if (std::find(m->layouts.begin(), m->layouts.end(), layout->source) == m->layouts.end())
            m->layouts.push_back(layout->source);
        const SacctLayout& L = *layout;
        RowReader row(ctx, file, reader.lineNumber(), fields);
        if (fields.size() != L.fieldCount) {
            row.fail("field-count", "", "expected " + std::to_string(L.fieldCount) + " fields (" + L.source + "), found "
                    + std::to_string(fields.size()) + "; row skipped");
            continue;
        }
        auto text = [&](int col) { return col >= 0 ? trimmed(fields[std::size_t(col)]) : std::string_view(); };
        const std::string_view jobIdText = text(L.jobId);
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
        auto time = [&](int col, const char* name) -> double {
            const std::string_view t = text(col);
            if (col < 0 || isSlurmNoTime(t))
                return -1;
            auto civil = parseSlurmDateTime(t, error);
            if (!civil) {
                row.fail("bad-time", name, error + "; row skipped");
                return -1;
            }
            return double(m->zone->toUnix(*civil));
        };
        auto count = [&](int col, const char* name) -> int64_t {
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
        };
        auto tres = [&](int col, const char* name) -> SlurmTres {
            if (text(col).empty())
                return {};
            auto r = parseSlurmTres(text(col), error);
            if (!r) {
                row.fail("bad-tres", name, error + "; row skipped");
                return {};
            }
            return *r;
        };
        auto duration = [&](int col, const char* name) -> double {
            if (text(col).empty())
                return -1;
            auto d = parseSlurmDuration(text(col), error);
            if (!d && !error.empty()) {
                row.warn("bad-duration", name, error + "; taken as unknown");
                error.clear();
            }
            return d ? *d : -1;
        };

        const double submit = time(L.submit, "Submit");
        const double eligible = time(L.eligible, "Eligible");
        double start = time(L.start, "Start");
        double end = time(L.end, "End");
        const SlurmTres alloc = tres(L.allocTres, "AllocTRES"), req = tres(L.reqTres, "ReqTRES");
        auto firstPositive = [](std::initializer_list<int64_t> vs) {
            for (int64_t v : vs)
                if (v > 0)
                    return v;
            return int64_t(-1);
        };
        const int64_t nodesCount = firstPositive({ count(L.nnodes, "NNodes"), count(L.allocNodes, "AllocNodes"), alloc.nodes,
            count(L.reqNodes, "ReqNodes"), req.nodes });
        const int64_t cpus = firstPositive({ count(L.ncpus, "NCPUS"), count(L.allocCpus, "AllocCPUS"), alloc.cpu,
            count(L.reqCpus, "ReqCPUS"), req.cpu });
        const int64_t priority = count(L.priority, "Priority");
        std::optional<SlurmMemory> reqMem;
        if (!text(L.reqMem).empty() && !(reqMem = parseSlurmMemory(text(L.reqMem), error)))
            row.fail("bad-memory", "ReqMem", error + "; row skipped");
        if (submit < 0 && row.ok())
            row.fail("no-submit", "Submit", "no submit time; row skipped");
        std::optional<std::vector<std::string>> hosts;
        if (row.ok() && !(hosts = expandHostlist(text(L.nodeList), kMaxHosts, error)))
            row.fail("bad-nodelist", "NodeList", error + "; row skipped");
        if (!row.ok())
            continue;

        // Ids: JobIDRaw, else a numeric JobID; arrays (123_4), het jobs (123+0) and exports without
        // ids get the row's ordinal (the JobID text is then the job's name).
        ++m->ordinal;
        int64_t id = -1;
        bool idFromText = false;
        if (int64_t v = 0; parseInt64(text(L.jobIdRaw), v) == ParseStatus::Ok && v >= 0)
            id = v;
        else if (parseInt64(jobIdText, v) == ParseStatus::Ok && v >= 0)
            id = v;
        else
            id = m->ordinal, idFromText = !jobIdText.empty();
        if (!jobIdText.empty()) {
            auto [it, fresh] = m->seenJobIds.emplace(std::string(jobIdText), reader.lineNumber());
            if (!fresh) {
                row.fail("duplicate-id", "JobID", "duplicate job " + quoted(jobIdText) + " (first at line "
                        + std::to_string(it->second) + "); row skipped");
                continue;
            }
        }
        std::string state(text(L.state).substr(0, text(L.state).find(' '))); // "CANCELLED by 123"
        for (char& c : state)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        if (state.empty())
            state = "UNKNOWN";
        ++m->states[state];
        if (!text(L.cluster).empty())
            ++m->clusters[std::string(text(L.cluster))];

        Job job;
        job.id = JobId { id };
        job.submitTimeS = submit;
        if (eligible > submit) {
            job.submitTimeS = eligible; // held or dependent: the scheduler could not start it earlier
            ++m->eligibleLater;
        }
        job.requestedTimeS = duration(L.timelimit, "Timelimit");
        if (job.requestedTimeS < 0 && L.timelimitRaw >= 0) {
            int64_t minutes = 0;
            if (parseInt64(text(L.timelimitRaw), minutes) == ParseStatus::Ok && minutes > 0)
                job.requestedTimeS = double(minutes) * 60;
        }
        job.status = statusOf(state);
        job.priority = int32_t(std::clamp<int64_t>(priority, 0, INT32_MAX));
        if (!text(L.qos).empty())
            job.qos = int16_t(trace.internQos(sanitizeUtf8(text(L.qos))));
        if (!text(L.user).empty()) {
            auto [it, fresh] = m->userIndex.emplace(sanitizeUtf8(text(L.user)), int32_t(trace.users.size()));
            if (fresh)
                trace.users.push_back(it->first);
            job.user = it->second;
        } else if (int64_t uid = 0; parseInt64(text(L.uid), uid) == ParseStatus::Ok && uid >= 0 && uid < INT32_MAX) {
            job.user = int32_t(uid);
        }
        if (int64_t gid = 0; parseInt64(text(L.gid), gid) == ParseStatus::Ok && gid >= 0 && gid < INT32_MAX)
            job.group = int32_t(gid);
        const std::string_view name = !text(L.jobName).empty() ? text(L.jobName) : idFromText ? jobIdText : std::string_view();
        if (!name.empty())
            trace.setJobName(job, sanitizeUtf8(name.substr(0, 256)));

        // Run time: End - Start; without either (an anonymised export): CPUTimeRAW / CPUs, capped at
        // the time limit (a larger allocation than the request, e.g. whole nodes, inflates it), and
        // the wait ResvCPURAW / CPUs. Estimates are counted and named in the summary.
        const double elapsed = duration(L.elapsed, "Elapsed");
        if (start >= 0 && end >= 0) {
            job.runTimeS = end - start;
            if (job.runTimeS < 0) {
                row.warn("end-before-start", "End", "ends before it starts; run time unknown");
                job.runTimeS = -1, end = -1;
            }
        } else if (start >= 0 && elapsed >= 0 && state != "RUNNING" && state != "SUSPENDED") {
            job.runTimeS = elapsed, end = start + elapsed;
        } else if (L.start < 0 && L.end < 0 && L.cpuTimeRaw >= 0) {
            double cpuSeconds = 0;
            if (parseDouble(text(L.cpuTimeRaw), cpuSeconds) == ParseStatus::Ok && cpuSeconds >= 0) {
                job.runTimeS = cpuSeconds / double(std::max<int64_t>(cpus, 1));
                ++m->estimatedRun;
                if (job.requestedTimeS > 0 && job.runTimeS > job.requestedTimeS)
                    job.runTimeS = job.requestedTimeS, ++m->cappedRun;
                double resv = 0;
                if (parseDouble(text(L.resvCpuRaw), resv) == ParseStatus::Ok && resv >= 0) {
                    start = job.submitTimeS + resv / double(std::max<int64_t>(cpus, 1));
                    end = start + job.runTimeS;
                    ++m->estimatedWait;
                }
            }
        } else if (L.start < 0 && elapsed >= 0) {
            job.runTimeS = elapsed;
        }
        // A node-list column that names no node: the job never got an allocation (cancelled while
        // pending; sacct then prints Start = End = the cancel time). It is kept, not replayed.
        if (L.nodeList >= 0 && hosts->empty() && start >= 0) {
            start = end = -1;
            job.runTimeS = -1;
            ++m->neverStarted;
        }
        if (start >= 0 && start < job.submitTimeS)
            ++m->startBeforeSubmit;

        // Tasks: one per allocated node (the node list when it names them), the job's CPUs, memory
        // and GPUs spread over them (rounded up).
        m->anyNodeList |= L.nodeList >= 0;
        int64_t tasks = hosts->empty() ? std::max<int64_t>(nodesCount, 1) : int64_t(hosts->size());
        if (!hosts->empty() && nodesCount > 0 && nodesCount != tasks)
            ++m->hostCountDiffers;
        if (tasks > int64_t(kMaxHosts)) {
            row.fail("out-of-range", "NNodes", std::to_string(tasks) + " nodes; at most " + std::to_string(kMaxHosts) + "; row skipped");
            continue;
        }
        const int64_t jobCpus = std::max<int64_t>(cpus, 1);
        double memTotal = 0;
        if (alloc.memMiB >= 0)
            memTotal = alloc.memMiB;
        else if (reqMem)
            memTotal = reqMem->perCpu ? reqMem->mib * double(jobCpus) : reqMem->mib * double(std::max<int64_t>(nodesCount, 1));
        else if (req.memMiB >= 0)
            memTotal = req.memMiB;
        if (reqMem && reqMem->flagInNumber)
            ++m->perCpuFlag;
        const SlurmTres& gpuSource = alloc.gpus >= 0 ? alloc : req;
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
            task.logged.startTimeS = start;
            task.logged.endTimeS = start >= 0 ? end : -1;
            if (!hosts->empty()) {
                const std::string& h = (*hosts)[std::size_t(k)];
                auto [it, fresh] = m->nodeIndex.emplace(h, int32_t(trace.nodes.size()));
                if (fresh) {
                    Node n;
                    n.name = sanitizeUtf8(h);
                    trace.nodes.push_back(std::move(n));
                }
                task.logged.node = NodeId { it->second };
            }
            trace.tasks.push_back(task);
        }
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
        addInferredPool(trace, "slurm");
    else
        inferNodeCapacities(trace, "slurm");

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
    note("start-before-submit", m->startBeforeSubmit);
    note("never-started", m->neverStarted);
    return {};
}

} // namespace schedlab::trace
