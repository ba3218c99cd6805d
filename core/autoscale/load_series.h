#pragma once
/// A service's request load as requests per one-second step (the autoscaling replay's clock),
/// read from (module README):
///  - per-second counts: whitespace-separated non-negative integers, one per second (NASA-HTTP
///    1995 `workload.txt`, or its `workload.tbz2` read directly: bzip2, tar, first member);
///  - request arrivals: a CSV with a TIMESTAMP column (Azure LLM inference 2023), binned to the
///    second from the first arrival;
///  - a coarser series: a CSV `timestamp,value` (NAB: requests or tweets per 5 minutes), each
///    interval's value spread evenly over its seconds ("stepped", the default) or interpolated
///    linearly between interval midpoints ("interpolated").

#include "base/result.h"

#include <string>
#include <vector>

namespace schedlab::autoscale {

struct LoadSeries {
    std::string name; ///< file name
    std::string source; ///< how it was read ("per-second counts", "arrivals binned to 1 s", ...)
    std::vector<float> requests; ///< per 1-second step
    double startEpochS = 0; ///< the first step's time when the file says (0 = unknown)
    /// What reading changed without losing a request (rows put in time order, rows of one
    /// timestamp added), each with the first line it concerns.
    std::vector<std::string> warnings;
    double total() const;
};

enum class Resample { Stepped, Interpolated };

/// Reads a load file (kind from its content; `.tbz2` / `.tar.bz2` unpacked first). Errors name the
/// file, line and field.
Result<LoadSeries> readLoadSeries(const std::string& path, Resample resample = Resample::Stepped);

/// A whole file's bytes; the error names the file.
Result<std::string> readFile(const std::string& path);

/// Parses "YYYY-MM-DD HH:MM:SS[.frac]" (or with 'T') as seconds since the epoch (UTC); false when
/// it is not one.
bool parseTimestamp(const char* s, std::size_t n, double& out);

} // namespace schedlab::autoscale
