// The Kubernetes format object: JSON objects (`kubectl get nodes/pods -o json`, Sonobuoy's bare
// arrays) and events (core/v1 and events.k8s.io/v1), recognised by a JSON start and the keys
// Kubernetes objects carry; kube-scheduler logs (klog text or JSON lines with scheduling
// messages); schedlab decision logs (a JSON Lines header naming schedlab.decision-log). All files of one cluster import together (k8s_importer.h).

#include "k8s_importer.h"
#include "trace_format.h"

#include "fields.h"
#include "klog.h"

#include <sys/stat.h>

namespace schedlab::trace {

namespace {

class K8sImport final : public FormatImport {
public:
    Status add(const LoadedFile& file, LineReader& reader, Trace&, ImportContext& ctx) override
    {
        if (file.kind == "decision-log")
            return m_importer.addDecisionLog(reader, ctx);
        if (file.kind == "simulator-record")
            return m_importer.addRecorderFile(reader, ctx);
        if (file.kind == "kube-scheduler-log" || file.kind == "kube-scheduler-log-json") {
            struct stat st {};
            const double modified = ::stat(file.readPath.c_str(), &st) == 0 ? double(st.st_mtime) : 0.0;
            return m_importer.addSchedulerLog(reader, ctx, file.kind == "kube-scheduler-log-json", modified);
        }
        return m_importer.addJson(reader, ctx);
    }
    Status finish(Trace& trace, ImportContext& ctx) override { return m_importer.finish(trace, ctx); }

private:
    K8sImporter m_importer;
};

bool has(std::string_view text, std::string_view key) { return text.find(key) != std::string_view::npos; }

class K8sFormat final : public TraceFormat {
public:
    std::string name() const override { return "kubernetes"; }
    std::string description() const override { return "Kubernetes JSON (kubectl get nodes/pods/events -o json)"; }
    Detection detect(const FileHead& h) const override
    {
        const std::string_view t = trimmed(h.text);
        // schedlab decision logs (decision_log_format.h): a header line naming the schema.
        if (has(h.firstLine, "\"schema\"") && has(h.firstLine, "schedlab.decision-log/"))
            return { 95, "decision-log", {} };
        // kube-scheduler-simulator's recorder: {"time":..,"event":"Add|Update|Delete","resource":{..}}
        // per line, or a JSON array of them.
        if ((t.substr(0, 1) == "{" || t.substr(0, 1) == "[") && has(t.substr(0, 200), "\"time\"")
            && (has(t.substr(0, 200), "\"event\":\"Add\"") || has(t.substr(0, 200), "\"event\":\"Update\"")
                || has(t.substr(0, 200), "\"event\":\"Delete\""))
            && has(t, "\"resource\""))
            return { 90, "simulator-record", {} };
        // kube-scheduler logs: klog text lines, or JSON lines with "ts" and "msg".
        const bool schedulerWords = has(t, "Successfully bound pod to node") || has(t, "scored node for pod")
            || has(t, "Unable to schedule pod") || has(t, "kube-scheduler") || has(t, "schedule_one.go") || has(t, "scheduler.go");
        std::string docker; // a Docker json-file line carrying a klog line
        if (looksLikeKlog(h.firstLine) || (unwrapDockerJsonLine(h.firstLine, docker) && looksLikeKlog(docker)))
            return schedulerWords ? Detection { 80, "kube-scheduler-log", {} }
                                  : Detection { 0, {}, "a klog (Kubernetes component) log, but not kube-scheduler's: no scheduling line in its first 64 KiB" };
        if (schedulerWords && has(h.firstLine, ".go:") && has(h.firstLine, "] "))
            return { 0, {}, "kube-scheduler log lines without klog's header (\"I0815 10:00:00.000000 1 \" before the source file): "
                            "the times of its decisions are unknown; give the log as kube-scheduler wrote it (kubectl logs, or the "
                            "node's /var/log/pods file): " + quoted(h.firstLine) };
        if (!t.empty() && t.front() == '{' && has(h.firstLine, "\"msg\"") && (has(h.firstLine, "\"ts\"") || has(h.firstLine, "\"caller\"")))
            return schedulerWords ? Detection { 85, "kube-scheduler-log-json", {} }
                                  : Detection { 0, {}, "JSON log lines, but not kube-scheduler's: no scheduling line in its first 64 KiB" };
        if (t.empty() || (t.front() != '{' && t.front() != '['))
            return {};
        const bool metadata = has(t, "\"metadata\"");
        if (metadata && (has(t, "\"involvedObject\"") || has(t, "\"regarding\"")))
            return { 85, "k8s-events", {} };
        if (metadata
            && (has(t, "\"containers\"") || has(t, "\"nodeInfo\"") || has(t, "\"allocatable\"") || has(t, "\"kind\": \"List\"")
                || has(t, "\"kind\":\"List\"") || has(t, "\"kind\": \"Pod\"") || has(t, "\"kind\":\"Pod\"")
                || has(t, "\"kind\": \"Node\"") || has(t, "\"kind\":\"Node\"")))
            return { 85, "k8s-objects", {} };
        if (metadata)
            return { 0, {}, "JSON with Kubernetes metadata, but neither nodes, pods nor events in its first 64 KiB" };
        return {};
    }
    Status arrange(std::vector<LoadedFile>&) const override { return {}; } // folded in finish(): any order
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<K8sImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeK8sFormat() { return std::make_unique<K8sFormat>(); }

} // namespace schedlab::trace
