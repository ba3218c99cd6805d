#include "google_importer.h"

#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "trace.h"

#include <algorithm>
#include <unordered_map>

namespace schedlab::trace {

namespace {

constexpr int64_t kMaxTaskIndex = int64_t(1) << 31;

struct TaskKey {
    int64_t job;
    int64_t index;
    bool operator==(const TaskKey&) const = default;
};
struct TaskKeyHash {
    std::size_t operator()(const TaskKey& k) const
    {
        uint64_t h = uint64_t(k.job) * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.index) + 0x632BE59BD9B4E019ull);
        return std::size_t(h ^ (h >> 29));
    }
};

struct TaskRecord {
    int64_t submitUs = -1;
    int64_t scheduleUs = -1;
    int64_t endUs = -1;
    int64_t machine = -1;
    int64_t cpu = -1; // scaled by 1e9; -1 = not yet known
    int64_t mem = -1;
    int32_t priority = 0;
    int16_t schedClass = -1;
    int32_t user = -1;
    int8_t endEvent = -1;
};

struct MachineRecord {
    int64_t cpu = -1;
    int64_t mem = -1;
    int64_t firstLine = 0;
};

double usToS(int64_t us) { return us < 0 ? -1.0 : double(us) / 1e6; }

} // namespace

struct GoogleImporter::State {
    std::unordered_map<int64_t, MachineRecord> machines;
    std::vector<int64_t> machineOrder; // first-seen order
    std::unordered_map<TaskKey, TaskRecord, TaskKeyHash> tasks;
    std::vector<TaskKey> taskOrder; // order of first SUBMIT
    std::unordered_map<std::string, int32_t> userIndex;
    std::vector<std::string> users;
    std::unordered_map<int64_t, int32_t> jobUser; // from job_events
    int64_t machineRemovals = 0;
    int64_t reschedules = 0;
    int64_t eventsWithoutSubmit = 0;
    int64_t jobEventRows = 0;
    int64_t taskEventRows = 0;

    int32_t internUser(std::string_view name)
    {
        if (name.empty())
            return -1;
        auto it = userIndex.find(std::string(name));
        if (it != userIndex.end())
            return it->second;
        int32_t idx = int32_t(users.size());
        users.emplace_back(name);
        userIndex.emplace(users.back(), idx);
        return idx;
    }

    /// Machines with a capacity become nodes, in first-seen order; returns machine id -> node.
    std::unordered_map<int64_t, int32_t> addNodes(Trace& trace, Diagnostics& diag);
    /// One job of the given tasks (sorted by index); `classQos` interns scheduling classes as QoS.
    void addJob(int64_t jobId, std::vector<TaskKey>& keys, const std::unordered_map<int64_t, int32_t>& nodeIndex,
        std::vector<int>& classQos, Trace& trace, int64_t& missingRequest, int64_t& unknownMachine);
    /// The row and event counts, as metadata.
    void recordCounts(Trace& trace) const;
};

std::unordered_map<int64_t, int32_t> GoogleImporter::State::addNodes(Trace& trace, Diagnostics& diag)
{
    std::unordered_map<int64_t, int32_t> nodeIndex;
    for (int64_t id : machineOrder) {
        const MachineRecord& m = machines[id];
        if (m.cpu < 0 || m.mem < 0) {
            diag.warn("missing-capacity", "machine_events", m.firstLine, "cpus",
                "machine " + std::to_string(id) + " never has a CPU and memory capacity; left out");
            continue;
        }
        nodeIndex.emplace(id, int32_t(trace.nodes.size()));
        Node n;
        n.name = std::to_string(id);
        n.cpuMilli = m.cpu;
        n.memMiB = m.mem;
        trace.nodes.push_back(std::move(n));
    }
    return nodeIndex;
}

void GoogleImporter::State::addJob(int64_t jobId, std::vector<TaskKey>& keys, const std::unordered_map<int64_t, int32_t>& nodeIndex,
    std::vector<int>& classQos, Trace& trace, int64_t& missingRequest, int64_t& unknownMachine)
{
    std::sort(keys.begin(), keys.end(), [](const TaskKey& a, const TaskKey& b) { return a.index < b.index; });
    Job job;
    job.id = JobId { jobId };
    job.gang = false;
    job.firstTask = uint32_t(trace.tasks.size());
    job.taskCount = uint32_t(keys.size());
    int64_t submitUs = INT64_MAX;
    for (const TaskKey& k : keys)
        submitUs = std::min(submitUs, tasks[k].submitUs);
    job.submitTimeS = usToS(submitUs);
    int32_t priority = 0;
    int16_t cls = -1;
    int32_t user = -1;
    for (const TaskKey& k : keys) {
        const TaskRecord& r = tasks[k];
        Task task;
        task.request.cpuMilli = std::max<int64_t>(r.cpu, 0);
        task.request.memMiB = std::max<int64_t>(r.mem, 0);
        if (r.cpu < 0 || r.mem < 0)
            ++missingRequest;
        task.submitOffsetS = usToS(r.submitUs) - job.submitTimeS;
        if (r.scheduleUs >= 0) {
            task.logged.startTimeS = usToS(r.scheduleUs);
            if (r.machine >= 0) {
                auto nit = nodeIndex.find(r.machine);
                if (nit != nodeIndex.end())
                    task.logged.node = NodeId { nit->second };
                else
                    ++unknownMachine;
            }
        }
        if (r.endUs >= 0) {
            task.logged.endTimeS = usToS(r.endUs);
            task.runTimeS = usToS(r.endUs - r.scheduleUs);
        }
        priority = std::max(priority, r.priority);
        cls = std::max(cls, r.schedClass);
        if (user < 0)
            user = r.user;
        trace.tasks.push_back(task);
    }
    job.priority = priority;
    if (cls >= 0) {
        if (classQos[std::size_t(cls)] < 0)
            classQos[std::size_t(cls)] = trace.internQos("class" + std::to_string(cls));
        job.qos = int16_t(classQos[std::size_t(cls)]);
    }
    if (user < 0) {
        auto uit = jobUser.find(jobId);
        user = uit == jobUser.end() ? -1 : uit->second;
    }
    job.user = user;
    trace.jobs.push_back(std::move(job));
}

