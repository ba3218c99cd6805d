#pragma once
/// Loads a trace from one or more files: detects each file's format by content, checks that the
/// files belong together (openb nodes + pods; Google machine/job/task events; one SWF log; one
/// schedlab trace) and runs the importers in the right order.

#include "base/diagnostics.h"
#include "base/progress.h"
#include "base/result.h"
#include "format_detector.h"
#include "import_context.h"
#include "trace.h"

#include <string>
#include <vector>

namespace schedlab::trace {

/// One input file and what it was taken for.
struct LoadedFile {
    std::string path;
    FileKind kind;
    int64_t bytes = 0; ///< size on disk
    int64_t uncompressedBytes = 0; ///< text bytes parsed
};

/// A loaded trace with its warnings.
struct LoadedTrace {
    Trace trace;
    Diagnostics diagnostics;
    std::vector<LoadedFile> files;
    double seconds = 0; ///< wall time of the import
};

/// Loads `paths` as one trace. Synchronous; polls `cancel`; reports progress by bytes.
Result<LoadedTrace> loadTrace(const std::vector<std::string>& paths, const ImportOptions& options = {},
    ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::trace
