#include "input_spool.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace schedlab::trace {

SpooledFiles::~SpooledFiles()
{
    for (const std::string& p : m_paths)
        ::unlink(p.c_str());
}

bool isStream(const std::string& path)
{
    if (path == "-")
        return true;
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

namespace {
std::string displayName(const std::string& path) { return path == "-" ? kStdinName : path; }

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
/// Copies `in` to `out` until end of input; the notice ends at the first read. "" or the error.
std::string copyAll(int in, int out, WaitNotice& notice)
{
    std::vector<char> buf(1 << 20);
    for (;;) {
        const ssize_t n = ::read(in, buf.data(), buf.size());
        notice.done();
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return std::string("read failed: ") + std::strerror(errno);
        if (n == 0)
            return {};
        for (ssize_t off = 0; off < n;) {
            const ssize_t w = ::write(out, buf.data() + off, std::size_t(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                return std::string("cannot write the temporary copy of the input: ") + std::strerror(errno);
            off += w;
        }
    }
}
} // namespace

Result<std::string> spoolStream(const std::string& path, const std::function<void(const std::string&)>& waiting)
{
    const std::string name = displayName(path);
    const char* dir = std::getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/schedlab-input-XXXXXX";
    const int out = ::mkstemp(tmpl.data());
    if (out < 0)
        return makeError(ErrorCode::Io, std::string("cannot create a temporary copy of the input: ") + std::strerror(errno), name);
    auto failed = [&](const std::string& what) {
        ::close(out);
        ::unlink(tmpl.c_str());
        return makeError(ErrorCode::Io, what, name);
    };
    WaitNotice notice(waiting, name);
    // Opening a FIFO blocks until a writer opens it; the notice covers that wait too.
    const int in = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return failed(std::string("cannot open: ") + std::strerror(errno));
    const std::string copyError = copyAll(in, out, notice);
    if (in != 0)
        ::close(in);
    if (!copyError.empty())
        return failed(copyError);
    if (::close(out) != 0) {
        ::unlink(tmpl.c_str());
        return makeError(ErrorCode::Io, std::string("cannot write the temporary copy of the input: ") + std::strerror(errno), name);
    }
    return tmpl;
}

} // namespace schedlab::trace
