#pragma once
/// Pipes, FIFOs and stdin as trace inputs. Format detection peeks at a file's start and the
/// importer then reads it from the beginning, which a stream cannot do twice: a non-seekable input
/// is first copied into a temporary file, which detection and the importer then read. Regular
/// files are read in place.
///
/// The copy is bounded, because a stream may never end (`/dev/zero`, a `tail -f`):
///  - it has no name from the start (O_TMPFILE, else created and unlinked at once), so no kill
///    can leave it behind; it is read through /proc/self/fd while its owner lives;
///  - the first MiB (or the whole stream, if shorter) must be of a known format (`check`), else the
///    copy stops there;
///  - it stops past SpoolLimits::maxBytes, and before the temporary folder's free space falls
///    under SpoolLimits::keepFreeBytes. Each stop is an error naming the input and the limit.

#include "base/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedlab::trace {

/// The name "-" stands for standard input; it is shown as kStdinName.
inline constexpr const char* kStdinName = "(stdin)";

struct SpoolLimits {
    int64_t maxBytes = int64_t(4) << 30; ///< largest copy of one stream (CLI --max-stream)
    int64_t keepFreeBytes = int64_t(512) << 20; ///< free space the copy leaves in the temporary folder
};

/// Temporary copies of streamed inputs (open descriptors of unnamed files), gone with this object.
class SpooledFiles {
public:
    SpooledFiles() = default;
    SpooledFiles(const SpooledFiles&) = delete;
    SpooledFiles& operator=(const SpooledFiles&) = delete;
    ~SpooledFiles();
    void add(int fd) { m_fds.push_back(fd); }

private:
    std::vector<int> m_fds;
};

/// A stream's copy: its descriptor (owned by whoever holds it, e.g. SpooledFiles) and a path that
/// opens it while the descriptor is open.
struct SpooledFile {
    int fd = -1;
    std::string readPath;
};

/// True for "-" and for anything that is not a regular file (FIFO, character device, socket).
bool isStream(const std::string& path);

/// Copies the stream at `path` ("-" = stdin) into a new unnamed temporary file. `waiting(name)`
/// is called once if nothing arrived within a second (a FIFO without a writer); `check(readPath)`
/// once the first MiB is there (or the stream ended), to refuse an input of no known format
/// before copying more. Errors name the input.
Result<SpooledFile> spoolStream(const std::string& path, const std::function<void(const std::string&)>& waiting,
    const SpoolLimits& limits = {}, const std::function<Status(const std::string& readPath)>& check = {});

/// "4.0 GiB", "512 MiB", "900 B": a size for messages.
std::string byteSizeText(int64_t bytes);

} // namespace schedlab::trace
