#pragma once
/// Where a JSON document stopped the parser. simdjson reports what went wrong (not UTF-8, a
/// control character, an unfinished structure) but not where; for a file of megabytes "not valid
/// JSON" is not enough to fix it. This finds the spot for the errors that have one.

#include "base/result.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace schedlab::trace {

struct JsonErrorSpot {
    int64_t line = -1, column = -1; ///< 1-based; -1 = not found
    int64_t byte = -1; ///< 0-based offset
    std::string what; ///< "a byte that is not UTF-8 (0xff)", "a NUL byte", "the end: the document is cut short"
};

/// The spot of error `e` in `text`: the first byte that is not UTF-8 (for UTF8_ERROR), the first
/// NUL or other control character (a NUL anywhere, UNESCAPED_CHARS), or the end of a document
/// whose last character does not close it (a file cut short). line = -1 when none applies.
JsonErrorSpot locateJsonError(std::string_view text, simdjson::error_code e);

/// `error` with the spot of `e` in `text` added (line, column, "it stops at ..."), when it has one
/// and `error` has no line yet.
Error withJsonErrorSpot(Error error, std::string_view text, simdjson::error_code e);

/// Why one line of a JSON Lines file is not a record (a warning category and its message): a
/// number JSON cannot hold (1e309, 2^64, NaN), not UTF-8, a control character, a bare word, or
/// what the parser stopped at. `line` is the line's text.
std::pair<const char*, std::string> whyNotJson(simdjson::error_code e, std::string_view line);

} // namespace schedlab::trace
