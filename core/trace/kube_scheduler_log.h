#pragma once
/// Scheduling decisions in kube-scheduler's own log (klog text or JSON format, klog.h):
/// - verbosity 2: "Successfully bound pod to node" pod= node= evaluatedNodes= feasibleNodes=, and
///   "Unable to schedule pod; no fit; waiting" pod= err= (also "...no nodes are registered to the
///   cluster; waiting", "...possibly due to node not found; waiting");
/// - verbosity 10: "Plugin scored node for pod" pod= plugin= node= score= (the plugin's weighted
///   score) and "Calculated node's final score for pod" pod= node= score=.
/// The score lines of a pod's scheduling cycle are kept until its bind or failure line closes the
/// decision (binding runs in its own goroutine, so other pods' lines interleave); a pod scored
/// again before either closes starts a new attempt. Messages and keys as in
/// kubernetes/pkg/scheduler/schedule_one.go (1.22-1.31); the printf wordings of 1.14-1.18 read as
/// the same decisions, and a line that looks like a decision in another wording is a warning
/// (kube_scheduler_wording.h).

#include "base/result.h"
#include "trace.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace schedlab::trace {

class LineReader;
class LocalTimeZone;
struct ImportContext;

/// Decisions read from schedulers' own logs: kube-scheduler's (this file) and schedlab decision
/// logs of external schedulers (decision_log_reader.cpp), before they are matched to the cluster's
/// pods and nodes (k8s_logged.cpp).
class SchedulerLog {
public:
    struct Term {
        int32_t plugin = -1; ///< into plugins (plugin or reward term names)
        double score = 0;
    };
    struct Candidate {
        int32_t node = -1; ///< into nodes
        bool hasTotal = false;
        double total = 0;
        uint32_t firstTerm = 0, termCount = 0; ///< into terms
    };
    struct Decision {
        int32_t pod = -1; ///< into pods ("namespace/name")
        double unixS = -1;
        double lastUnixS = -1; ///< an aggregated decision's last time
        LoggedOutcome outcome = LoggedOutcome::Placed;
        int32_t node = -1; ///< Placed: into nodes
        int32_t evaluated = -1, feasible = -1;
        int32_t count = 1;
        std::string reason; ///< Unschedulable: the scheduler's message (FailedScheduling wording)
        std::vector<std::pair<std::string, int32_t>> reasons; ///< or its reasons, given one by one
        std::string source = "kube-scheduler log"; ///< who decided
        uint32_t firstCandidate = 0, candidateCount = 0; ///< into candidates
        uint32_t firstReward = 0, rewardCount = 0; ///< into terms: the decision's reward by term
        std::string file;
        int64_t line = -1;
    };

    /// Text-format lines. klog's header has no year: a prefix's timestamp gives it, else `year`
    /// (a month going back, December to January, moves it on); header times are local to `zone`.
    Status addText(LineReader& reader, ImportContext& ctx, const LocalTimeZone& zone, int year);
    /// JSON-format lines (one object per line).
    Status addJson(LineReader& reader, ImportContext& ctx);
    /// A schedlab decision log (JSON Lines, docs/decision-log.md): its node and pod records go to
    /// `objects`, its decisions here (decision_log_reader.cpp).
    Status addDecisionLog(LineReader& reader, ImportContext& ctx, struct K8sObjects& objects);

    std::vector<std::string> pods, nodes, plugins;
    std::vector<Decision> decisions;
    std::vector<Candidate> candidates;
    std::vector<Term> terms;
    int64_t records = 0; ///< structured lines read
    int64_t scoreLines = 0;
    /// Text lines' decision records timed by a prefix's full timestamp, and by the klog header
    /// (month, day and time: the year assumed).
    int64_t prefixTimed = 0, headerTimed = 0;

private:
    /// Reads a decision log's decision records (decision_log_reader.cpp).
    struct DecisionRecords;
    struct PendingTerm {
        int32_t slot, plugin;
        double score;
    };
    struct Attempt {
        std::vector<Candidate> candidates; ///< firstTerm/termCount set when the attempt closes
        std::vector<PendingTerm> terms;
        bool finals = false; ///< final scores seen: the next plugin score starts a new attempt
        uint32_t id = 0; ///< tells its entries in m_slot from other attempts'
    };
    /// One record (text or JSON, already split into message and values).
    void record(double unixS, std::string_view message, std::string_view pod, std::string_view node, std::string_view plugin,
        std::string_view score, std::string_view err, std::string_view evaluated, std::string_view feasible,
        const std::string& file, int64_t line, ImportContext& ctx);
    int32_t intern(std::vector<std::string>& table, std::unordered_map<std::string, int32_t>& index, std::string_view name);
    int32_t internPod(std::string_view name) { return intern(pods, m_podIndex, name); }
    int32_t internNode(std::string_view name) { return intern(nodes, m_nodeIndex, name); }
    int32_t internPlugin(std::string_view name) { return intern(plugins, m_pluginIndex, name); }
    int32_t slotOf(int32_t pod, Attempt& a, int32_t node);
    void close(int32_t pod, Decision d);

    std::unordered_map<std::string, int32_t> m_podIndex, m_nodeIndex, m_pluginIndex;
    std::unordered_map<int32_t, Attempt> m_attempts; ///< by pod: the open scheduling cycle
    /// By node: (attempt id, candidate) for the attempt last indexed; another attempt's lines
    /// (interleaved pods) make it index that one again.
    std::vector<std::pair<uint32_t, int32_t>> m_slot;
    uint32_t m_indexed = 0, m_nextId = 1;
};

} // namespace schedlab::trace
