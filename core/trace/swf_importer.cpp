#include "swf_importer.h"

#include "duplicate_guard.h"
#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "trace.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <fstream>
#include <cmath>

namespace schedlab::trace {

namespace {

constexpr int kSwfFields = 18;
/// Largest processor count of one job or cluster (16.7M): beyond it the input is hostile or broken.
constexpr int64_t kMaxProcs = int64_t(1) << 24;
/// Largest gang (tasks of one job) with --procs-per-node; bounds memory on hostile input.
constexpr int64_t kMaxGangTasks = int64_t(1) << 16;
const char* const kFieldNames[kSwfFields] = { "job_number", "submit_time", "wait_time", "run_time", "allocated_procs",
    "avg_cpu_time", "used_memory", "requested_procs", "requested_time", "requested_memory", "status", "user_id",
    "group_id", "executable", "queue", "partition", "preceding_job", "think_time" };

// Parses "; Key: value" into key/value; false for other comment lines.
bool parseHeaderComment(std::string_view line, std::string& key, std::string& value)
{
    std::string_view rest = trimmed(line.substr(1));
    auto colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    std::string_view k = trimmed(rest.substr(0, colon));
    if (k.find(' ') != std::string_view::npos || rest.substr(colon).starts_with("://"))
        return false; // prose or a URL continuation line, not a "Key: value" header
    key = std::string(k);
    value = sanitizeUtf8(trimmed(rest.substr(colon + 1)));
    return true;
}

/// Cluster size from the header comments (-1 = not given).
struct SwfHeader {
    int64_t maxProcs = -1, maxNodes = -1;
};

/// A "; Key: value" header comment: into the metadata (repeated keys, like Note: and Queue:,
/// joined one per line); MaxProcs and MaxNodes also into `header`.
void readHeaderComment(const std::string& key, const std::string& value, int64_t lineNo, Trace& trace, ImportContext& ctx,
    const std::string& file, SwfHeader& header)
{
    if (key == "MaxProcs" || key == "MaxNodes") {
        int64_t v = 0;
        if (parseInt64(value, v) == ParseStatus::Ok && v > 0 && v <= kMaxProcs)
            (key == "MaxProcs" ? header.maxProcs : header.maxNodes) = v;
        else
            ctx.diagnostics.warn("bad-header", file, lineNo, key, quoted(value) + " is not a positive processor count; ignored");
    }
    std::string& slot = trace.metadata["swf." + key];
    if (!slot.empty())
        slot += '\n';
    slot += value;
}

/// The row's processors (requested, else allocated), or -1 when the row fails: run time, processor
/// count, submit time, job number and gang size are checked.
int64_t validProcs(RowReader& row, const double (&v)[kSwfFields], bool pool, int64_t k)
{
    const double runTime = v[3];
    if (runTime <= 0) {
        row.fail("run-time-not-positive", "run_time",
            "run time " + formatDouble(runTime) + " <= 0; job skipped (as docs/model.md §2.1 says)");
        return -1;
    }
    const double procsD = v[7] > 0 ? v[7] : v[4];
    if (!(procsD >= 1) || procsD > double(kMaxProcs)) {
        row.fail("no-processors", "requested_procs",
            "neither requested (" + formatDouble(v[7]) + ") nor allocated (" + formatDouble(v[4])
                + ") processors is a valid count (1.." + std::to_string(kMaxProcs) + "); job skipped");
        return -1;
    }
    if (v[1] < 0) {
        row.fail("out-of-range", "submit_time", "submit time " + formatDouble(v[1]) + " is negative; job skipped");
        return -1;
    }
    // Found by fuzz_swf under UBSan: a job number of 4.8e67 was cast to int64 (undefined).
    if (!(std::fabs(v[0]) <= 9.0e15)) {
        row.fail("out-of-range", "job_number", "job number " + formatDouble(v[0]) + " is out of range; job skipped");
        return -1;
    }
    const int64_t procs = int64_t(std::ceil(procsD));
    if (!pool && (procs + k - 1) / k > kMaxGangTasks) {
        row.fail("out-of-range", "requested_procs",
            std::to_string(procs) + " processors in nodes of " + std::to_string(k) + " is a gang of more than "
                + std::to_string(kMaxGangTasks) + " tasks; job skipped");
        return -1;
    }
    return procs;
}

/// Times, status, user and group of a valid row; a missing requested time is the run time
/// (counted in `fallbacks`).
void describeJob(const double (&v)[kSwfFields], Job& job, int64_t& fallbacks)
{
    const double runTime = v[3];
    job.submitTimeS = v[1];
    job.runTimeS = runTime;
    if (v[8] > 0) {
        job.requestedTimeS = v[8];
    } else {
        job.requestedTimeS = runTime;
        ++fallbacks;
    }
    job.status = int16_t(std::clamp(v[10], -1.0, 32000.0));
    job.user = int32_t(std::clamp(v[11], -1.0, 2e9));
    job.group = int32_t(std::clamp(v[12], -1.0, 2e9));
    job.priority = 0;
    job.gang = true;
}

/// The job's tasks: one on the pool, or one per node of `k` processors.
void addTasks(Job& job, int64_t procs, bool pool, int64_t k, double waitS, int32_t poolIndex, Trace& trace)
{
    job.firstTask = uint32_t(trace.tasks.size());
    const int64_t taskCount = pool ? 1 : (procs + k - 1) / k;
    for (int64_t i = 0; i < taskCount; ++i) {
        Task task;
        task.request.cpuMilli = (pool ? procs : std::min(k, procs - i * k)) * 1000;
        if (waitS >= 0) {
            task.logged.startTimeS = job.submitTimeS + waitS;
            task.logged.endTimeS = task.logged.startTimeS + job.runTimeS;
            if (pool)
                task.logged.node = NodeId { poolIndex };
        }
        trace.tasks.push_back(task);
    }
    job.taskCount = uint32_t(taskCount);
}

/// The cluster: one pool of `clusterProcs`, or nodes of `k` processors.
Status addCluster(int64_t clusterProcs, bool pool, int64_t k, const std::string& file, Trace& trace)
{
    if (pool) {
        Node n;
        n.name = "pool";
        n.cpuMilli = clusterProcs * 1000;
        trace.nodes.push_back(std::move(n));
        return {};
    }
    const int64_t count = (clusterProcs + k - 1) / k;
    if (count > 10'000'000)
        return makeError(ErrorCode::Range, "--procs-per-node " + std::to_string(k) + " gives "
                + std::to_string(count) + " nodes; too many", file);
    for (int64_t i = 0; i < count; ++i) {
        Node n;
        n.name = "node" + std::to_string(i);
        n.cpuMilli = std::min(k, clusterProcs - i * k) * 1000;
        trace.nodes.push_back(std::move(n));
    }
    trace.metadata["swf.procsPerNode"] = std::to_string(k);
    return {};
}

} // namespace

Status importSwf(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    const int64_t k = ctx.options.procsPerNode;
    if (k < 0)
        return makeError(ErrorCode::Invalid, "--procs-per-node must be positive");
    const bool pool = k == 0;
    const int32_t poolIndex = int32_t(trace.nodes.size()); // the pool node is added after the jobs
    const std::size_t base = trace.jobs.size();
    DuplicateGuard<int64_t> seenIds([&](std::size_t i) { return trace.jobs[base + i].id.value; });
    std::vector<std::string_view> fields;
    std::string_view line;
    SwfHeader header;
    int64_t largestRequest = 0;
    int64_t records = 0, fallbacks = 0;
    int64_t extraRows = 0;
    std::pair<int64_t, int64_t> firstExtra; // line, field count
    std::string key, value;

    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        if (t[0] == ';') {
            if (parseHeaderComment(t, key, value))
                readHeaderComment(key, value, reader.lineNumber(), trace, ctx, file, header);
            continue;
        }
        ++records;
        if (records == 256) {
            const std::size_t n = estimateRows(reader.fileSize(), reader.bytesRead(), reader.lineNumber(), reader.isGzip());
            trace.jobs.reserve(base + n);
            trace.tasks.reserve(trace.tasks.size() + n);
            seenIds.reserve(n);
        }
        splitWhitespace(t, fields);
        RowReader row(ctx, file, reader.lineNumber(), fields);
        if (fields.size() < std::size_t(kSwfFields)) {
            row.fail("field-count", "", "expected 18 fields, found " + std::to_string(fields.size()));
            continue;
        }
        if (fields.size() > std::size_t(kSwfFields) && extraRows++ == 0) // extended SWF: said once, below
            firstExtra = { reader.lineNumber(), int64_t(fields.size()) };
        // Every SWF field may be a decimal; -1 means unknown.
        double v[kSwfFields];
        for (int i = 0; i < kSwfFields; ++i)
            v[i] = row.real(i, kFieldNames[i], true, -1, -1e300);
        if (!row.ok())
            continue;
        const int64_t procs = validProcs(row, v, pool, k);
        if (procs < 0)
            continue;
        const double waitS = v[2];
        Job job;
        job.id = JobId { int64_t(v[0]) };
        if (const int64_t first = seenIds.add(job.id.value, reader.lineNumber()); first >= 0) {
            row.fail("duplicate-id", "job_number",
                "duplicate job number " + std::to_string(job.id.value) + " (first at line " + std::to_string(first)
                    + "); row skipped");
            continue;
        }
        describeJob(v, job, fallbacks);
        largestRequest = std::max(largestRequest, procs);
        // The header comes before the jobs, so the cluster size is known here when it is given.
        const int64_t headerProcs = header.maxProcs > 0 ? header.maxProcs : header.maxNodes;
        if (headerProcs > 0 && procs > headerProcs)
            row.warn("never-fits", "requested_procs",
                "job " + std::to_string(job.id.value) + " asks for " + std::to_string(procs)
                    + " processors, the cluster has " + std::to_string(headerProcs) + "; it can never run");
        addTasks(job, procs, pool, k, waitS, poolIndex, trace);
        trace.jobs.push_back(std::move(job));
        if (auto e = ctx.tooManyTasks(reader, trace.tasks.size()))
            return *e;
    }
    if (reader.error())
        return *reader.error();
    if (records == 0)
        return Error { ErrorCode::Empty, "SWF log has no job lines", file, -1, -1 };

