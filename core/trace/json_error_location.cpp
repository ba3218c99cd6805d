#include "json_error_location.h"

#include <cstdio>

namespace schedlab::trace {

namespace {

/// Offset of the first byte that does not start or continue a valid UTF-8 sequence; npos if none.
std::size_t firstInvalidUtf8(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
        if (extra < 0 || c == 0xC0 || c == 0xC1 || c > 0xF4)
            return i;
        if (i + std::size_t(extra) >= s.size())
            return i; // a sequence cut by the end
        for (int k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 0x2)
                return i;
        i += std::size_t(extra) + 1;
    }
    return std::string_view::npos;
}

/// Offset of the first control character other than tab, newline and carriage return.
std::size_t firstControl(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return i;
    }
    return std::string_view::npos;
}

JsonErrorSpot spotAt(std::string_view text, std::size_t at, std::string what)
{
    JsonErrorSpot s;
    s.byte = int64_t(at);
    s.line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < at && i < text.size(); ++i)
        if (text[i] == '\n') {
            ++s.line;
            lineStart = i + 1;
        }
    s.column = int64_t(at - lineStart) + 1;
    s.what = std::move(what);
    return s;
}

} // namespace

JsonErrorSpot locateJsonError(std::string_view text, simdjson::error_code e)
{
    if (e == simdjson::SUCCESS)
        return {};
    if (e == simdjson::UTF8_ERROR)
        if (const std::size_t at = firstInvalidUtf8(text); at != std::string_view::npos) {
            char what[64];
            std::snprintf(what, sizeof what, "a byte that is not UTF-8 (0x%02x)", static_cast<unsigned char>(text[at]));
            return spotAt(text, at, what);
        }
    if (const std::size_t at = firstControl(text); at != std::string_view::npos) {
        const unsigned char c = static_cast<unsigned char>(text[at]);
        char what[64];
        std::snprintf(what, sizeof what, c == 0 ? "a NUL byte" : "a control character (0x%02x)", c);
        return spotAt(text, at, what);
    }
    std::size_t end = text.size();
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == '\t'))
        --end;
    if (end > 0 && text[end - 1] != '}' && text[end - 1] != ']')
        return spotAt(text, end, "the end: the document is cut short");
    return {};
}

Error withJsonErrorSpot(Error error, std::string_view text, simdjson::error_code e)
{
    const JsonErrorSpot spot = locateJsonError(text, e);
    if (spot.line > 0 && error.line < 0) {
        error.message += "; it stops at " + spot.what + " (byte " + std::to_string(spot.byte) + ")";
        error.line = spot.line;
        error.column = int(spot.column);
    }
    return error;
}

std::pair<const char*, std::string> whyNotJson(simdjson::error_code e, std::string_view line)
{
    auto bare = [&](std::string_view word) { // NaN / Infinity as a value (":NaN", ": -Infinity")
        for (std::size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
            std::size_t b = at;
            while (b > 0 && (line[b - 1] == ' ' || line[b - 1] == '-' || line[b - 1] == '+'))
                --b;
            if (b > 0 && (line[b - 1] == ':' || line[b - 1] == ',' || line[b - 1] == '['))
                return true;
        }
        return false;
    };
    if (e != simdjson::SUCCESS && (bare("NaN") || bare("Infinity")))
        return { "bad-number", "NaN or Infinity, which JSON has no number for" };
    switch (e) {
    case simdjson::SUCCESS:
        return { "bad-record", "a JSON value but not an object" };
    case simdjson::UTF8_ERROR:
        return { "bad-encoding", "not valid UTF-8" };
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
        return { "bad-number", "a number JSON cannot hold (out of range, like 1e309 or 2^64, or malformed)" };
    case simdjson::UNESCAPED_CHARS:
        return { "bad-encoding", "a control character (such as NUL) inside a string" };
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
    case simdjson::T_ATOM_ERROR:
        return { "bad-record", "a bare word that is not true, false or null (NaN and Infinity are not JSON)" };
    default:
        return { "bad-record", std::string("not a JSON object (cut mid-way?): ") + simdjson::error_message(e) };
    }
}

} // namespace schedlab::trace
