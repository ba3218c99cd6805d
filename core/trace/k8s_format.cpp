// The Kubernetes format object: JSON objects (`kubectl get nodes/pods -o json`, Sonobuoy's bare
// arrays) and events (core/v1 and events.k8s.io/v1), recognised by a JSON start and the keys
// Kubernetes objects carry. All files of one cluster import together (k8s_importer.h).

#include "k8s_importer.h"
#include "trace_format.h"

#include "fields.h"

namespace schedlab::trace {

namespace {

class K8sImport final : public FormatImport {
public:
    Status add(const LoadedFile&, LineReader& reader, Trace&, ImportContext& ctx) override { return m_importer.addJson(reader, ctx); }
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
