#include "import_context.h"

#include "fields.h"
#include "trace.h"

#include <algorithm>

namespace schedlab::trace {

bool ImportContext::tick(const LineReader& reader)
{
    const double done = double(bytesBefore + reader.fileBytesRead()) / double(bytesTotal > 0 ? bytesTotal : 1);
    progress.report(std::min(done, 1.0));
    return !cancel.isCancelled();
}

Error ImportContext::cancelledError(const LineReader& reader) const
{
    return Error { ErrorCode::Cancelled, "import cancelled", reader.displayName(), reader.lineNumber(), -1 };
}

std::optional<Error> ImportContext::tooManyTasks(const LineReader& reader, std::size_t tasks) const
{
    if (int64_t(tasks) <= options.maxTasks)
        return std::nullopt;
    return Error { ErrorCode::Range,
        "more than " + std::to_string(options.maxTasks) + " tasks; schedlab keeps traces in memory "
            "(about 150 bytes per task). Raise --max-tasks if the machine has the memory",
        reader.displayName(), reader.lineNumber(), -1 };
}

Error nothingImported(const std::string& none, const std::string& what, const std::string& rows,
    const std::vector<std::string>& files, const Diagnostics& diagnostics)
{
    std::string names;
    for (const std::string& f : files)
        names += (names.empty() ? "" : ", ") + f;
    if (diagnostics.kept().empty())
        return makeError(ErrorCode::Empty, none + " (" + names + ")", files.empty() ? std::string() : files.front());
    const Warning& w = diagnostics.kept().front();
    return Error { ErrorCode::Empty,
        what + ": every " + rows + " of " + names + " was rejected (" + std::to_string(diagnostics.total()) + " warnings); the first: "
            + (w.field.empty() ? "" : "field " + w.field + ": ") + w.message,
        w.file, w.line, -1 };
}

ColumnMap::ColumnMap(const std::vector<std::string_view>& header)
{
    for (std::string_view h : header)
        m_names.emplace_back(trimmed(h));
}

int ColumnMap::index(std::string_view name) const
{
    for (std::size_t i = 0; i < m_names.size(); ++i)
        if (m_names[i] == name)
            return int(i);
    return -1;
}

std::string ColumnMap::joined() const
{
    std::string out;
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        if (i)
            out += ',';
        out += m_names[i];
    }
    return out;
}

std::string_view RowReader::text(int col) const
{
    if (col < 0 || std::size_t(col) >= m_fields.size())
        return {};
    return m_fields[std::size_t(col)];
}

void RowReader::fail(std::string category, std::string_view field, std::string message)
{
    if (!m_ok)
        return; // one warning per bad row is enough
    m_ok = false;
    m_ctx.diagnostics.warn(std::move(category), m_file, m_line, std::string(field), std::move(message));
}

void RowReader::warn(std::string category, std::string_view field, std::string message)
{
    m_ctx.diagnostics.warn(std::move(category), m_file, m_line, std::string(field), std::move(message));
}

int64_t RowReader::integer(
    int col, std::string_view name, bool required, int64_t fallback, int64_t minValue, int64_t maxValue)
{
    std::string_view t = text(col);
    int64_t v = 0;
    ParseStatus st = parseInt64(t, v);
    if (st == ParseStatus::Empty && !required)
        return fallback;
    if (st != ParseStatus::Ok) {
        fail(st == ParseStatus::Empty ? "missing-value" : "bad-number", name, parseMessage(st, t));
        return fallback;
    }
    if (v < minValue) {
        fail("out-of-range", name, quoted(t) + " is negative or below " + std::to_string(minValue));
        return fallback;
    }
    if (v > maxValue) {
        fail("out-of-range", name, quoted(t) + " is larger than " + std::to_string(maxValue));
        return fallback;
    }
    return v;
}

