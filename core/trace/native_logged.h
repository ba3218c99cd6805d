#pragma once
// The logged-decision records of the schedlab trace format (FORMAT.md: lname, ldec, lreason,
// lreward, lcand), written after the jobs and read back into Trace::logged. Private to native_format.cpp.

#include "base/result.h"
#include "trace.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

/// Writes every record of `logged` through `line` (one call per line, no line end).
void writeLoggedRecords(const LoggedDecisions& logged, const std::function<void(const std::string&)>& line);

/// Reads the records in file order. A record kind it does not know is not its business
/// (handles() is false); errors say which field of the line is wrong.
class LoggedRecordReader {
public:
    static bool handles(std::string_view kind);
    /// One line split at commas (f[0] is the kind).
    Status add(const std::vector<std::string_view>& f, Trace& trace);
    /// At the end record: no decision may still wait for its reasons or candidates.
    Status finish() const;
    std::size_t decisions() const { return m_decisions; }

private:
    Status decision(const std::vector<std::string_view>& f, Trace& trace);
    Status reason(const std::vector<std::string_view>& f, LoggedDecisions& l);
    Status reward(const std::vector<std::string_view>& f, LoggedDecisions& l);
    Status candidate(const std::vector<std::string_view>& f, Trace& trace);

    uint32_t m_reasonsLeft = 0, m_candidatesLeft = 0, m_rewardsLeft = 0;
    std::size_t m_decisions = 0;
};

} // namespace schedlab::trace
