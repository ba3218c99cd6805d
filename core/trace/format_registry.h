#pragma once
/// The trace formats schedlab reads, and detection of a file's format by content (never by name).

#include "trace_format.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::trace {

/// Every format, in a fixed order (the order of "is not ..." in errors). Thread-safe.
const std::vector<std::unique_ptr<TraceFormat>>& traceFormats();

/// The format by name, nullptr when unknown.
const TraceFormat* traceFormat(const std::string& name);

struct FileMatch {
    const TraceFormat* format = nullptr;
    std::string kind;
};

/// Detects the format of a file from its first 64 KiB; an Error says why it is not recognised
/// (empty file, a near miss such as an openb header lacking columns, or no format at all).
Result<FileMatch> detectFile(const std::string& path);

/// Same, on the first bytes of a file (for tests and fuzzing).
Result<FileMatch> detectFileFromText(const std::string& head, const std::string& displayName);

} // namespace schedlab::trace