double RowReader::real(int col, std::string_view name, bool required, double fallback, double minValue)
{
    std::string_view t = text(col);
    double v = 0;
    ParseStatus st = parseDouble(t, v);
    if (st == ParseStatus::Empty && !required)
        return fallback;
    if (st != ParseStatus::Ok) {
        fail(st == ParseStatus::Empty ? "missing-value" : "bad-number", name, parseMessage(st, t));
        return fallback;
    }
    if (v < minValue) {
        fail("out-of-range", name, quoted(t) + " is below " + formatDouble(minValue));
        return fallback;
    }
    return v;
}

int64_t RowReader::scaled(int col, std::string_view name, bool required, int64_t fallback, int decimals)
{
    std::string_view t = text(col);
    int64_t v = 0;
    ParseStatus st = parseScaledDecimal(t, decimals, v);
    if (st == ParseStatus::Empty && !required)
        return fallback;
    if (st != ParseStatus::Ok) {
        fail(st == ParseStatus::Empty ? "missing-value" : "bad-number", name, parseMessage(st, t));
        return fallback;
    }
    if (v < 0) {
        fail("out-of-range", name, quoted(t) + " is negative");
        return fallback;
    }
    return v;
}

std::string RowReader::utf8Text(int col, std::string_view name)
{
    std::string_view t = trimmed(text(col));
    if (isValidUtf8(t))
        return std::string(t);
    warn("bad-encoding", name, quoted(t) + " is not valid UTF-8; invalid bytes replaced by '?'");
    return sanitizeUtf8(t);
}

FeasibilityChecker::FeasibilityChecker(const Trace& trace)
{
    for (const Node& n : trace.nodes) {
        Shape s { n.cpuMilli, n.memMiB, n.numGpu, n.gpuModel };
        if (std::find(m_shapes.begin(), m_shapes.end(), s) == m_shapes.end())
            m_shapes.push_back(s);
    }
}

bool FeasibilityChecker::canEverHost(const TaskRequest& r) const
{
    for (const Shape& s : m_shapes) {
        if (r.cpuMilli > s.cpuMilli || r.memMiB > s.memMiB)
            continue;
        if (r.needsGpu()) {
            if (r.numGpu > s.numGpu)
                continue;
            if (r.gpuModelMask != 0 && (s.gpuModel < 0 || !(r.gpuModelMask & (1u << s.gpuModel))))
                continue;
        }
        return true;
    }
    return false;
}

void recordImportOptions(const ImportOptions& o, std::map<std::string, std::string>& m)
{
    if (o.procsPerNode > 0)
        m["import.procsPerNode"] = std::to_string(o.procsPerNode);
    if (o.timezone != "UTC")
        m["import.timezone"] = o.timezone;
    if (!o.sacctFields.empty())
        m["import.sacctFields"] = o.sacctFields;
    if (o.sacctDelimiter != 0)
        m["import.sacctDelimiter"] = std::string(1, o.sacctDelimiter);
    if (o.logYear > 0 && !m.count("import.logYear"))
        m["import.logYear"] = std::to_string(o.logYear);
}

ImportOptions importOptionsFromMetadata(const std::map<std::string, std::string>& m)
{
    ImportOptions o;
    auto get = [&](const char* key) -> const std::string* {
        const auto it = m.find(key);
        return it == m.end() ? nullptr : &it->second;
    };
    int64_t v = 0;
    if (const std::string* s = get("import.procsPerNode"); s && parseInt64(*s, v) == ParseStatus::Ok && v > 0)
        o.procsPerNode = int(v);
    if (const std::string* s = get("import.timezone"))
        o.timezone = *s;
    if (const std::string* s = get("import.sacctFields"))
        o.sacctFields = *s;
    if (const std::string* s = get("import.sacctDelimiter"); s && s->size() == 1)
        o.sacctDelimiter = (*s)[0];
    if (const std::string* s = get("import.logYear"); s && parseInt64(*s, v) == ParseStatus::Ok && v > 0)
        o.logYear = int(v);
    return o;
}

} // namespace schedlab::trace
