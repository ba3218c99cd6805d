#include "klog.h"

#include "rfc3339.h"

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
    for (std::size_t p = 1; p < limit; ++p)
        if (s[p - 1] == ' ' && headerAt(s, p))
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

} // namespace

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
    if (i >= s.size() || s[i] != '"')
        return KlogLine::Unstructured;
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
