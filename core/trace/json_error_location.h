#pragma once
/// Where a JSON document stopped the parser. simdjson reports what went wrong (not UTF-8, a
/// control character, an unfinished structure) but not where; for a file of megabytes "not valid
/// JSON" is not enough to fix it. This finds the spot for the errors that have one.

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

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

} // namespace schedlab::trace
