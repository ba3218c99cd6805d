#include "klog.h"

#include "rfc3339.h"

#include <cstdint>

namespace schedlab::trace {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

/// A klog header at `p`: "Lmmdd hh:mm:ss.uuuuuu".
bool headerAt(std::string_view s, std::size_t p)
{
    if (p + 21 > s.size())
        return false;
    const char l = s[p];
    if (l != 'I' && l != 'W' && l != 'E' && l != 'F')
        return false;
    for (std::size_t i : { 1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 17, 18, 19, 20 })
        if (!digit(s[p + i]))
            return false;
    return s[p + 5] == ' ' && s[p + 8] == ':' && s[p + 11] == ':' && s[p + 14] == '.';
}

/// Where the header starts: 0, or after a prefix of at most 160 bytes; npos when none.
std::size_t findHeader(std::string_view s)
{
    if (headerAt(s, 0))
        return 0;
    const std::size_t limit = std::min<std::size_t>(s.size(), 160);
    for (std::size_t p = 1; p < limit; ++p) // after a blank, or after grep -n's "1736:"
        if ((s[p - 1] == ' ' || (s[p - 1] == ':' && p >= 2 && digit(s[p - 2]))) && headerAt(s, p))
            return p;
    return std::string_view::npos;
}

int num(std::string_view s, std::size_t at, std::size_t n)
{
    int v = 0;
    for (std::size_t i = 0; i < n; ++i)
        v = v * 10 + (s[at + i] - '0');
    return v;
}

/// A Go-quoted string at s[i] == '"': its end (after the closing quote) and the unescaped text,
/// appended to `scratch` only when it has escapes. npos when it does not end on this line.
std::size_t quoted(std::string_view s, std::size_t i, std::string_view& out, std::string& scratch)
{
    const std::size_t start = i + 1;
    std::size_t j = start;
    bool escaped = false;
    for (; j < s.size() && s[j] != '"'; ++j)
        if (s[j] == '\\') {
            escaped = true;
            ++j;
        }
    if (j >= s.size())
        return std::string_view::npos;
    if (!escaped) {
        out = s.substr(start, j - start);
        return j + 1;
    }
    const std::size_t from = scratch.size();
    for (std::size_t k = start; k < j; ++k) {
        if (s[k] != '\\') {
            scratch += s[k];
            continue;
        }
        const char c = s[++k];
        switch (c) {
        case 'n': scratch += '\n'; break;
        case 't': scratch += '\t'; break;
        case 'r': scratch += '\r'; break;
        case '"': scratch += '"'; break;
        case '\\': scratch += '\\'; break;
        case 'x':
            if (k + 2 < j) {
                auto hex = [](char h) { return h <= '9' ? h - '0' : (h | 32) - 'a' + 10; };
                scratch += char(hex(s[k + 1]) * 16 + hex(s[k + 2]));
                k += 2;
            }
            break;
        default: // \u, \U and others: kept as written
            scratch += '\\';
            scratch += c;
        }
    }
    out = std::string_view(scratch).substr(from);
    return j + 1;
}

/// Appends code point `c` as UTF-8.
void appendUtf8(std::string& out, uint32_t c)
{
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

/// Four hex digits at s[at] as a number; -1 when they are not.
int32_t hex4(std::string_view s, std::size_t at)
{
    if (at + 4 > s.size())
        return -1;
    int32_t v = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
        const char h = s[i];
        const int d = digit(h) ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/// The JSON string starting at s[i] == '"', decoded into `out`; the index after its closing
/// quote, npos when it is cut or badly escaped.
std::size_t jsonString(std::string_view s, std::size_t i, std::string& out)
{
    for (++i; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"')
            return i + 1;
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= s.size())
            return std::string_view::npos;
        switch (s[i]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case '"': case '\\': case '/': out += s[i]; break;
        case 'u': {
            int32_t c1 = hex4(s, i + 1);
            if (c1 < 0)
                return std::string_view::npos;
            i += 4;
            if (c1 >= 0xD800 && c1 < 0xDC00 && i + 6 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u') {
                const int32_t c2 = hex4(s, i + 3);
                if (c2 >= 0xDC00 && c2 < 0xE000) {
                    c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
                    i += 6;
                }
            }
            appendUtf8(out, uint32_t(c1 >= 0xD800 && c1 < 0xE000 ? 0xFFFD : c1)); // a lone surrogate: U+FFFD
            break;
        }
        default: return std::string_view::npos;
        }
    }
    return std::string_view::npos;
}

} // namespace

/// After `"key"` at s[at]: blanks, ':', blanks; the index of the value's opening quote, npos when
/// the value is not a string.
static std::size_t stringValueAfter(std::string_view s, std::size_t at)
{
    while (at < s.size() && (s[at] == ' ' || s[at] == '\t'))
        ++at;
    if (at >= s.size() || s[at] != ':')
        return std::string_view::npos;
    ++at;
    while (at < s.size() && (s[at] == ' ' || s[at] == '\t'))
        ++at;
    return at < s.size() && s[at] == '"' ? at : std::string_view::npos;
}

bool unwrapDockerJsonLine(std::string_view s, std::string& out)
{
    // Docker writes "log" first ({"log":"...","stream":"stderr","time":"..."}); other JSON is not one.
    std::size_t i = 1;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    if (s.empty() || s[0] != '{' || s.substr(i, 5) != "\"log\"")
        return false;
    std::string log;
    i = stringValueAfter(s, i + 5);
    if (i == std::string_view::npos || (i = jsonString(s, i, log)) == std::string_view::npos)
        return false;
    std::string time;
    if (const std::size_t t = s.find("\"time\"", i); t != std::string_view::npos) {
        const std::size_t v = stringValueAfter(s, t + 6);
        if (v == std::string_view::npos || jsonString(s, v, time) == std::string_view::npos)
            time.clear();
    }
    while (!log.empty() && (log.back() == '\n' || log.back() == '\r'))
        log.pop_back();
    out = time.empty() ? log : time + " " + log;
    return true;
}

bool looksLikeKlog(std::string_view line) { return findHeader(line) != std::string_view::npos; }

KlogLine parseKlogLine(std::string_view s, KlogRecord& r, std::string& scratch)
{
    const std::size_t h = findHeader(s);
    if (h == std::string_view::npos)
        return KlogLine::NotKlog;
    scratch.clear();
    scratch.reserve(s.size()); // unescaped text is never longer: views into it stay valid
    r = KlogRecord {};
    if (h > 0) {
        const std::string_view prefix = s.substr(0, h);
        const std::size_t sp = prefix.find(' ');
        if (const auto t = parseRfc3339(prefix.substr(0, sp)))
            r.prefixUnixS = *t;
    }
    r.severity = s[h];
    r.month = num(s, h + 1, 2);
    r.day = num(s, h + 3, 2);
    r.secondOfDay = num(s, h + 6, 2) * 3600.0 + num(s, h + 9, 2) * 60.0 + num(s, h + 12, 2) + num(s, h + 15, 6) / 1e6;
    const std::size_t close = s.find("] ", h + 21);
    if (close == std::string_view::npos)
        return KlogLine::Truncated;
    std::size_t i = close + 2;
    if (i >= s.size() || s[i] != '"') {
        r.message = s.substr(std::min(i, s.size())); // the printf-style text, for older wordings
        return KlogLine::Unstructured;
    }
    i = quoted(s, i, r.message, scratch);
    if (i == std::string_view::npos)
        return KlogLine::Truncated;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ')
            ++i;
        if (i >= s.size())
            break;
        const std::size_t eq = s.find('=', i);
        if (eq == std::string_view::npos)
            return KlogLine::Truncated;
        const std::string_view key = s.substr(i, eq - i);
        i = eq + 1;
        std::string_view value;
        if (i < s.size() && s[i] == '"') {
            i = quoted(s, i, value, scratch);
            if (i == std::string_view::npos)
                return KlogLine::Truncated;
        } else if (i < s.size() && s[i] == '<') { // a multi-line value continues on the next lines
            value = "<multi-line>";
            i = s.size();
        } else {
            const std::size_t end = std::min(s.find(' ', i), s.size());
            value = s.substr(i, end - i);
            i = end;
        }
        r.values.emplace_back(key, value);
    }
    return KlogLine::Record;
}

} // namespace schedlab::trace
