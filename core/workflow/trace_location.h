#pragma once
/// A project whose trace files moved, for both front ends: which traces' runs can no longer be
/// reopened (no stored copy and a recorded file missing), and bringing them back, either by
/// recording where the files are now (checked against the content hash the project kept) or by
/// also importing a copy into the project, so the runs never depend on the files again.

#include "base/progress.h"
#include "base/result.h"
#include "store/project.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedlab::workflow {

/// A trace of the project the runs on it cannot be reopened from.
struct MissingTrace {
    int64_t traceId = -1;
    std::vector<std::string> files; ///< as recorded, in order
    std::vector<std::string> missing; ///< those of `files` not found now (at least one)
    std::vector<int64_t> runs; ///< finished runs on it, oldest first
    std::vector<int64_t> rounds; ///< finished fine-tune rounds trained on it, oldest first
};

/// The traces with finished runs or rounds whose recorded files are not all there and that have
/// no stored copy, by trace id. Reads the project only.
Result<std::vector<MissingTrace>> missingTraces(store::Project& project);

/// The recorded files of a trace as found where the user picked `picked`: the recorded file
/// with `picked`'s name becomes `picked`, the others keep their names in its folder. A trace of
/// one file takes `picked` under any name. A picked name that none of several files has is an
/// error listing their names.
Result<std::vector<std::string>> relocatedFiles(const std::vector<std::string>& recorded, const std::string& picked);

/// How a moved trace comes back.
enum class Relocation {
    Check, ///< only check the files are the trace's (a read-only project: used, not recorded)
    Record, ///< record the new place in the project (Project::relocateTrace)
    Import, ///< that, and store a copy of the trace in the project (Project::importTrace)
};

/// Brings trace `traceId` back from where `picked` is (relocatedFiles): checks the bytes are the
/// trace's (content hash), records the new place (unless Check) and, for Import, reads the trace
/// with its recorded import options and stores a copy. Returns the trace's files where they are now. Errors name the
/// file; a read-only project is an error that says so. `progress` and `cancel` serve the import.
Result<std::vector<std::string>> relocateTrace(store::Project& project, int64_t traceId, const std::string& picked,
    Relocation how = Relocation::Record, ProgressFn progress = {}, CancelToken cancel = {});

} // namespace schedlab::workflow