    const int64_t clusterProcs = header.maxProcs > 0 ? header.maxProcs
        : header.maxNodes > 0                        ? header.maxNodes
                                                     : largestRequest;
    trace.metadata["swf.clusterProcs"] = std::to_string(clusterProcs);
    trace.metadata["swf.records"] = std::to_string(records);
    trace.metadata["swf.requestedTimeFallbacks"] = std::to_string(fallbacks);
    if (fallbacks > 0)
        ctx.diagnostics.note("requested-time-fallback", fallbacks);
    if (extraRows > 0)
        ctx.diagnostics.note("swf rows with more than 18 fields, e.g. line " + std::to_string(firstExtra.first) + " with "
                + std::to_string(firstExtra.second) + " (an extended SWF such as Alea's 21-field logs): fields after the 18th ignored",
            extraRows);
    return addCluster(clusterProcs, pool, k, file, trace);
}

int suggestedProcsPerNode(const std::string& swfPath, const Trace& trace)
{
    std::ifstream machines(swfPath + ".machines");
    std::string line;
    while (std::getline(machines, line)) {
        std::istringstream in(line);
        std::string id, name;
        long long nodes = 0, procs = 0;
        if (line.empty() || line[0] == ';' || !(in >> id >> name >> nodes >> procs))
            continue;
        if (nodes > 0 && procs > 0 && procs <= 1'000'000)
            return int(procs);
    }
    auto meta = [&](const char* key) -> long long {
        auto it = trace.metadata.find(key);
        return it == trace.metadata.end() ? 0 : std::atoll(it->second.c_str());
    };
    const long long maxProcs = meta("swf.MaxProcs"), maxNodes = meta("swf.MaxNodes");
    if (maxNodes > 1 && maxProcs >= maxNodes && maxProcs % maxNodes == 0)
        return int(maxProcs / maxNodes);
    return 0;
}

std::string swfClusterModel(const Trace& trace)
{
    int64_t procs = 0;
    for (const Node& n : trace.nodes)
        procs += n.cpuMilli / 1000;
    auto k = trace.metadata.find("swf.procsPerNode");
    if (k == trace.metadata.end())
        return "one pool of " + std::to_string(procs) + " processors";
    return std::to_string(trace.nodes.size()) + " nodes of " + k->second + " processors";
}

} // namespace schedlab::trace
