// The logged decisions of a Kubernetes trace: Scheduled / FailedScheduling events and the
// decisions of kube-scheduler logs, merged in time order into Trace::logged (see k8s_importer.h).

#include "k8s_importer.h"

#include "fields.h"
#include "import_context.h"
#include "k8s_events.h"
#include "trace.h"

#include <algorithm>

namespace schedlab::trace {

namespace {

/// One decision before it is laid out: its reasons, and for a log's decision where its
/// candidates are.
struct Pending {
    LoggedDecision d;
    std::vector<FailureReason> reasons;
    std::string source; ///< who decided (interned when laid out)
    int64_t logDecision = -1; ///< into the log's decisions
};

using PodTasks = std::unordered_map<std::string, uint32_t>;
using NodeIndex = std::unordered_map<std::string, int32_t>;

/// The scheduler's own log's decisions (it names the pods covered: `fromLog`, by task); binds
/// (task, time) go to `binds`.
void pendingFromLog(const SchedulerLog& log, const std::vector<int32_t>& nodeOf, const PodTasks& podTask, Diagnostics& diag,
    std::vector<Pending>& all, std::vector<char>& fromLog, std::vector<std::pair<uint32_t, double>>& binds, int64_t& unknownNodes)
{
    int64_t unknownPods = 0;
    for (std::size_t i = 0; i < log.decisions.size(); ++i) {
        const SchedulerLog::Decision& ld = log.decisions[i];
        const auto it = podTask.find(log.pods[std::size_t(ld.pod)]);
        if (it == podTask.end()) {
            if (++unknownPods <= 20)
                diag.warn("log-unknown-pod", ld.file, ld.line, "pod",
                    "pod " + trace::quoted(log.pods[std::size_t(ld.pod)]) + " is not in the node/pod objects; its decision is left out");
            continue;
        }
        Pending p;
        p.d.task = it->second;
        p.d.outcome = ld.outcome;
        p.d.timeS = ld.unixS;
        p.d.lastTimeS = ld.lastUnixS;
        p.source = ld.source;
        p.d.count = ld.count;
        p.d.evaluatedNodes = ld.evaluated;
        p.d.feasibleNodes = ld.feasible;
        if (ld.outcome == LoggedOutcome::Placed) {
            p.d.node = nodeOf[std::size_t(ld.node)];
            if (p.d.node < 0 && ++unknownNodes <= 20)
                diag.warn("unknown-node", ld.file, ld.line, "node",
                    "bound to " + trace::quoted(log.nodes[std::size_t(ld.node)]) + ", which no node object names");
        } else if (!ld.reasons.empty()) { // given one by one (a decision log)
            for (const auto& [reason, nodes] : ld.reasons)
                p.reasons.push_back(FailureReason { reason, nodes });
        } else if (!ld.reason.empty()) {
            const FailedScheduling f = parseFailedScheduling(ld.reason);
            p.reasons = f.reasons;
            if (p.d.evaluatedNodes < 0)
                p.d.evaluatedNodes = f.totalNodes;
            if (f.totalNodes >= 0 && p.d.feasibleNodes < 0)
                p.d.feasibleNodes = 0;
        }
        p.logDecision = int64_t(i);
        fromLog[p.d.task] = 1;
        if (p.d.outcome == LoggedOutcome::Placed)
            binds.emplace_back(p.d.task, p.d.timeS);
        all.push_back(std::move(p));
    }
    if (unknownPods > 20)
        diag.count("log-unknown-pod", unknownPods - 20);
}

/// Scheduled / FailedScheduling events, for pods the log does not cover.
void pendingFromEvents(const std::vector<K8sEvent>& events, const NodeIndex& nodeIndex, const PodTasks& podTask,
    const std::vector<char>& fromLog, Diagnostics& diag, std::vector<Pending>& all)
{
    int64_t superseded = 0;
    for (const K8sEvent& e : events) {
        if (!e.kind.empty() && e.kind != "Pod") {
            diag.note("k8s-event-not-about-a-pod");
            continue;
        }
        auto it = e.uid.empty() ? podTask.end() : podTask.find(e.uid);
        if (it == podTask.end())
            it = podTask.find(e.ns + "/" + e.name);
        if (it == podTask.end()) {
            diag.warn("event-unknown-pod", e.file, -1, e.pointer,
                e.reason + " event for pod " + trace::quoted(e.ns + "/" + e.name) + ", which the dump does not hold");
            continue;
        }
        if (fromLog[it->second]) {
            ++superseded;
            continue;
        }
        Pending p;
        LoggedDecision& d = p.d;
        d.task = it->second;
        d.timeS = e.firstS;
        d.lastTimeS = e.count > 1 || e.lastS > e.firstS ? e.lastS : -1;
        d.count = e.count;
        p.source = e.source;
        if (e.reason == "Scheduled") {
            const auto node = scheduledNode(e.message);
            if (!node) {
                diag.warn("bad-event", e.file, -1, e.pointer + "/message",
                    "Scheduled event without 'Successfully assigned ... to NODE': " + trace::quoted(e.message));
                continue;
            }
            const auto n = nodeIndex.find(*node);
            d.node = n == nodeIndex.end() ? -1 : n->second;
            if (n == nodeIndex.end())
                diag.warn("unknown-node", e.file, -1, e.pointer + "/message", "assigned to " + trace::quoted(*node) + ", which no node object names");
        } else {
            d.outcome = LoggedOutcome::Unschedulable;
            const FailedScheduling f = parseFailedScheduling(e.message);
            d.evaluatedNodes = f.totalNodes;
            if (f.totalNodes >= 0)
                d.feasibleNodes = 0;
            p.reasons = f.reasons;
        }
        all.push_back(std::move(p));
    }
    if (superseded)
        diag.note("k8s-events-covered-by-the-scheduler-log", superseded);
}

/// Lays out pending decisions into Trace::logged. Names are interned as they are laid out
/// (source, reasons, rewards, candidates' terms), so the table's order follows the decisions',
/// whatever order the files gave them in.
class LayOut {
public:
    LayOut(const SchedulerLog& log, const std::vector<int32_t>& nodeOf, LoggedDecisions& l)
        : m_log(log)
        , m_nodeOf(nodeOf)
        , m_l(l)
        , m_pluginIndex(log.plugins.size(), -1)
    {
    }

