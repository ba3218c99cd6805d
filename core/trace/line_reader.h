#pragma once
/// Streams a text file line by line, plain or gzip (detected by magic bytes, not by name).
/// Never slurps: memory is one buffer of at most maxLineBytes. Strips a UTF-8 BOM on the first line
/// and a trailing '\r' (CRLF files). Reports truncated gzip and over-long lines as errors.

#include "base/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace schedlab::trace {

class TextBuffer;

class LineReader {
public:
    struct Options {
        std::size_t maxLineBytes = 64u << 20; ///< longer lines are an error (hostile input)
        int64_t maxUncompressedBytes = int64_t(64) << 30; ///< gzip bomb guard
    };

    static Result<std::unique_ptr<LineReader>> open(const std::string& path);
    static Result<std::unique_ptr<LineReader>> open(const std::string& path, Options options);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// Next line without its terminator. The view is valid until the next call.
    /// Returns false at end of file or on error; check error() then.
    bool next(std::string_view& line);

    /// Everything not yet returned, whole, into `out` (whose capacity is then at least its size +
    /// `padding`, as simdjson needs): for formats that are not line-based (JSON on one line of any
    /// length). A leading UTF-8 BOM is dropped. False on error (see error()); the gzip-bomb guard
    /// applies, the line-length limit does not.
    bool readRest(TextBuffer& out, std::size_t padding = 0);

    /// 1-based number of the line last returned.
    int64_t lineNumber() const { return m_lineNumber; }
    /// Bytes of the file on disk consumed so far (compressed bytes for gzip).
    int64_t fileBytesRead() const;
    /// Size of the file on disk.
    int64_t fileSize() const { return m_fileSize; }
    /// Uncompressed bytes consumed so far.
    int64_t bytesRead() const { return m_bytesConsumed; }
    bool isGzip() const { return m_gzip; }
    const std::optional<Error>& error() const { return m_error; }
    const std::string& path() const { return m_path; }
    /// Bytes held by the read buffer (stays small for streamed files; tests check it).
    std::size_t bufferCapacity() const { return m_buffer.size(); }
    /// File name without directories, used in messages.
    const std::string& displayName() const { return m_displayName; }
    /// Messages name the input as `name` (a stream's copy is read from another path).
    void setDisplayName(std::string name) { m_displayName = std::move(name); }

private:
    LineReader() = default;
    bool fill();

    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::string m_path;
    std::string m_displayName;
    Options m_options;
    std::string m_buffer;
    std::size_t m_begin = 0; ///< start of unread data in m_buffer
    std::size_t m_end = 0; ///< end of valid data in m_buffer
    bool m_eof = false;
    bool m_gzip = false;
    int64_t m_lineNumber = 0;
    int64_t m_fileSize = 0;
    int64_t m_bytesConsumed = 0;
    std::optional<Error> m_error;
};

/// Reads the first bytes of a file (decompressed if gzip) for format detection.
Result<std::string> peekFile(const std::string& path, std::size_t maxBytes);

/// File name part of a path.
std::string baseName(const std::string& path);

} // namespace schedlab::trace
