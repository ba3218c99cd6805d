#pragma once
/// Loads a trace from one or more files: detects each file's format by content (the format
/// registry), lets the format check that the files belong together (openb nodes + pods; Google
/// machine/job/task events; one SWF log; one schedlab trace) and order them, and imports them.

#include "base/diagnostics.h"
#include "base/progress.h"
#include "base/result.h"
#include "format_registry.h"
#include "import_context.h"
#include "input_spool.h"
#include "trace.h"

#include <memory>
#include <string>
#include <vector>

namespace schedlab::trace {

/// A loaded trace with its warnings.
struct LoadedTrace {
    Trace trace;
    Diagnostics diagnostics;
    std::vector<LoadedFile> files;
    double seconds = 0; ///< wall time of the import
    /// Temporary copies of inputs read from pipes, FIFOs or stdin (deleted with the last owner).
    std::shared_ptr<const SpooledFiles> spooled;
    /// Where each file's bytes can be read again (for hashing or storing): the temporary copy of
    /// a stream, else the file itself. Valid while `spooled` lives.
    std::vector<std::string> readPaths() const
    {
        std::vector<std::string> out;
        for (const LoadedFile& f : files)
            out.push_back(f.readPath);
        return out;
    }
};

/// Loads `paths` as one trace. Synchronous; polls `cancel`; reports progress by bytes.
Result<LoadedTrace> loadTrace(const std::vector<std::string>& paths, const ImportOptions& options = {},
    ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::trace
