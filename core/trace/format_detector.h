#pragma once
/// Decides what a file is from its content (header line, first data line, gzip magic), not its name.

#include "base/result.h"

#include <string>

namespace schedlab::trace {

enum class FileKind {
    Native, ///< schedlab's own format
    OpenbNodes, ///< openb node list (header with sn, cpu_milli ...)
    OpenbPods, ///< openb pod list (header with name, cpu_milli, num_gpu ...)
    Swf, ///< Standard Workload Format
    GoogleMachineEvents, ///< 6 comma fields, no header
    GoogleJobEvents, ///< 8 comma fields
    GoogleTaskEvents, ///< 13 comma fields
};

/// Stable short name, used in JSON output ("openb-nodes", "swf", ...).
const char* fileKindName(FileKind kind);

/// Detects the kind of a file; an Error says why it is not recognised.
Result<FileKind> detectFileKind(const std::string& path);

/// Same, on the first bytes of a file (for tests and fuzzing).
Result<FileKind> detectFileKindFromText(const std::string& head, const std::string& displayName);

} // namespace schedlab::trace
