#include "lsf_importer.h"

#include "accounting_log.h"
#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "trace.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace schedlab::trace {

namespace {

// 0-based positions in a JOB_FINISH record up to the asked-hosts list.
enum : std::size_t {
    kEventTime = 2, kJobId = 3, kUserId = 4, kNumProcessors = 6, kSubmitTime = 7, kStartTime = 10, kUserName = 11,
    kQueue = 12, kNumAskedHosts = 22,
};
// After numExHosts + hosts: jStatus, hostFactor, jobName, command (read), then the 19 resource
// usage figures and mailUser, projectName, exitStatus, maxNumProcessors, loginShell, timeEvent,
// idx, maxRMem, maxRSwap: fields every LSF version since 3 writes (10.1 writes ~100 in all).
// A record with fewer was cut mid-way (a log copied while LSF wrote it) and is not a job.
constexpr std::size_t kAfterHostsFields = 4;
constexpr std::size_t kCompleteTailFields = 4 + 19 + 9;
constexpr int64_t kMaxSlots = int64_t(1) << 20;

} // namespace

std::pair<std::string_view, int64_t> hostSlots(std::string_view entry)
{
    std::size_t i = 0;
    int64_t n = 0;
    while (i < entry.size() && entry[i] >= '0' && entry[i] <= '9' && n <= kMaxSlots)
        n = n * 10 + (entry[i++] - '0');
    if (i == 0 || i + 1 >= entry.size() || entry[i] != '*' || n < 1 || n > kMaxSlots)
        return { entry, 1 }; // a plain host name (names may start with digits)
    return { entry.substr(i + 1), n };
}

bool splitLsfRecord(std::string_view line, std::vector<std::string_view>& fields, std::deque<std::string>& storage, std::string& error)
{
    fields.clear();
    storage.clear();
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= line.size())
            return true;
        if (line[i] != '"') {
            const std::size_t start = i;
            while (i < line.size() && line[i] != ' ' && line[i] != '\t')
                ++i;
            fields.push_back(line.substr(start, i - start));
            continue;
        }
        const std::size_t start = ++i;
        bool escaped = false;
        while (true) {
            if (i >= line.size()) {
                error = "unterminated string starting at column " + std::to_string(start);
                return false;
            }
            if (line[i] == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    escaped = true;
                    i += 2;
                    continue;
                }
                break;
            }
            ++i;
        }
        std::string_view raw = line.substr(start, i - start);
        ++i; // the closing quote
        if (!escaped) {
            fields.push_back(raw);
            continue;
        }
        std::string& s = storage.emplace_back();
        for (std::size_t k = 0; k < raw.size(); ++k) {
            s += raw[k];
            if (raw[k] == '"')
                ++k; // "" -> "
        }
        fields.push_back(s);
    }
}

struct LsfImporter::State {
    std::unordered_map<std::string, int32_t> nodeIndex, userIndex;
    std::unordered_map<int64_t, int64_t> seen; ///< jobId -> line (array elements share an id: see below)
    std::map<std::string, int64_t> otherRecords, status;
    std::vector<std::string> files;
    int64_t records = 0;

    /// Status, user, queue and name from a JOB_FINISH record; `after` is the index past its
    /// execution hosts.
    void describe(const std::vector<std::string_view>& f, std::size_t after, int64_t jStatus, int64_t uid, Trace& trace, Job& job);
    /// One task per distinct execution host (f[first..after)), holding the slots it lists there.
    void addTasks(const std::vector<std::string_view>& f, std::size_t first, std::size_t after, int64_t slots, int64_t start,
        Trace& trace, Job& job);
};

void LsfImporter::State::describe(const std::vector<std::string_view>& f, std::size_t after, int64_t jStatus, int64_t uid,
    Trace& trace, Job& job)
{
    job.status = int16_t(jStatus & 64 ? 1 : jStatus & 32 ? 0 : -1); // DONE 64, EXIT 32
    ++status[jStatus & 64 ? "DONE" : jStatus & 32 ? "EXIT" : "status " + std::to_string(jStatus)];
    const std::string user = sanitizeUtf8(f[kUserName]);
    if (!user.empty()) {
        auto [it, fresh] = userIndex.emplace(user, int32_t(trace.users.size()));
        if (fresh)
            trace.users.push_back(user);
        job.user = it->second;
    } else {
        job.user = int32_t(uid);
    }
    if (!f[kQueue].empty())
        job.qos = int16_t(trace.internQos(sanitizeUtf8(f[kQueue])));
    const std::string_view name = !f[after + 2].empty() ? f[after + 2] : f[after + 3];
    if (!name.empty())
        trace.setJobName(job, sanitizeUtf8(name.substr(0, 256)));
}

void LsfImporter::State::addTasks(const std::vector<std::string_view>& f, std::size_t first, std::size_t after, int64_t slots,
    int64_t start, Trace& trace, Job& job)
{
    std::vector<std::pair<std::string_view, int64_t>> perHost;
    for (std::size_t k = first; k < after; ++k) {
        const std::pair<std::string_view, int64_t> entry = hostSlots(f[k]); // clang: no lambda capture of a binding
        auto it = std::find_if(perHost.begin(), perHost.end(), [&](const auto& p) { return p.first == entry.first; });
        if (it == perHost.end())
            perHost.push_back(entry);
        else
            it->second = std::min(it->second + entry.second, kMaxSlots);
    }
    job.gang = true;
    job.firstTask = uint32_t(trace.tasks.size());
    if (perHost.empty()) { // never dispatched: the request, unplaced
        Task task;
        task.request.cpuMilli = std::max<int64_t>(slots, 1) * 1000;
        trace.tasks.push_back(task);
    }
    for (const auto& [host, n] : perHost) {
        Task task;
        task.request.cpuMilli = n * 1000;
        task.logged.startTimeS = double(start);
        task.logged.endTimeS = double(start) + job.runTimeS;
        auto [it, fresh] = nodeIndex.emplace(std::string(host), int32_t(trace.nodes.size()));
        if (fresh) {
            Node node;
            node.name = sanitizeUtf8(host);
            trace.nodes.push_back(std::move(node));
        }
        task.logged.node = NodeId { it->second };
        trace.tasks.push_back(task);
    }
    job.taskCount = uint32_t(trace.tasks.size() - job.firstTask);
}

