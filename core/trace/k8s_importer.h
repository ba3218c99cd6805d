#pragma once
/// A Kubernetes cluster from what it wrote: node and pod objects and scheduling events (JSON, any
/// number of files, in any order), folded into one Trace in finish(). See core/trace/README.md
/// "Kubernetes".

#include "base/result.h"
#include "k8s_objects.h"
#include "kube_scheduler_log.h"
#include "text_buffer.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

class K8sImporter {
public:
    /// Reads one JSON file (nodes, pods, events or a mix) whole.
    Status addJson(LineReader& reader, ImportContext& ctx);
    /// Reads a kube-scheduler log: `json` for the JSON logging format, else klog text, whose
    /// header has no year: that of `modifiedUnixS` (the file's modification time) unless
    /// ImportOptions::logYear says.
    Status addSchedulerLog(LineReader& reader, ImportContext& ctx, bool json, double modifiedUnixS);
    /// Reads a schedlab decision log (decision_log_format.h): its nodes and pods join the objects, its
    /// decisions the scheduler log's.
    Status addDecisionLog(LineReader& reader, ImportContext& ctx);
    /// Reads a kube-scheduler-simulator recorder file (k8s_recorder.cpp): the recorded history of
    /// pods and nodes becomes their objects (arrival, binding, end from the records' times).
    Status addRecorderFile(LineReader& reader, ImportContext& ctx);
    /// Builds nodes, one single-task job per pod (submit = creation, logged start = the
    /// PodScheduled time on spec.nodeName, end = the last container's termination or the
    /// deletion; still running = to the latest time the dump shows) and the logged decisions of
    /// the Scheduled / FailedScheduling events.
    Status finish(Trace& trace, ImportContext& ctx);

private:
    /// The events' and the logs' decisions into trace.logged, in time order (k8s_logged.cpp). A
    /// pod the scheduler's log covers takes its decisions from the log (with scores), not from
    /// its events.
    /// Returns the logs' binds (task, Unix time): they time a pod's start to the microsecond.
    std::vector<std::pair<uint32_t, double>> foldLoggedDecisions(Trace& trace, ImportContext& ctx,
        const std::unordered_map<std::string, int32_t>& nodeIndex, const std::unordered_map<std::string, uint32_t>& podTask);
    K8sObjects m_objects;
    SchedulerLog m_log;
    bool m_hasLog = false;
    int m_logYear = 0; ///< the year klog text lines were read in (0 = none read)
    K8sJsonReader m_json;
    TextBuffer m_text; ///< reused file buffer
    std::vector<std::string> m_files;
};

} // namespace schedlab::trace
