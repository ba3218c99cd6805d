#pragma once
/// Splitting lines into fields and parsing numbers without locale or allocation, with messages that
/// quote the offending text safely (non-printable and non-UTF-8 bytes escaped).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

/// Splits on a single-character separator; empty fields are kept. Reuses `out`.
void splitChar(std::string_view line, char sep, std::vector<std::string_view>& out);
/// Splits on runs of spaces and tabs; leading and trailing blanks are ignored. Reuses `out`.
void splitWhitespace(std::string_view line, std::vector<std::string_view>& out);
/// Removes leading and trailing spaces and tabs.
std::string_view trimmed(std::string_view s);
/// True when the line has nothing but blanks.
bool isBlank(std::string_view s);

/// Outcome of parsing a number field.
enum class ParseStatus { Ok, Empty, NotANumber, OutOfRange, NotFinite };

/// Parses a base-10 integer (optional sign, blanks around). "12.0" is accepted when exact.
ParseStatus parseInt64(std::string_view text, int64_t& out);
/// Parses a decimal or exponent floating-point number; NaN and infinities are NotFinite.
ParseStatus parseDouble(std::string_view text, double& out);
/// Parses a decimal fraction exactly into an integer scaled by 10^decimals (rounding the rest),
/// e.g. ("0.0001554", 9) -> 155400. Used for Google's normalised requests.
ParseStatus parseScaledDecimal(std::string_view text, int decimals, int64_t& out);

/// 'text' in quotes, at most 40 characters, with control and non-UTF-8 bytes as \xNN.
std::string quoted(std::string_view text);
/// Message for a failed parse: "'abc' is not a number", "value is empty", ...
std::string parseMessage(ParseStatus status, std::string_view text);
/// True when the bytes are valid UTF-8.
bool isValidUtf8(std::string_view text);
/// Copy with invalid UTF-8 sequences replaced by '?'.
std::string sanitizeUtf8(std::string_view text);
/// `key` as one JSON pointer segment (RFC 6901: '~' -> ~0, '/' -> ~1).
std::string pointerKey(std::string_view key);

/// Shortest text that parses back to exactly the same double.
std::string formatDouble(double value);
/// `%`, `,`, CR and LF as `%25`, `%2C`, `%0D`, `%0A` (the schedlab trace format's text fields).
std::string percentEscape(std::string_view s);
/// The reverse; false on a malformed escape.
bool percentUnescape(std::string_view s, std::string& out);

} // namespace schedlab::trace
