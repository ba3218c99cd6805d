#pragma once
// Helpers shared by the project's .cpp files (not part of the store's API).

#include "base/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::store::detail {

/// Current UTC time as ISO 8601 ("2026-12-02T19:59:38Z").
std::string nowUtc();
/// Whether a process with this pid exists on this host.
bool processAlive(int64_t pid);
std::string hostName();

/// What /proc/PID/stat says of a process (Linux; nullopt elsewhere or when it does not exist).
struct ProcStat {
    int64_t startTicks = 0; ///< field 22: start time after boot, in clock ticks
    bool zombie = false; ///< exited (killed), not yet reaped by its parent
};
std::optional<ProcStat> readProcStat(int64_t pid);
/// This process's start ticks, recorded with the pid of every row it writes as 'running' (so a
/// reused pid is told from the writer); nullopt where /proc is not there.
std::optional<int64_t> selfStartTicks();

/// Whether the writer of a 'running' row (its pid, start ticks — nullopt for rows of builds before
/// schema 13: the pid alone decides — and host) can still be running it. On another host we
/// cannot tell.
enum class WriterState { Alive, Gone, Elsewhere };
WriterState writerState(int64_t pid, std::optional<int64_t> startTicks, const std::string& host);
/// A listed row as a reader shows it: a 'running' row whose writer is gone becomes "interrupted"
/// (with an error saying the next write marks it failed); one on another host stays running with
/// an error naming the host. `doing` is "running" or "training". Other statuses are untouched.
void showWriterState(std::string& status, std::string& error, WriterState state, const std::string& host, const char* doing);

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