    /// Its reasons, reward terms and candidates after the last decision's.
    void add(Pending& p, int64_t& unknownNodes)
    {
        LoggedDecision& d = p.d;
        d.source = p.source.empty() ? -1 : m_l.internName(p.source);
        d.firstReason = uint32_t(m_l.reasons.size());
        for (const FailureReason& r : p.reasons)
            m_l.reasons.push_back(LoggedReason { m_l.internName(r.reason), r.nodes });
        d.reasonCount = uint32_t(p.reasons.size());
        // The reward terms first, then the candidates' (the order the native format keeps).
        d.firstReward = uint32_t(m_l.terms.size());
        if (p.logDecision >= 0) {
            const SchedulerLog::Decision& ld = m_log.decisions[std::size_t(p.logDecision)];
            addTerms(ld.firstReward, ld.rewardCount);
            d.rewardCount = ld.rewardCount;
        }
        d.firstCandidate = uint32_t(m_l.candidates.size());
        if (p.logDecision >= 0) {
            const SchedulerLog::Decision& ld = m_log.decisions[std::size_t(p.logDecision)];
            for (uint32_t k = 0; k < ld.candidateCount; ++k)
                addCandidate(m_log.candidates[ld.firstCandidate + k], unknownNodes);
            d.candidateCount = ld.candidateCount;
        }
        m_l.decisions.push_back(d);
    }

private:
    int32_t pluginName(int32_t plugin)
    {
        int32_t& i = m_pluginIndex[std::size_t(plugin)];
        if (i < 0)
            i = m_l.internName(m_log.plugins[std::size_t(plugin)]);
        return i;
    }
    void addTerms(uint32_t first, uint32_t count)
    {
        for (uint32_t t = 0; t < count; ++t) {
            const SchedulerLog::Term& term = m_log.terms[first + t];
            m_l.terms.push_back(LoggedTerm { pluginName(term.plugin), term.score });
        }
    }
    void addCandidate(const SchedulerLog::Candidate& c, int64_t& unknownNodes)
    {
        LoggedCandidate lc;
        lc.node = m_nodeOf[std::size_t(c.node)];
        lc.hasScore = c.hasTotal;
        lc.score = c.total;
        lc.firstTerm = uint32_t(m_l.terms.size());
        addTerms(c.firstTerm, c.termCount);
        lc.termCount = c.termCount;
        if (lc.node < 0)
            ++unknownNodes;
        m_l.candidates.push_back(lc);
    }

    const SchedulerLog& m_log;
    const std::vector<int32_t>& m_nodeOf;
    LoggedDecisions& m_l;
    std::vector<int32_t> m_pluginIndex; ///< by the log's plugin: into the logged names (-1 = not yet)
};

} // namespace

std::vector<std::pair<uint32_t, double>> K8sImporter::foldLoggedDecisions(Trace& trace, ImportContext& ctx,
    const std::unordered_map<std::string, int32_t>& nodeIndex, const std::unordered_map<std::string, uint32_t>& podTask)
{
    std::vector<std::pair<uint32_t, double>> binds;
    Diagnostics& diag = ctx.diagnostics;
    std::vector<Pending> all;
    std::vector<char> fromLog(trace.tasks.size(), 0);

    // The scheduler's own log first: it names the pods covered.
    std::vector<int32_t> nodeOf(m_log.nodes.size(), -1);
    for (std::size_t i = 0; i < m_log.nodes.size(); ++i)
        if (const auto it = nodeIndex.find(m_log.nodes[i]); it != nodeIndex.end())
            nodeOf[i] = it->second;
    int64_t unknownNodes = 0;
    pendingFromLog(m_log, nodeOf, podTask, diag, all, fromLog, binds, unknownNodes);
    pendingFromEvents(m_objects.events, nodeIndex, podTask, fromLog, diag, all);

    // Laid out in time order, each decision's reasons, candidates and terms after the last's.
    std::stable_sort(all.begin(), all.end(), [](const Pending& a, const Pending& b) { return a.d.timeS < b.d.timeS; });
    LayOut layOut(m_log, nodeOf, trace.logged);
    for (Pending& p : all)
        layOut.add(p, unknownNodes);
    if (unknownNodes > 20)
        diag.count("unknown-node", unknownNodes - 20);
    if (!m_log.decisions.empty())
        diag.note("scheduler-log decisions", int64_t(m_log.decisions.size()));
    return binds;
}

} // namespace schedlab::trace
