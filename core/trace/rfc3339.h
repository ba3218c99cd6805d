#pragma once
/// RFC 3339 date-times as Kubernetes writes them ("2017-12-13T16:59:38Z", MicroTime
/// "2023-06-01T10:00:00.123456Z", offsets "+02:00"), to Unix seconds.

#include <optional>
#include <string>
#include <string_view>

namespace schedlab::trace {

/// Unix seconds (fraction kept) of `text`; nullopt when it is not an RFC 3339 date-time with a
/// zone ('Z' or an offset). 't' and 'z' may be lower case; a space for the 'T' is accepted.
std::optional<double> parseRfc3339(std::string_view text);

/// "2017-12-13T16:59:38Z" for Unix seconds (whole seconds, UTC; microseconds when `micro`:
/// "2017-12-13T16:59:38.250000Z", as Kubernetes writes MicroTime).
std::string formatRfc3339(double unixS, bool micro = false);

} // namespace schedlab::trace
