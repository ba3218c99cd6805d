// Who wrote a row, and whether that writer still runs (store_util.h): the time, this host's name,
// a process's identity (pid and start time) and the liveness of a 'running' row's writer.

#include "store_util.h"

#include <cerrno>
#include <csignal>
#include <ctime>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace schedlab::store::detail {

std::string nowUtc()
{
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

bool processAlive(int64_t pid)
{
    if (pid <= 0)
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

std::string hostName()
{
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

std::optional<ProcStat> readProcStat(int64_t pid)
{
    if (pid <= 0)
        return std::nullopt;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and ')', so fields count from the last ')'.
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(line.substr(close + 1));
    std::string state, field;
    fields >> state;
    for (int i = 4; i <= 22 && (fields >> field); ++i) // field 3 was the state; 22 is starttime
        if (i == 22) {
            ProcStat st;
            st.startTicks = std::strtoll(field.c_str(), nullptr, 10);
            st.zombie = state == "Z" || state == "X";
            return st;
        }
    return std::nullopt;
}

std::optional<int64_t> selfStartTicks()
{
    // Read each time, not cached: a forked child (tests fork writers) is another process.
    const auto st = readProcStat(int64_t(::getpid()));
    return st ? std::optional<int64_t>(st->startTicks) : std::nullopt;
}

WriterState writerState(int64_t pid, std::optional<int64_t> startTicks, const std::string& host)
{
    if (host != hostName())
        return WriterState::Elsewhere;
    if (!processAlive(pid))
        return WriterState::Gone;
    // The pid is taken: by the writer only if it started when the writer did (a pid is reused
    // once its process is gone). A zombie writer (killed, not yet reaped) runs nothing.
    if (const auto st = readProcStat(pid)) {
        if (st->zombie || (startTicks && *startTicks != st->startTicks))
            return WriterState::Gone;
    }
    return WriterState::Alive;
}

void showWriterState(std::string& status, std::string& error, WriterState state, const std::string& host, const char* doing)
{
    if (status != "running")
        return;
    if (state == WriterState::Gone) {
        status = "interrupted";
        error = std::string("interrupted (the process ") + doing + " it stopped; marked failed by the next write)";
    } else if (state == WriterState::Elsewhere) {
        error = "running on " + (host.empty() ? std::string("an unknown host") : host) + " (not checked from here)";
    }
}

} // namespace schedlab::store::detail
