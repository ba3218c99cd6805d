#pragma once
// Every stored row of one run of a project file, as text (blobs in hex), without the columns that
// must differ between two recordings of the same run: ids and the clock (started/finished at,
// wall seconds, pid, host). Two runs recorded the same way give the same text byte for byte.

#include <cstdint>
#include <string>

namespace schedlab::test {

/// Rows of run `runId` in `dbPath`, table by table in a fixed order; "error: ..." on failure.
std::string runRows(const std::string& dbPath, int64_t runId);

} // namespace schedlab::test
