#include "format_detector.h"

#include "fields.h"
#include "line_reader.h"
#include "native_format.h"

#include <vector>

namespace schedlab::trace {

const char* fileKindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Native: return "schedlab";
    case FileKind::OpenbNodes: return "openb-nodes";
    case FileKind::OpenbPods: return "openb-pods";
    case FileKind::Swf: return "swf";
    case FileKind::GoogleMachineEvents: return "google-machine-events";
    case FileKind::GoogleJobEvents: return "google-job-events";
    case FileKind::GoogleTaskEvents: return "google-task-events";
    }
    return "unknown";
}

namespace {
bool allNumericOrEmpty(const std::vector<std::string_view>& fields, std::initializer_list<int> cols)
{
    for (int c : cols) {
        if (std::size_t(c) >= fields.size())
            return false;
        std::string_view f = trimmed(fields[std::size_t(c)]);
        double d = 0;
        if (!f.empty() && parseDouble(f, d) != ParseStatus::Ok)
            return false;
    }
    return true;
}
} // namespace

Result<FileKind> detectFileKindFromText(const std::string& head, const std::string& displayName)
{
    std::string_view text(head);
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    // First non-blank line.
    std::string_view first;
    while (!text.empty()) {
        auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (!isBlank(line)) {
            first = line;
            break;
        }
    }
    if (first.empty())
        return makeError(ErrorCode::Empty, "file is empty", displayName);
    if (first == kNativeMagic)
        return FileKind::Native;
    std::string_view t = trimmed(first);
    if (t[0] == ';')
        return FileKind::Swf;
    std::vector<std::string_view> fields;
    splitChar(first, ',', fields);
    auto has = [&](std::string_view name) {
        for (std::string_view f : fields)
            if (trimmed(f) == name)
                return true;
        return false;
    };
    if (has("sn") && has("cpu_milli"))
        return FileKind::OpenbNodes;
    if (has("name") && has("cpu_milli") && (has("num_gpu") || has("gpu_milli")))
        return FileKind::OpenbPods;
    if (fields.size() == 13 && allNumericOrEmpty(fields, { 0, 1, 2, 3, 4, 5, 7, 8 }))
        return FileKind::GoogleTaskEvents;
    if (fields.size() == 8 && allNumericOrEmpty(fields, { 0, 1, 2, 3, 5 }))
        return FileKind::GoogleJobEvents;
    if (fields.size() == 6 && allNumericOrEmpty(fields, { 0, 1, 2, 4, 5 }))
        return FileKind::GoogleMachineEvents;
    std::vector<std::string_view> ws;
    splitWhitespace(first, ws);
    if (ws.size() >= 18 && fields.size() == 1) {
        bool numeric = true;
        for (std::size_t i = 0; i < 18 && numeric; ++i) {
            double d = 0;
            numeric = parseDouble(ws[i], d) == ParseStatus::Ok;
        }
        if (numeric)
            return FileKind::Swf;
    }
    if (fields.size() > 1 && (has("cpu_milli") || has("sn") || has("name")))
        return Error { ErrorCode::Format,
            "looks like an openb CSV but the header lacks required columns (header is " + quoted(first) + ")",
            displayName, 1, -1 };
    return Error { ErrorCode::Format,
        "unknown trace format: first line " + quoted(first)
            + " is not an openb header, an SWF line, Google 2011 events or a schedlab trace",
        displayName, 1, -1 };
}

Result<FileKind> detectFileKind(const std::string& path)
{
    auto head = peekFile(path, 64 * 1024);
    if (!head)
        return head.error();
    return detectFileKindFromText(head.value(), baseName(path));
}

} // namespace schedlab::trace
