#include "input_spool.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <thread>
#include <unistd.h>

namespace schedlab::trace {

SpooledFiles::~SpooledFiles()
{
    for (int fd : m_fds)
        ::close(fd);
}

bool isStream(const std::string& path)
{
    if (path == "-")
        return true;
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

std::string byteSizeText(int64_t bytes)
{
    static const char* const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 || v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

namespace {
std::string displayName(const std::string& path) { return path == "-" ? kStdinName : path; }

constexpr int64_t kDetectBytes = int64_t(1) << 20; ///< copied before the format is checked
constexpr int64_t kSpaceCheckEvery = int64_t(64) << 20; ///< bytes between free-space checks

/// Calls `waiting` after a second unless done() came first.
class WaitNotice {
public:
    WaitNotice(const std::function<void(const std::string&)>& waiting, std::string name)
    {
        if (!waiting)
            return;
        m_thread = std::thread([this, waiting, name = std::move(name)] {
            std::unique_lock lock(m_mutex);
            if (!m_cv.wait_for(lock, std::chrono::seconds(1), [this] { return m_done; }))
                waiting(name);
        });
    }
    void done()
    {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_cv.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }
    ~WaitNotice() { done(); }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
    std::thread m_thread;
};

/// A file in `dir` without a name (nothing to clean up after a kill); -1 and errno on failure.
int unnamedFile(const std::string& dir)
{
#ifdef O_TMPFILE
    if (const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600); fd >= 0)
        return fd;
#endif
    std::string tmpl = dir + "/schedlab-input-XXXXXX"; // file systems without O_TMPFILE
    const int fd = ::mkstemp(tmpl.data());
    if (fd >= 0)
        ::unlink(tmpl.c_str());
    return fd;
}

/// Free bytes in the file system holding `fd` for an unprivileged writer; -1 when unknown.
int64_t freeBytes(int fd)
{
    struct statvfs st {};
    if (::fstatvfs(fd, &st) != 0)
        return -1;
    return int64_t(st.f_bavail) * int64_t(st.f_frsize);
}

/// Writes n bytes; "" or the error.
std::string writeAll(int out, const char* data, std::size_t n)
{
    for (std::size_t off = 0; off < n;) {
        const ssize_t w = ::write(out, data + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return std::string("cannot write the temporary copy of the input: ") + std::strerror(errno);
        off += std::size_t(w);
    }
    return {};
}

/// One stream's copy: reads `in` into `out` within the limits.
class Spool {
public:
    Spool(int in, int out, const std::string& dir, const SpoolLimits& limits, WaitNotice& notice)
        : m_in(in)
        , m_out(out)
        , m_dir(dir)
        , m_limits(limits)
        , m_notice(notice)
    {
    }
    /// Copies until end of input or the first `until` bytes; "" or the error. ended() says which.
    std::string copy(int64_t until)
    {
        std::vector<char> buf(1 << 20);
        while (m_copied < until) {
            const ssize_t n = ::read(m_in, buf.data(), buf.size());
            m_notice.done();
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return std::string("read failed: ") + std::strerror(errno);
            if (n == 0) {
                m_ended = true;
                return {};
            }
            if (m_copied + n > m_limits.maxBytes)
                return "stopped reading after " + byteSizeText(m_limits.maxBytes)
                    + ", the most schedlab copies of a streamed input (--max-stream SIZE raises it; or save the stream to a file and open that)";
            if (std::string e = writeAll(m_out, buf.data(), std::size_t(n)); !e.empty())
                return e;
            m_copied += n;
            if (m_copied - m_lastSpaceCheck >= kSpaceCheckEvery || m_lastSpaceCheck < 0)
                if (std::string e = checkSpace(); !e.empty())
                    return e;
        }
        return {};
    }
    bool ended() const { return m_ended; }

private:
    std::string checkSpace()
    {
        m_lastSpaceCheck = m_copied;
        const int64_t free = freeBytes(m_out);
        if (free >= 0 && free < m_limits.keepFreeBytes)
            return "stopped copying the stream to the temporary folder " + m_dir + " after " + byteSizeText(m_copied) + ": "
                + byteSizeText(free) + " free there, and schedlab leaves at least " + byteSizeText(m_limits.keepFreeBytes)
                + " (set TMPDIR to a larger folder, or save the stream to a file and open that)";
        return {};
    }

    int m_in, m_out;
    const std::string& m_dir;
    const SpoolLimits& m_limits;
    WaitNotice& m_notice;
    int64_t m_copied = 0, m_lastSpaceCheck = -1;
    bool m_ended = false;
};
} // namespace

Result<SpooledFile> spoolStream(const std::string& path, const std::function<void(const std::string&)>& waiting,
    const SpoolLimits& limits, const std::function<Status(const std::string& readPath)>& check)
{
    const std::string name = displayName(path);
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string dir = tmpdir && *tmpdir ? tmpdir : "/tmp";
    const int out = unnamedFile(dir);
    if (out < 0)
        return makeError(ErrorCode::Io, "cannot create a temporary copy of the input in " + dir + ": " + std::strerror(errno), name);
    const SpooledFile file { out, "/proc/self/fd/" + std::to_string(out) };
    auto failed = [&](ErrorCode code, const std::string& what) {
        ::close(out);
        return makeError(code, what, name);
    };
    WaitNotice notice(waiting, name);
    // Opening a FIFO blocks until a writer opens it; the notice covers that wait too.
    const int in = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return failed(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno));
    Spool spool(in, out, dir, limits, notice);
    std::string error = spool.copy(kDetectBytes);
    if (error.empty() && check) {
        if (Status s = check(file.readPath); !s) {
            if (in != 0)
                ::close(in);
            ::close(out);
            return Error { s.error().code, s.error().message, name, -1, -1 };
        }
    }
    if (error.empty() && !spool.ended())
        error = spool.copy(INT64_MAX);
    if (in != 0)
        ::close(in);
    if (!error.empty())
        return failed(ErrorCode::Io, error);
    return file;
}

} // namespace schedlab::trace
