#include "line_reader.h"

#include "text_buffer.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace schedlab::trace {

struct LineReader::Impl {
    gzFile file = nullptr;
    int fd = -1;
};

std::string baseName(const std::string& path)
{
    auto pos = path.find_last_of('/');
    return pos == std::string::npos ? path : path.substr(pos + 1);
}

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& path) { return open(path, Options {}); }

Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& path, Options options)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    if (S_ISDIR(st.st_mode))
        return makeError(ErrorCode::Io, "is a directory, not a trace file", path);

    std::unique_ptr<LineReader> reader(new LineReader());
    reader->m_impl = std::make_unique<Impl>();
    reader->m_path = path;
    reader->m_displayName = baseName(path);
    reader->m_options = options;
    reader->m_fileSize = int64_t(st.st_size);

    // Detect gzip by magic bytes.
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        unsigned char magic[2] = { 0, 0 };
        std::size_t n = std::fread(magic, 1, 2, f);
        std::fclose(f);
        reader->m_gzip = (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b);
    } else {
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    }

    reader->m_impl->file = gzopen(path.c_str(), "rb");
    if (!reader->m_impl->file)
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    gzbuffer(reader->m_impl->file, 1u << 18);
    // Small files get a small buffer: zero-filling and faulting in 1 MiB costs more than parsing a
    // 50 kB node list. Gzip text size is unknown up front, so it starts at the full 1 MiB.
    const std::size_t kMaxBuffer = std::size_t(1) << 20, kMinBuffer = std::size_t(64) << 10;
    reader->m_buffer.resize(reader->m_gzip
            ? kMaxBuffer
            : std::clamp<std::size_t>(std::size_t(reader->m_fileSize) + 1, kMinBuffer, kMaxBuffer));
    return reader;
}

LineReader::~LineReader()
{
    if (m_impl && m_impl->file)
        gzclose(m_impl->file);
}

int64_t LineReader::fileBytesRead() const
{
    if (!m_impl || !m_impl->file)
        return 0;
    if (!m_gzip)
        return m_bytesConsumed;
    return int64_t(gzoffset(m_impl->file));
}

bool LineReader::fill()
{
    // Move the unread tail to the front, grow if a single line fills the buffer.
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    if (m_end == m_buffer.size()) {
        if (m_buffer.size() >= m_options.maxLineBytes) {
            m_error = Error { ErrorCode::Range,
                "line is longer than " + std::to_string(m_options.maxLineBytes >> 20)
                    + " MiB; not a trace file or corrupted",
                m_displayName, m_lineNumber + 1, -1 };
            return false;
        }
        m_buffer.resize(std::min(m_buffer.size() * 2, m_options.maxLineBytes));
    }
    const unsigned want = unsigned(std::min<std::size_t>(m_buffer.size() - m_end, 1u << 30));
    int got = gzread(m_impl->file, m_buffer.data() + m_end, want);
    if (got < 0) {
        int errnum = 0;
        const char* msg = gzerror(m_impl->file, &errnum);
        m_error = Error { ErrorCode::Io, std::string("read error: ") + (msg ? msg : "unknown"), m_displayName,
            m_lineNumber + 1, -1 };
        return false;
    }
    if (got == 0) {
        // zlib reports a truncated gzip stream as Z_BUF_ERROR at end of input.
        int errnum = Z_OK;
        const char* msg = gzerror(m_impl->file, &errnum);
        if (errnum != Z_OK && errnum != Z_STREAM_END) {
            m_error = Error { ErrorCode::Io,
                std::string(m_gzip ? "truncated or corrupted gzip stream: " : "read error: ") + (msg ? msg : ""),
                m_displayName, m_lineNumber + 1, -1 };
            return false;
        }
        m_eof = true;
        return false;
    }
    m_end += std::size_t(got);
    if (m_bytesConsumed + int64_t(m_end) > m_options.maxUncompressedBytes) {
        m_error = Error { ErrorCode::Range,
            "more than " + std::to_string(m_options.maxUncompressedBytes >> 30)
                + " GiB of text; refusing (gzip bomb or not a trace)",
            m_displayName, m_lineNumber + 1, -1 };
        return false;
    }
    return true;
}

