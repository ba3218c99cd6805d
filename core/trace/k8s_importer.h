#pragma once
/// A Kubernetes cluster from what it wrote: node and pod objects and scheduling events (JSON, any
/// number of files, in any order), folded into one Trace in finish(). See core/trace/README.md
/// "Kubernetes".

#include "base/result.h"
#include "k8s_objects.h"
#include "text_buffer.h"

#include <string>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

class K8sImporter {
public:
    /// Reads one JSON file (nodes, pods, events or a mix) whole.
    Status addJson(LineReader& reader, ImportContext& ctx);
    /// Builds nodes, one single-task job per pod (submit = creation, logged start = the
    /// PodScheduled time on spec.nodeName, end = the last container's termination or the
    /// deletion; still running = to the latest time the dump shows) and the logged decisions of
    /// the Scheduled / FailedScheduling events.
    Status finish(Trace& trace, ImportContext& ctx);

private:
    K8sObjects m_objects;
    K8sJsonReader m_json;
    TextBuffer m_text; ///< reused file buffer
    std::vector<std::string> m_files;
};

} // namespace schedlab::trace
