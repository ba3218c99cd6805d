#include "fields.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace schedlab::trace {

void splitChar(std::string_view line, char sep, std::vector<std::string_view>& out)
{
    out.clear();
    std::size_t start = 0;
    for (;;) {
        const void* hit = std::memchr(line.data() + start, sep, line.size() - start);
        if (!hit) {
            out.push_back(line.substr(start));
            return;
        }
        std::size_t pos = std::size_t(static_cast<const char*>(hit) - line.data());
        out.push_back(line.substr(start, pos - start));
        start = pos + 1;
    }
}

void splitWhitespace(std::string_view line, std::vector<std::string_view>& out)
{
    out.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= n)
            break;
        std::size_t start = i;
        while (i < n && line[i] != ' ' && line[i] != '\t')
            ++i;
        out.push_back(line.substr(start, i - start));
    }
}

std::string_view trimmed(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t'))
        ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
        --e;
    return s.substr(b, e - b);
}

bool isBlank(std::string_view s) { return trimmed(s).empty(); }

ParseStatus parseInt64(std::string_view text, int64_t& out)
{
    std::string_view t = trimmed(text);
    if (t.empty())
        return ParseStatus::Empty;
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (*first == '+')
        ++first;
    auto [ptr, ec] = std::from_chars(first, last, out);
    if (ec == std::errc::result_out_of_range)
        return ParseStatus::OutOfRange;
    if (ec != std::errc() || ptr == first)
        return ParseStatus::NotANumber;
    if (ptr == last)
        return ParseStatus::Ok;
    // Accept an exact decimal like "12.0" or "12.00" for integer fields.
    if (*ptr == '.') {
        const char* p = ptr + 1;
        while (p < last && *p == '0')
            ++p;
        if (p == last)
            return ParseStatus::Ok;
    }
    return ParseStatus::NotANumber;
}

ParseStatus parseDouble(std::string_view text, double& out)
{
    std::string_view t = trimmed(text);
    if (t.empty())
        return ParseStatus::Empty;
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (*first == '+')
        ++first;
    // Fast path: plain integers (most SWF and openb fields) without from_chars' generality.
    {
        const char* p = first;
        const bool negative = p < last && *p == '-';
        if (negative)
            ++p;
        if (p < last && last - p <= 15) {
            int64_t v = 0;
            const char* q = p;
            while (q < last && *q >= '0' && *q <= '9')
                v = v * 10 + (*q++ - '0');
            if (q == last) {
                out = double(negative ? -v : v); // exact: at most 15 digits
                return ParseStatus::Ok;
            }
        }
    }
    // from_chars would accept "nan"/"inf"; a time or size never is.
    if (first < last && (*first == 'n' || *first == 'N' || *first == 'i' || *first == 'I'))
        return ParseStatus::NotFinite;
    if (last - first > 1 && *first == '-' && (first[1] == 'n' || first[1] == 'N' || first[1] == 'i' || first[1] == 'I'))
        return ParseStatus::NotFinite;
    auto [ptr, ec] = std::from_chars(first, last, out, std::chars_format::general);
    if (ec == std::errc::result_out_of_range)
        return ParseStatus::OutOfRange;
    if (ec != std::errc() || ptr != last)
        return ParseStatus::NotANumber;
    if (!std::isfinite(out))
        return ParseStatus::NotFinite;
    return ParseStatus::Ok;
}