bool LineReader::next(std::string_view& line)
{
    if (m_error)
        return false;
    for (;;) {
        const char* start = m_buffer.data() + m_begin;
        const std::size_t avail = m_end - m_begin;
        const void* nl = avail ? std::memchr(start, '\n', avail) : nullptr;
        if (nl || (m_eof && avail > 0)) {
            std::size_t len = nl ? std::size_t(static_cast<const char*>(nl) - start) : avail;
            std::size_t consumed = nl ? len + 1 : len;
            m_begin += consumed;
            m_bytesConsumed += int64_t(consumed);
            ++m_lineNumber;
            if (len > 0 && start[len - 1] == '\r')
                --len;
            if (m_lineNumber == 1 && len >= 3 && std::memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
                start += 3;
                len -= 3;
            }
            line = std::string_view(start, len);
            return true;
        }
        if (m_eof)
            return false;
        if (!fill() && (m_error || (m_eof && m_end == m_begin)))
            return false;
    }
}

bool LineReader::readRest(TextBuffer& out, std::size_t padding)
{
    out.clear();
    if (m_error)
        return false;
    // A plain file's size is known: one allocation, read straight into it.
    if (!m_gzip && !out.reserve(std::size_t(std::max<int64_t>(m_fileSize - m_bytesConsumed, 0)) + (m_end - m_begin) + padding + 1)) {
        m_error = Error { ErrorCode::Range, "not enough memory to read the file whole", m_displayName, -1, -1 };
        return false;
    }
    out.append(m_buffer.data() + m_begin, m_end - m_begin);
    m_begin = m_end = 0;
    while (!m_eof) {
        // Into the reserved room (no reallocation for a plain file, whose size is known); with
        // none left (the end, or gzip), through a small buffer, so finding the end does not
        // double a large buffer.
        constexpr std::size_t kChunk = std::size_t(4) << 20;
        const std::size_t room = out.capacity() > out.size() + padding ? out.capacity() - out.size() - padding : 0;
        int got = 0;
        if (room > 0) {
            got = gzread(m_impl->file, out.data() + out.size(), unsigned(std::min(room, kChunk)));
            if (got > 0)
                out.grow(std::size_t(got));
        } else {
            char small[1 << 16];
            got = gzread(m_impl->file, small, unsigned(sizeof small));
            if (got > 0) {
                if (!out.spare(std::size_t(got) + padding)) {
                    m_error = Error { ErrorCode::Range, "not enough memory to read the file whole", m_displayName, -1, -1 };
                    return false;
                }
                out.append(small, std::size_t(got));
            }
        }
        if (got < 0) {
            int errnum = 0;
            const char* msg = gzerror(m_impl->file, &errnum);
            m_error = Error { ErrorCode::Io, std::string("read error: ") + (msg ? msg : "unknown"), m_displayName, -1, -1 };
            return false;
        }
        if (got == 0) {
            int errnum = Z_OK;
            const char* msg = gzerror(m_impl->file, &errnum);
            if (errnum != Z_OK && errnum != Z_STREAM_END) {
                m_error = Error { ErrorCode::Io,
                    std::string(m_gzip ? "truncated or corrupted gzip stream: " : "read error: ") + (msg ? msg : ""),
                    m_displayName, -1, -1 };
                return false;
            }
            m_eof = true;
        }
        if (m_bytesConsumed + int64_t(out.size()) > m_options.maxUncompressedBytes) {
            m_error = Error { ErrorCode::Range,
                "more than " + std::to_string(m_options.maxUncompressedBytes >> 30)
                    + " GiB of text; refusing (gzip bomb or not a trace)",
                m_displayName, -1, -1 };
            return false;
        }
    }
    if (m_bytesConsumed == 0 && out.size() >= 3 && std::memcmp(out.data(), "\xEF\xBB\xBF", 3) == 0)
        out.eraseFront(3);
    m_bytesConsumed += int64_t(out.size());
    if (!out.spare(padding)) {
        m_error = Error { ErrorCode::Range, "not enough memory to read the file whole", m_displayName, -1, -1 };
        return false;
    }
    return true;
}

Result<std::string> peekFile(const std::string& path, std::size_t maxBytes)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    if (S_ISDIR(st.st_mode))
        return makeError(ErrorCode::Io, "is a directory, not a trace file", path);
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), path);
    std::string out(maxBytes, '\0');
    int got = gzread(f, out.data(), unsigned(maxBytes));
    gzclose(f);
    if (got < 0)
        got = 0; // detection works on what was readable; the importer reports the error
    out.resize(std::size_t(got));
    return out;
}

} // namespace schedlab::trace
