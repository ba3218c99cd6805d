#pragma once
/// schedlab's own trace format (".sltrace"): a line-oriented CSV that every imported trace can be
/// written to and read back into an identical Trace. Specified in core/trace/FORMAT.md.

#include "base/result.h"

#include <string>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// First line of every file in the format.
inline constexpr const char* kNativeMagic = "#schedlab-trace v1";

/// Writes `trace` to `path` atomically (temporary file + rename).
Status writeNativeTrace(const Trace& trace, const std::string& path);

/// Reads a file written by writeNativeTrace. The format is machine-written, so any malformed line is
/// an error naming file, line and field (nothing is guessed).
Status importNative(LineReader& reader, Trace& trace, ImportContext& ctx);

} // namespace schedlab::trace