ParseStatus parseScaledDecimal(std::string_view text, int decimals, int64_t& out)
{
    std::string_view t = trimmed(text);
    if (t.empty())
        return ParseStatus::Empty;
    std::size_t i = 0;
    bool negative = false;
    if (t[i] == '-' || t[i] == '+') {
        negative = t[i] == '-';
        ++i;
    }
    bool sawDigit = false;
    __int128 value = 0;
    int fracDigits = 0;
    bool inFraction = false;
    bool roundUp = false;
    for (; i < t.size(); ++i) {
        char c = t[i];
        if (c == '.' && !inFraction) {
            inFraction = true;
            continue;
        }
        if (c == 'e' || c == 'E') {
            // Exponent notation: fall back to double (rare in these traces).
            double d = 0;
            ParseStatus st = parseDouble(t, d);
            if (st != ParseStatus::Ok)
                return st;
            double scaled = std::round(d * std::pow(10.0, decimals));
            if (!(std::fabs(scaled) < 9.2e18))
                return ParseStatus::OutOfRange;
            out = int64_t(scaled);
            return ParseStatus::Ok;
        }
        if (c < '0' || c > '9')
            return ParseStatus::NotANumber;
        sawDigit = true;
        if (inFraction) {
            if (fracDigits == decimals) {
                if (fracDigits == decimals && !roundUp && c >= '5')
                    roundUp = true;
                ++fracDigits;
                continue;
            }
            if (fracDigits > decimals)
                continue;
            ++fracDigits;
        }
        value = value * 10 + (c - '0');
        if (value > (__int128(1) << 62))
            return ParseStatus::OutOfRange;
    }
    if (!sawDigit)
        return ParseStatus::NotANumber;
    for (int d = std::min(fracDigits, decimals); d < decimals; ++d) {
        value *= 10;
        if (value > (__int128(1) << 62))
            return ParseStatus::OutOfRange;
    }
    if (roundUp)
        value += 1;
    out = int64_t(negative ? -value : value);
    return ParseStatus::Ok;
}

namespace {
// Length of the valid UTF-8 sequence at s[i], 0 if invalid.
std::size_t utf8SequenceLength(std::string_view s, std::size_t i)
{
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    std::size_t len = 0;
    unsigned cp = 0;
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (std::size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    // Reject overlong forms, surrogates and out-of-range code points.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}
} // namespace

std::string pointerKey(std::string_view key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

bool isValidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        std::size_t len = utf8SequenceLength(text, i);
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

std::string sanitizeUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::size_t len = utf8SequenceLength(text, i);
        if (len == 0) {
            out += '?';
            ++i;
        } else {
            out.append(text.substr(i, len));
            i += len;
        }
    }
    return out;
}

std::string quoted(std::string_view text)
{
    constexpr std::size_t kMax = 40;
    std::string out = "'";
    std::size_t shown = 0;
    for (std::size_t i = 0; i < text.size() && shown < kMax;) {
        std::size_t len = utf8SequenceLength(text, i);
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (len == 0 || (len == 1 && (c < 0x20 || c == 0x7F))) {
            static const char* hex = "0123456789ABCDEF";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
        } else {
            out.append(text.substr(i, len));
            i += len;
        }
        ++shown;
    }
    if (text.size() > 0 && shown >= kMax)
        out += "...";
    out += "'";
    return out;
}

std::string parseMessage(ParseStatus status, std::string_view text)
{
    switch (status) {
    case ParseStatus::Ok: return "ok";
    case ParseStatus::Empty: return "value is empty";
    case ParseStatus::NotANumber: return quoted(text) + " is not a number";
    case ParseStatus::OutOfRange: return quoted(text) + " is out of range";
    case ParseStatus::NotFinite: return quoted(text) + " is not a finite number";
    }
    return "invalid";
}

std::string formatDouble(double value)
{
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    if (ec != std::errc())
        return "nan";
    return std::string(buf, ptr);
}

std::string percentEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == '%' || c == ',' || c == '\n' || c == '\r') {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[(static_cast<unsigned char>(c) >> 4) & 15];
            out += hex[static_cast<unsigned char>(c) & 15];
        } else {
            out += c;
        }
    }
    return out;
}

bool percentUnescape(std::string_view s, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        auto hexval = [](char c) -> int {
            if (c >= '0' && c <= '9')
                return c - '0';
            if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
            if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
            return -1;
        };
        if (i + 2 >= s.size())
            return false;
        int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
        if (hi < 0 || lo < 0)
            return false;
        out += char(hi * 16 + lo);
        i += 2;
    }
    return true;
}

} // namespace schedlab::trace
