#include "format_registry.h"

#include "fields.h"
#include "line_reader.h"

namespace schedlab::trace {

// Each format lives in its own files; this is where it is registered.
std::unique_ptr<TraceFormat> makeOpenbFormat();
std::unique_ptr<TraceFormat> makeSwfFormat();
std::unique_ptr<TraceFormat> makeGoogleFormat();
std::unique_ptr<TraceFormat> makeNativeFormat();
std::unique_ptr<TraceFormat> makeSlurmFormat();
std::unique_ptr<TraceFormat> makeLsfFormat();
std::unique_ptr<TraceFormat> makeK8sFormat();

const std::vector<std::unique_ptr<TraceFormat>>& traceFormats()
{
    static const std::vector<std::unique_ptr<TraceFormat>> formats = [] {
        std::vector<std::unique_ptr<TraceFormat>> v;
        v.push_back(makeOpenbFormat());
        v.push_back(makeSwfFormat());
        v.push_back(makeGoogleFormat());
        v.push_back(makeNativeFormat());
        v.push_back(makeSlurmFormat());
        v.push_back(makeLsfFormat());
        v.push_back(makeK8sFormat());
        return v;
    }();
    return formats;
}

const TraceFormat* traceFormat(const std::string& name)
{
    for (const auto& f : traceFormats())
        if (f->name() == name)
            return f.get();
    return nullptr;
}

bool FileHead::hasColumn(std::string_view name) const
{
    for (std::string_view f : commaFields)
        if (trimmed(f) == name)
            return true;
    return false;
}

Result<FileMatch> detectFileFromText(const std::string& head, const std::string& displayName)
{
    std::string_view text(head);
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    FileHead h;
    h.text = text;
    while (!text.empty()) { // the first non-blank line
        auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (!isBlank(line)) {
            h.firstLine = line;
            break;
        }
    }
    if (h.firstLine.empty())
        return makeError(ErrorCode::Empty, "file is empty", displayName);
    splitChar(h.firstLine, ',', h.commaFields);
    splitWhitespace(h.firstLine, h.spaceFields);
    FileMatch best;
    int bestScore = 0;
    std::string nearMiss;
    for (const auto& f : traceFormats()) {
        Detection d = f->detect(h);
        if (d.score > bestScore) {
            bestScore = d.score;
            best = { f.get(), std::move(d.kind) };
        } else if (d.score == 0 && nearMiss.empty()) {
            nearMiss = std::move(d.nearMiss);
        }
    }
    if (best.format)
        return best;
    if (!nearMiss.empty())
        return Error { ErrorCode::Format, nearMiss, displayName, 1, -1 };
    std::string list;
    const auto& all = traceFormats();
    for (std::size_t i = 0; i < all.size(); ++i)
        list += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i]->description();
    return Error { ErrorCode::Format, "unknown trace format: first line " + quoted(h.firstLine) + " is not " + list, displayName, 1, -1 };
}

Result<FileMatch> detectFile(const std::string& path)
{
    auto head = peekFile(path, 64 * 1024);
    if (!head)
        return head.error();
    return detectFileFromText(head.value(), baseName(path));
}

} // namespace schedlab::trace
