#pragma once
/// Pipes, FIFOs and stdin as trace inputs. Format detection peeks at a file's start and the
/// importer then reads it from the beginning, which a stream cannot do twice: a non-seekable input
/// is first copied whole into a temporary file (removed with its owner), which detection and the
/// importer then read. Regular files are read in place.

#include "base/result.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedlab::trace {

/// The name "-" stands for standard input; it is shown as kStdinName.
inline constexpr const char* kStdinName = "(stdin)";

/// Temporary copies of streamed inputs, deleted with this object.
class SpooledFiles {
public:
    SpooledFiles() = default;
    SpooledFiles(const SpooledFiles&) = delete;
    SpooledFiles& operator=(const SpooledFiles&) = delete;
    ~SpooledFiles();
    void add(std::string path) { m_paths.push_back(std::move(path)); }

private:
    std::vector<std::string> m_paths;
};

/// True for "-" and for anything that is not a regular file (FIFO, character device, socket).
bool isStream(const std::string& path);

/// Copies the stream at `path` ("-" = stdin) into a new temporary file and returns its path.
/// `waiting(name)` is called once if nothing arrived within a second (a FIFO without a writer).
/// Errors name the input.
Result<std::string> spoolStream(const std::string& path, const std::function<void(const std::string&)>& waiting);

} // namespace schedlab::trace
