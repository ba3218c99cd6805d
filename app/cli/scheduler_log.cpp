#include "scheduler_log.h"

#include "policy/k8s_scheduler_config.h"
#include "policy/kubernetes_plugins.h"
#include "policy/placement_policy.h"
#include "sim/state_journal.h"
#include "sim/timed_replay.h"
#include "trace/k8s_dump_writer.h"
#include "trace/rfc3339.h"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <cstring>
#include <map>

namespace schedlab::cli {

namespace {

constexpr double kEpochUnixS = 1.7e9; // as writeKubectlDump's default: trace time 0

/// kube-scheduler's reason for a node that cannot take the request (the first failing check).
const char* reasonOf(cluster::Misfit m)
{
    switch (m) {
    case cluster::Misfit::GpuModel: return "node(s) didn't match Pod's node affinity/selector";
    case cluster::Misfit::TooFewGpus:
    case cluster::Misfit::FreeGpus:
    case cluster::Misfit::GpuShare: return "Insufficient nvidia.com/gpu";
    case cluster::Misfit::Memory: return "Insufficient memory";
    case cluster::Misfit::TooSmall:
    case cluster::Misfit::Cpu:
    default: return "Insufficient cpu";
    }
}

class LogWriter {
public:
    LogWriter(std::FILE* f, bool json)
        : m_file(f)
        , m_json(json)
    {
    }
    /// One record: message, then key/value pairs (values quoted unless `bare`).
    struct Value {
        const char* key;
        std::string value;
        bool bare = false;
    };
    void line(double unixS, const char* caller, int verbosity, const char* message, const std::string& podName,
        std::initializer_list<Value> values)
    {
        std::string& o = m_buf;
        const std::string when = trace::formatRfc3339(unixS, true); // YYYY-MM-DDTHH:MM:SS.ffffffZ
        if (m_json) {
            const auto slash = podName.find('/');
            char ts[32];
            std::snprintf(ts, sizeof ts, "%.6f", unixS);
            o += "{\"ts\":";
            o += ts;
            o += ",\"caller\":\"scheduler/";
            o += caller;
            o += "\",\"msg\":\"";
            o += message;
            o += "\",\"v\":" + std::to_string(verbosity) + ",\"pod\":{\"name\":\"" + podName.substr(slash + 1) + "\",\"namespace\":\""
                + podName.substr(0, slash) + "\"}";
            for (const Value& v : values)
                o += ",\"" + std::string(v.key) + "\":" + (v.bare ? v.value : quoteJson(v.value));
            o += "}\n";
        } else {
            o += 'I';
            o.append(when, 5, 2);
            o.append(when, 8, 2);
            o += ' ';
            o.append(when, 11, 15);
            o += "       1 ";
            o += caller;
            o += "] \"";
            o += message;
            o += "\" pod=\"" + podName + "\"";
            for (const Value& v : values) {
                o += ' ';
                o += v.key;
                o += '=';
                o += v.bare ? v.value : quoteGo(v.value);
            }
            o += '\n';
        }
        ++m_lines;
        if (m_buf.size() > (std::size_t(4) << 20))
            flush();
    }
    bool flush()
    {
        if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
            m_failed = true;
        m_bytes += int64_t(m_buf.size());
        m_buf.clear();
        return !m_failed;
    }
    int64_t bytes() const { return m_bytes + int64_t(m_buf.size()); }
    int64_t lines() const { return m_lines; }

private:
    static std::string quoteGo(const std::string& s)
    {
        std::string o = "\"";
        for (char c : s)
            o += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
        return o + "\"";
    }
    static std::string quoteJson(const std::string& s) { return quoteGo(s); }
    std::FILE* m_file;
    bool m_json;
    std::string m_buf;
    int64_t m_bytes = 0, m_lines = 0;
    bool m_failed = false;
};

// The generated trace in whole seconds, as Kubernetes objects state times: the dump then says
// exactly when each pod ran, so the logged replay sees the states the log was written from.
Result<trace::Trace> generateInWholeSeconds(const trace::GeneratorOptions& generator)
{
    auto generated = trace::generateTrace(generator);
    if (!generated)
        return generated.error();
    trace::Trace& t = generated.value();
    for (trace::Job& j : t.jobs) {
        j.submitTimeS = std::round(j.submitTimeS);
        j.runTimeS = std::max(1.0, std::round(j.runTimeS));
        j.requestedTimeS = j.requestedTimeS < 0 ? -1 : std::max(j.runTimeS, std::round(j.requestedTimeS));
    }
    for (trace::Task& task : t.tasks) {
        if (task.request.isGpuShare()) // Kubernetes has no GPU shares: whole devices, as the dump says
            task.request.gpuMilli = 1000;
        task.submitOffsetS = std::round(task.submitOffsetS);
        if (task.runTimeS >= 0)
            task.runTimeS = std::max(1.0, std::round(task.runTimeS));
    }
    return std::move(t);
}

// --scheduler-config, which must score every node (the log lists every node's scores).
Result<std::optional<policy::KubeSchedulerConfig>> schedulerConfigOf(const SchedulerLogOptions& options, int nodes)
{
    if (options.schedulerConfig.empty())
        return std::optional<policy::KubeSchedulerConfig>();
    auto parsed = policy::parseKubeSchedulerConfig(options.schedulerConfig, "--scheduler-config");
    if (!parsed)
        return parsed.error();
    if (policy::feasibleNodesToFind(*parsed, nodes) < nodes)
        return makeError(ErrorCode::Invalid, "--scheduler-config: the generated log scores every node: set percentageOfNodesToScore: 100");
    return std::optional<policy::KubeSchedulerConfig>(*parsed);
}

// What the log is written from: the trace, the replay's journal and its scheduler's configuration.
struct LogSource {
    const trace::Trace& t;
    const sim::StateJournal& journal;
    const std::optional<policy::KubeSchedulerConfig>& config;
};

// Verbosity 10, before a bind: each plugin's score times its weight (as RunScorePlugins leaves
// them) for every feasible node, then each node's sum.
void logScores(LogWriter& log, const LogSource& src, const cluster::ClusterState& state, const trace::TaskRequest& r, double unixS,
    const std::string& pod)
{
    const trace::Trace& t = src.t;
    const auto& config = src.config;
    const int nodes = int(t.nodes.size());
    struct Scores {
        int64_t fit, balanced, total;
    };
    auto scoresOf = [&](int n) {
        if (config) {
            const policy::K8sConfiguredScore s = policy::kubernetesConfiguredScore(*config, state, n, r);
            return Scores { s.fit * config->fitWeight, s.balanced * config->balancedWeight, s.total };
        }
        const policy::KubernetesPluginScores s = policy::kubernetesPluginScores(state, n, r);
        return Scores { s.leastAllocated, s.balancedAllocation, s.leastAllocated + s.balancedAllocation };
    };
    const bool fitOn = !config || config->fitWeight > 0, balancedOn = !config || config->balancedWeight > 0;
    for (int n = 0; n < nodes; ++n) {
        if (!state.fits(n, r))
            continue;
        const Scores s = scoresOf(n);
        const std::string& name = t.nodes[std::size_t(n)].name;
        if (fitOn)
            log.line(unixS, "schedule_one.go:745", 10, "Plugin scored node for pod", pod,
                { { "plugin", policy::kNodeResourcesFit }, { "node", name }, { "score", std::to_string(s.fit), true } });
        if (balancedOn)
            log.line(unixS, "schedule_one.go:745", 10, "Plugin scored node for pod", pod,
                { { "plugin", policy::kNodeResourcesBalancedAllocation }, { "node", name }, { "score", std::to_string(s.balanced), true } });
    }
    for (int n = 0; n < nodes; ++n) {
        if (!state.fits(n, r))
            continue;
        log.line(unixS, "schedule_one.go:822", 10, "Calculated node's final score for pod", pod,
            { { "node", t.nodes[std::size_t(n)].name }, { "score", std::to_string(scoresOf(n).total), true } });
    }
}

// kube-scheduler's FitError when no node fits: each node's first misfit, counted per reason.
std::string fitError(const cluster::ClusterState& state, const trace::TaskRequest& r, int nodes)
{
    std::map<std::string, int> reasons;
    for (int n = 0; n < nodes; ++n)
        ++reasons[reasonOf(state.misfit(n, r))];
    std::string err = "0/" + std::to_string(nodes) + " nodes are available: ";
    bool first = true;
    for (const auto& [reason, count] : reasons) {
        err += (first ? "" : ", ") + std::to_string(count) + " " + reason;
        first = false;
    }
    return err + ". preemption: 0/" + std::to_string(nodes) + " nodes are available: " + std::to_string(nodes)
        + " Preemption is not helpful for scheduling.";
}

// The log's lines for every decision (until options.maxBytes), counted in `stats`.
void logDecisions(LogWriter& log, const LogSource& src, const std::vector<sim::Decision>& decisions, const SchedulerLogOptions& options,
    SchedulerLogStats& stats)
{
    const trace::Trace& t = src.t;
    const int nodes = int(t.nodes.size());
    double lastT = -1;
    int sameTime = 0; // decisions so far at this time: each a microsecond after the last, in order
    for (const sim::Decision& d : decisions) {
        if (options.maxBytes > 0 && log.bytes() >= options.maxBytes)
            break;
        const trace::Job& job = t.jobs[std::size_t(d.job)];
        const trace::TaskRequest& r = t.tasks[std::size_t(d.task)].request;
        const std::string pod = trace::kubectlPodName(t, job, uint32_t(d.task) - job.firstTask);
        sameTime = d.timeS == lastT ? sameTime + 1 : 0;
        lastT = d.timeS;
        const double unixS = kEpochUnixS + d.timeS + sameTime * 1e-6;
        const std::unique_ptr<cluster::ClusterState> state = d.statePos >= 0 ? src.journal.stateAt(d.statePos) : nullptr;
        if (!state)
            continue;
        int feasible = 0;
        for (int n = 0; n < nodes; ++n)
            feasible += state->fits(n, r);
        if (d.outcome == sim::Outcome::Placed) {
            if (options.verbosity >= 10)
                logScores(log, src, *state, r, unixS, pod);
            log.line(unixS, "schedule_one.go:286", 2, "Successfully bound pod to node", pod,
                { { "node", t.nodes[std::size_t(d.node)].name }, { "evaluatedNodes", std::to_string(nodes), true },
                    { "feasibleNodes", std::to_string(feasible), true } });
            ++stats.binds;
        } else if (feasible == 0) { // no node fits it now: kube-scheduler's FitError
            log.line(unixS, "schedule_one.go:1055", 2, "Unable to schedule pod; no fit; waiting", pod, { { "err", fitError(*state, r, nodes) } });
            ++stats.failures;
        }
    }
}

} // namespace

Result<SchedulerLogStats> writeGeneratedSchedulerLog(
    const trace::GeneratorOptions& generator, const SchedulerLogOptions& options, const std::string& dir)
{
    auto generated = generateInWholeSeconds(generator);
    if (!generated)
        return generated.error();
    trace::Trace& t = generated.value();
    auto config = schedulerConfigOf(options, int(t.nodes.size()));
    if (!config)
        return config.error();
    auto policy = *config ? policy::makeConfiguredKubernetes("k8s-default", **config) : policy::makePlacementPolicy("k8s-default");
    sim::StateJournal journal;
    sim::TimedOptions o;
    o.seed = generator.seed;
    sim::Recording rec;
    rec.heat = false;
    rec.topK = 0;
    rec.journal = &journal;
    auto run = sim::runTimedReplay(t, *policy, o, rec);
    if (!run)
        return run.error();

    SchedulerLogStats stats;
    stats.nodes = t.nodes.size();
    stats.pods = t.tasks.size();
    for (const sim::Decision& d : run->decisions.decisions())
        if (d.outcome == sim::Outcome::Placed) {
            trace::Task& task = t.tasks[std::size_t(d.task)];
            task.logged.node = trace::NodeId { d.node };
            task.logged.startTimeS = d.timeS;
            task.logged.endTimeS = d.timeS + t.taskRunTimeS(t.jobs[std::size_t(d.job)], task);
        }
    trace::KubectlDumpOptions w;
    w.epochUnixS = kEpochUnixS;
    w.events = false; // the log says what the events would
    if (Status st = trace::writeKubectlDump(t, dir, w); !st)
        return st.error();

    const std::string path = dir + (options.json ? "/kube-scheduler.json" : "/kube-scheduler.log");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    LogWriter log(f, options.json);
    stats.year = std::atoi(trace::formatRfc3339(kEpochUnixS).substr(0, 4).c_str());
    logDecisions(log, LogSource { t, journal, config.value() }, run->decisions.decisions(), options, stats);
    const bool ok = log.flush();
    stats.lines = log.lines();
    stats.bytes = log.bytes();
    if (std::fclose(f) != 0 || !ok)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    return stats;
}

} // namespace schedlab::cli
