#pragma once
/// Lines of Kubernetes component logs (kube-scheduler's), in klog's text format
///   I0317 10:12:21.773142       1 schedule_one.go:304] "Successfully bound pod to node" pod="ns/p" node="n1" evaluatedNodes=3 feasibleNodes=1
/// with or without a prefix that carries the year (a container runtime's "2025-03-17T10:12:21.773520512Z stderr F ",
/// `kubectl logs --timestamps`' "2025-03-17T10:12:21.773520512Z ", journald's "May 21 20:52:25 host kube-scheduler[91664]: "),
/// or a `grep -n` prefix ("1736:" or "file:1736:"), or wrapped in Docker's JSON (unwrapDockerJsonLine),
/// and in the JSON logging format
///   {"ts":1742206341.773,"caller":"schedule_one.go:304","msg":"Successfully bound pod to node","v":2,"pod":{"name":"p","namespace":"ns"},"node":"n1"}.
/// Structured messages only (quoted message, then key=value); printf-style lines are not records.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

struct KlogRecord {
    char severity = 'I'; ///< I, W, E, F ('I' for JSON lines)
    int month = 0, day = 0; ///< from the klog header (text format); 0 in JSON lines
    double secondOfDay = 0; ///< from the klog header, local time
    double prefixUnixS = -1; ///< a full timestamp: an RFC 3339 prefix, or JSON's ts; -1 = none
    std::string_view message;
    /// Keys and values in order; a quoted value unescaped; KObj (JSON {"name","namespace"})
    /// rendered "namespace/name" as in the text format.
    std::vector<std::pair<std::string_view, std::string_view>> values;
    std::string_view value(std::string_view key) const
    {
        for (const auto& [k, v] : values)
            if (k == key)
                return v;
        return {};
    }
};

/// Why a line is not a record.
enum class KlogLine {
    Record, ///< parsed
    NotKlog, ///< no klog header (a continuation line of a multi-line record, other text)
    Unstructured, ///< a klog line with a printf-style message (in KlogRecord::message, unparsed)
    Truncated, ///< cut mid-way (an unterminated quoted value)
};

/// Parses a text-format line. String views point into `line` or into `scratch` (unescaped
/// values); both must outlive the record.
KlogLine parseKlogLine(std::string_view line, KlogRecord& out, std::string& scratch);

/// Whether a line starts (after an optional prefix) with a klog header.
bool looksLikeKlog(std::string_view line);

/// A line of Docker's json-file log driver, {"log":"I0815 ...\n","stream":"stderr","time":"RFC 3339"}
/// (what /var/lib/docker/containers/ID/ID-json.log holds), as the text line it carries behind its
/// time: "2023-08-15T02:00:00.1Z I0815 ...". False (out untouched) when `line` is not one.
bool unwrapDockerJsonLine(std::string_view line, std::string& out);

} // namespace schedlab::trace
