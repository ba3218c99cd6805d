#pragma once
// Helpers shared by the project's .cpp files (not part of the store's API).

#include "base/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedlab::store::detail {

/// Current UTC time as ISO 8601 ("2026-12-02T19:59:38Z").
std::string nowUtc();
/// Whether a process with this pid exists on this host.
bool processAlive(int64_t pid);
std::string hostName();

/// A trace's identity as the traces table records it.
struct TraceFilesHash {
    std::string digest; ///< SHA-256 (hex) of the files' bytes in order, then the import options unless "{}"
    std::string fileList; ///< the files made absolute and normal, one a line (the `files` column)
};
/// `files` as the traces table's `files` column holds them: absolute and normal, one a line.
std::string recordedFileList(const std::vector<std::string>& files);
/// Hashes `files` (read as bytes; paths are never converted through QString) and `optionsJson`,
/// the compact JSON of the trace's import options; errors name the file that cannot be read.
Result<TraceFilesHash> hashTraceFiles(const std::vector<std::string>& files, const std::string& optionsJson);

} // namespace schedlab::store::detail