void GoogleImporter::State::recordCounts(Trace& trace) const
{
    trace.metadata["google.taskEventRows"] = std::to_string(taskEventRows);
    trace.metadata["google.jobEventRows"] = std::to_string(jobEventRows);
    trace.metadata["google.machineRemovals"] = std::to_string(machineRemovals);
    trace.metadata["google.reschedules"] = std::to_string(reschedules);
    trace.metadata["google.eventsWithoutSubmit"] = std::to_string(eventsWithoutSubmit);
}

GoogleImporter::GoogleImporter()
    : m_state(std::make_unique<State>())
{
}
GoogleImporter::~GoogleImporter() = default;

namespace {
// Shared loop: skip blanks, check field count, tick progress.
template <class Fn>
Status forEachRow(LineReader& reader, ImportContext& ctx, std::size_t minFields, const char* table, Fn&& fn)
{
    std::vector<std::string_view> fields;
    std::string_view line;
    int64_t rows = 0;
    while (reader.next(line)) {
        if ((reader.lineNumber() & 8191) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (isBlank(line))
            continue;
        ++rows;
        splitChar(line, ',', fields);
        RowReader row(ctx, reader.displayName(), reader.lineNumber(), fields);
        if (fields.size() < minFields) {
            row.fail("field-count", "",
                std::string(table) + " rows have " + std::to_string(minFields) + " fields, found "
                    + std::to_string(fields.size()));
            continue;
        }
        fn(row, fields);
    }
    if (reader.error())
        return *reader.error();
    if (rows == 0)
        return Error { ErrorCode::Empty, std::string(table) + ": file is empty", reader.displayName(), -1, -1 };
    return {};
}
} // namespace

Status GoogleImporter::addMachineEvents(LineReader& reader, ImportContext& ctx)
{
    State& s = *m_state;
    return forEachRow(reader, ctx, 6, "machine_events", [&](RowReader& row, const std::vector<std::string_view>&) {
        row.integer(0, "time", true, 0, 0, INT64_MAX);
        const int64_t id = row.integer(1, "machine_id", true, 0, 0, INT64_MAX);
        const int64_t type = row.integer(2, "event_type", true, 0, 0, 2);
        const int64_t cpu = row.scaled(4, "cpus", false, -1, kDecimals);
        const int64_t mem = row.scaled(5, "memory", false, -1, kDecimals);
        if (!row.ok())
            return;
        auto [it, inserted] = s.machines.try_emplace(id);
        if (inserted) {
            it->second.firstLine = reader.lineNumber();
            s.machineOrder.push_back(id);
        }
        if (type == 1) {
            ++s.machineRemovals;
            return;
        }
        // Capacity = the largest seen, so no logged placement becomes infeasible after a shrink.
        if (cpu >= 0)
            it->second.cpu = std::max(it->second.cpu, cpu);
        if (mem >= 0)
            it->second.mem = std::max(it->second.mem, mem);
    });
}

Status GoogleImporter::addJobEvents(LineReader& reader, ImportContext& ctx)
{
    State& s = *m_state;
    return forEachRow(reader, ctx, 8, "job_events", [&](RowReader& row, const std::vector<std::string_view>& f) {
        const int64_t job = row.integer(2, "job_id", true, 0, 0, INT64_MAX);
        row.integer(3, "event_type", true, 0, 0, 8);
        if (!row.ok())
            return;
        ++s.jobEventRows;
        int32_t user = s.internUser(trimmed(f[4]));
        if (user >= 0)
            s.jobUser.emplace(job, user);
    });
}

Status GoogleImporter::addTaskEvents(LineReader& reader, ImportContext& ctx)
{
    State& s = *m_state;
    if (s.tasks.empty()) // ~100 bytes of text per event; gzip ~10x
        s.tasks.reserve(std::size_t(std::min<int64_t>(1 << 18, reader.fileSize() / (reader.isGzip() ? 10 : 100) + 16)));
    return forEachRow(reader, ctx, 13, "task_events", [&](RowReader& row, const std::vector<std::string_view>& f) {
        const int64_t time = row.integer(0, "time", true, 0, 0, INT64_MAX);
        const int64_t job = row.integer(2, "job_id", true, 0, 0, INT64_MAX);
        const int64_t index = row.integer(3, "task_index", true, 0, 0, kMaxTaskIndex);
        const int64_t machine = row.integer(4, "machine_id", false, -1, 0, INT64_MAX);
        const int64_t type = row.integer(5, "event_type", true, 0, 0, 8);
        const int64_t schedClass = row.integer(7, "scheduling_class", false, -1, 0, 3);
        const int64_t priority = row.integer(8, "priority", false, 0, 0, 11);
        const int64_t cpu = row.scaled(9, "cpu_request", false, -1, kDecimals);
        const int64_t mem = row.scaled(10, "memory_request", false, -1, kDecimals);
        if (!row.ok())
            return;
        ++s.taskEventRows;
        const TaskKey key { job, index };
        auto it = s.tasks.find(key);
        const auto event = GoogleEvent(type);
        if (it == s.tasks.end()) {
            if (event != GoogleEvent::Submit) {
                ++s.eventsWithoutSubmit; // task submitted before this part; not foldable
                return;
            }
            if (int64_t(s.taskOrder.size()) >= ctx.options.maxTasks) {
                row.fail("too-many-tasks", "", "more than " + std::to_string(ctx.options.maxTasks)
                        + " tasks; raise --max-tasks if the machine has the memory; task ignored");
                return;
            }
            it = s.tasks.emplace(key, TaskRecord {}).first;
            s.taskOrder.push_back(key);
        }
        TaskRecord& t = it->second;
        const bool running = t.scheduleUs >= 0 && t.endUs < 0;
        switch (event) {
        case GoogleEvent::Submit:
            if (t.submitUs < 0)
                t.submitUs = time;
            break;
        case GoogleEvent::Schedule:
            if (t.scheduleUs < 0) {
                t.scheduleUs = time;
                t.machine = machine;
            } else {
                ++s.reschedules; // after an eviction; the first run is what we keep
            }
            break;
        case GoogleEvent::UpdatePending:
        case GoogleEvent::UpdateRunning: break;
        default: // EVICT, FAIL, FINISH, KILL, LOST
            if (running) {
                t.endUs = time;
                t.endEvent = int8_t(type);
            }
            break;
        }
        // Requests: the latest known values before the task first starts.
        if (t.scheduleUs < 0 || event == GoogleEvent::Schedule) {
            if (cpu >= 0)
                t.cpu = cpu;
            if (mem >= 0)
                t.mem = mem;
            if (schedClass >= 0)
                t.schedClass = int16_t(schedClass);
            t.priority = int32_t(priority);
        }
        if (t.user < 0)
            t.user = s.internUser(trimmed(f[6]));
    });
}

Status GoogleImporter::finish(Trace& trace, ImportContext& ctx)
{
    State& s = *m_state;
    trace.cpuUnit = ResourceUnit::NormalizedNano;
    const std::unordered_map<int64_t, int32_t> nodeIndex = s.addNodes(trace, ctx.diagnostics);

    // Jobs: tasks grouped by job id, jobs ordered by their first submit, tasks by index.
    std::unordered_map<int64_t, std::vector<TaskKey>> byJob;
    std::vector<int64_t> jobOrder;
    for (const TaskKey& k : s.taskOrder) {
        auto [it, inserted] = byJob.try_emplace(k.job);
        if (inserted)
            jobOrder.push_back(k.job);
        it->second.push_back(k);
    }
    trace.users = s.users;
    std::vector<int> classQos(4, -1);
    int64_t missingRequest = 0, unknownMachine = 0;
    trace.jobs.reserve(jobOrder.size());
    trace.tasks.reserve(s.taskOrder.size());
    for (int64_t jobId : jobOrder)
        s.addJob(jobId, byJob[jobId], nodeIndex, classQos, trace, missingRequest, unknownMachine);
    if (missingRequest)
        ctx.diagnostics.count("missing-request", missingRequest);
    if (unknownMachine && !s.machines.empty()) // without machine_events every machine is unknown
        ctx.diagnostics.count("unknown-machine", unknownMachine);
    if (s.eventsWithoutSubmit)
        ctx.diagnostics.count("event-without-submit", s.eventsWithoutSubmit);
    s.recordCounts(trace);
    if (trace.jobs.empty())
        return makeError(ErrorCode::Empty, "Google trace: no task was submitted in the task_events given");
    if (!trace.nodes.empty()) {
        const FeasibilityChecker feasibility(trace);
        int64_t never = 0;
        for (const Task& t : trace.tasks)
            if (!feasibility.canEverHost(t.request))
                ++never;
        if (never)
            ctx.diagnostics.count("never-fits", never);
    }
    return {};
}

} // namespace schedlab::trace