LsfImporter::LsfImporter()
    : m(std::make_unique<State>())
{
}
LsfImporter::~LsfImporter() = default;

Status LsfImporter::add(LineReader& reader, Trace& trace, ImportContext& ctx)
{
    const std::string& file = reader.displayName();
    m->files.push_back(file);
    std::vector<std::string_view> f;
    std::deque<std::string> storage;
    std::string error;
    std::string_view line;
    while (reader.next(line)) {
        if ((reader.lineNumber() & 4095) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        RowReader row(ctx, file, reader.lineNumber(), f);
        if (!splitLsfRecord(line, f, storage, error)) {
            row.fail("truncated-record", "", error + "; record skipped");
            continue;
        }
        if (f.empty() || f[0] != "JOB_FINISH") {
            ++m->otherRecords[f.empty() ? std::string("?") : sanitizeUtf8(f[0].substr(0, 40))];
            continue;
        }
        ++m->records;
        if (f.size() <= kNumAskedHosts) {
            row.fail("field-count", "", "JOB_FINISH record ends after " + std::to_string(f.size()) + " fields, before its host lists; record skipped");
            continue;
        }
        const int64_t asked = row.integer(int(kNumAskedHosts), "numAskedHosts", true, 0, 0, kMaxSlots);
        if (!row.ok())
            continue;
        const std::size_t exAt = kNumAskedHosts + 1 + std::size_t(asked);
        const int64_t exHosts = exAt < f.size() ? row.integer(int(exAt), "numExHosts", true, 0, 0, kMaxSlots) : -1;
        if (!row.ok())
            continue;
        if (exHosts < 0 || exAt + 1 + std::size_t(exHosts) + kAfterHostsFields > f.size()) {
            row.fail("field-count", "", "JOB_FINISH record has " + std::to_string(f.size()) + " fields, fewer than its host counts need; record skipped");
            continue;
        }
        const std::size_t after = exAt + 1 + std::size_t(exHosts);
        if (after + kCompleteTailFields > f.size()) {
            row.fail("truncated-record", "", "JOB_FINISH record ends after " + std::to_string(f.size()) + " fields, "
                    + std::to_string(after + kCompleteTailFields - f.size())
                    + " short of its resource usage and maxRSwap (cut mid-way?); record skipped");
            continue;
        }
        const int64_t jobId = row.integer(int(kJobId), "jobId", true, 0, 0, INT64_MAX);
        const int64_t slots = row.integer(int(kNumProcessors), "numProcessors", true, 1, 0, kMaxSlots);
        const int64_t submit = row.integer(int(kSubmitTime), "submitTime", true, 0, 1, INT64_MAX / 4);
        const int64_t start = row.integer(int(kStartTime), "startTime", true, 0, 0, INT64_MAX / 4);
        const int64_t end = row.integer(int(kEventTime), "eventTime", true, 0, 0, INT64_MAX / 4);
        const int64_t jStatus = row.integer(int(after), "jStatus", true, 0, 0, INT32_MAX);
        const int64_t uid = row.integer(int(kUserId), "userId", false, -1, -1, INT32_MAX);
        if (!row.ok())
            continue;
        // A job array's elements share the jobId; its records differ in their index further on,
        // which this importer does not read: they are kept as separate jobs with the same id.
        if (auto [it, fresh] = m->seen.emplace(jobId, reader.lineNumber()); !fresh)
            row.warn("duplicate-id", "jobId", "job " + std::to_string(jobId) + " also ends at line " + std::to_string(it->second)
                    + " (a job array element or a requeue); kept as another job");

        Job job;
        job.id = JobId { jobId };
        job.submitTimeS = double(submit);
        const bool ran = start > 0 && exHosts > 0;
        job.runTimeS = ran ? double(std::max<int64_t>(end - start, 0)) : -1;
        if (ran && end < start)
            row.warn("end-before-start", "eventTime", "finishes before it starts; run time taken as 0");
        m->describe(f, after, jStatus, uid, trace, job);
        m->addTasks(f, exAt + 1, after, slots, start, trace, job);
        trace.jobs.push_back(std::move(job));
        if (auto e = ctx.tooManyTasks(reader, trace.tasks.size()))
            return *e;
    }
    if (reader.error())
        return *reader.error();
    return {};
}

Status LsfImporter::finish(Trace& trace, ImportContext& ctx)
{
    if (trace.jobs.empty())
        return nothingImported("lsb.acct has no JOB_FINISH record", "lsb.acct has no usable job", "JOB_FINISH record", m->files, ctx.diagnostics);
    rebaseToEarliestSubmit(trace);
    if (trace.nodes.empty())
        addInferredPool(trace, "lsf");
    else
        inferNodeCapacities(trace, "lsf");
    trace.metadata["lsf.jobFinishRecords"] = std::to_string(m->records);
    std::string text;
    for (const auto& [k, n] : m->status)
        text += (text.empty() ? "" : ", ") + k + " " + std::to_string(n);
    trace.metadata["lsf.status"] = text;
    for (const auto& [type, n] : m->otherRecords)
        ctx.diagnostics.note("lsf-skipped-" + type, n);
    return {};
}

} // namespace schedlab::trace
