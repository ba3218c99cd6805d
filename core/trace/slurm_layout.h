#pragma once
/// Where each field of `sacct --parsable2` output is: from its header line (names as sacct
/// prints them, any case), from a field list the user gives (`--sacct-fields`, the same list as
/// `sacct --format`), or one of the header-less layouts found in the wild (recognised by their
/// field count and content, named in the trace's metadata).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

struct SacctLayout {
    std::string source; ///< "header", "--sacct-fields", "xdmod-26", "hpc-cost-simulator-25"
    std::size_t fieldCount = 0;
    int jobId = -1, jobIdRaw = -1, jobName = -1, user = -1, uid = -1, gid = -1, account = -1, partition = -1;
    int qos = -1, priority = -1, submit = -1, eligible = -1, start = -1, end = -1, elapsed = -1, elapsedRaw = -1;
    int timelimit = -1, timelimitRaw = -1, state = -1, nnodes = -1, allocNodes = -1, reqNodes = -1, ncpus = -1;
    int allocCpus = -1, reqCpus = -1, reqMem = -1, reqTres = -1, allocTres = -1, nodeList = -1, cpuTimeRaw = -1;
    int resvCpuRaw = -1, cluster = -1;
};

/// Layout from field names; error when Submit is missing (a job needs its submit time).
std::optional<SacctLayout> sacctLayoutFromNames(const std::vector<std::string_view>& names, std::string source, std::string& error);

/// True when a '|'-separated line is a sacct header (it names JobID or Submit and State).
bool looksLikeSacctHeader(const std::vector<std::string_view>& fields);

/// The delimiters sacct output may be split at: '|' (sacct's own) first, then those a
/// `sacct --delimiter` is likely given.
/// An array, not a string_view of a literal: under ASan each translation unit keeps its own copy
/// of a literal, and a loop took its start from one copy and its end from another (fuzzing find).
inline constexpr char kSacctDelimiterChars[] = "|;\t,:#!^~@%&+*/=-";
inline constexpr std::string_view kSacctDelimiters { kSacctDelimiterChars, sizeof kSacctDelimiterChars - 1 };

/// The delimiter a sacct header line is split at: the first of kSacctDelimiters that makes it a
/// header; 0 when none does.
char sacctHeaderDelimiter(std::string_view line);

/// A delimiter as messages show it ('\t' for a tab).
std::string delimiterText(char c);

/// A known header-less layout matching this data row, if any.
std::optional<SacctLayout> knownHeaderlessSacctLayout(const std::vector<std::string_view>& fields);

/// "26 fields: jobid|jobidraw|cluster|..." for error messages about header-less files.
std::string knownSacctLayoutsText();

} // namespace schedlab::trace
