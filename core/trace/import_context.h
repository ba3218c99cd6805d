#pragma once

#include <functional>
#include <map>
#include <string>
/// What every importer gets: options, the warning sink, progress and cancellation.

#include "base/diagnostics.h"
#include "base/progress.h"
#include "base/result.h"
#include "input_spool.h"
#include "line_reader.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

struct TaskRequest;
struct Trace;

/// Options shared by all importers.
struct ImportOptions {
    int procsPerNode = 0; ///< SWF: 0 = one processor pool, K > 0 = nodes of K processors
    /// Zone of local times without one (sacct): "UTC", "UTC-06:00", "America/New_York".
    std::string timezone = "UTC";
    /// sacct output without a header: its field names in order, as given to `sacct --format`
    /// (comma-separated); empty = a header line or a known layout.
    std::string sacctFields;
    /// sacct's --delimiter: 0 = '|', or the one its header line is split at (sacctHeaderDelimiter).
    char sacctDelimiter = 0;
    /// klog text lines have no year: this one (0 = the log file's modification year).
    int logYear = 0;
    bool strict = false; ///< turn the first warning into an error
    /// Most tasks a trace may have (memory bound: ~150 bytes each, so 50M ~ 7.5 GB).
    int64_t maxTasks = 50'000'000;
    LineReader::Options reader;
    /// Called once with the input's name when a pipe, FIFO or stdin gave nothing for a second.
    std::function<void(const std::string&)> waitingForInput;
    /// Bounds on the temporary copy of a pipe, FIFO or stdin (input_spool.h).
    SpoolLimits stream;
};

/// The options that shape what a trace holds (SWF processors per node, local time zone, sacct
/// field order, klog year), recorded in the trace's metadata as "import.*" keys when they differ
/// from the defaults, so a trace reopened from its files (a project's run) is imported the same way.
void recordImportOptions(const ImportOptions& options, std::map<std::string, std::string>& metadata);
/// ImportOptions with the "import.*" entries of `metadata` applied (others default).
ImportOptions importOptionsFromMetadata(const std::map<std::string, std::string>& metadata);

/// Per-import state passed to the format importers. Not thread-safe.
struct ImportContext {
    const ImportOptions& options;
    Diagnostics& diagnostics;
    ThrottledProgress& progress;
    const CancelToken& cancel;
    int64_t bytesBefore = 0; ///< bytes of earlier files, for overall progress
    int64_t bytesTotal = 1; ///< bytes of all files of the import

    /// Reports progress through `reader` and returns false when cancelled. Call every few thousand
    /// lines.
    bool tick(const LineReader& reader);
    /// The Error to return after tick() said cancelled.
    Error cancelledError(const LineReader& reader) const;
    /// Error when `tasks` passes options.maxTasks (checked by importers as they grow the trace).
    std::optional<Error> tooManyTasks(const LineReader& reader, std::size_t tasks) const;
};

/// The error of an import that kept nothing: `none` when no row was there at all, else "<what>:
/// every <rows> of <files> was rejected (N warnings); the first: ..." at the first warning's line.
Error nothingImported(const std::string& none, const std::string& what, const std::string& rows,
    const std::vector<std::string>& files, const Diagnostics& diagnostics);

/// Column positions found by header name.
class ColumnMap {
public:
    explicit ColumnMap(const std::vector<std::string_view>& header);
    /// 0-based index of a column, -1 when absent.
    int index(std::string_view name) const;
    std::size_t size() const { return m_names.size(); }
    std::string joined() const;

private:
    std::vector<std::string> m_names;
};

/// Parses one row's fields with warnings naming file, line and column. After a failed field the
/// row is marked bad and the caller skips it.
class RowReader {
public:
    RowReader(ImportContext& ctx, const std::string& file, int64_t line, const std::vector<std::string_view>& fields)
        : m_ctx(ctx)
        , m_file(file)
        , m_line(line)
        , m_fields(fields)
    {
    }
    /// Integer column; missing or empty gives `fallback` when `required` is false.
    int64_t integer(int col, std::string_view name, bool required, int64_t fallback, int64_t minValue, int64_t maxValue);
    /// Floating column; empty gives `fallback` when not required. Rejects NaN/inf and values < minValue.
    double real(int col, std::string_view name, bool required, double fallback, double minValue);
    /// Decimal column scaled by 10^decimals into an integer (Google's normalised values).
    int64_t scaled(int col, std::string_view name, bool required, int64_t fallback, int decimals);
    /// Raw text of a column; empty view when absent.
    std::string_view text(int col) const;
    /// Text made valid UTF-8 (warns once per row when bytes had to be replaced).
    std::string utf8Text(int col, std::string_view name);

    void fail(std::string category, std::string_view field, std::string message);
    void warn(std::string category, std::string_view field, std::string message);
    bool ok() const { return m_ok; }

private:
    ImportContext& m_ctx;
    const std::string& m_file;
    int64_t m_line;
    const std::vector<std::string_view>& m_fields;
    bool m_ok = true;
};

/// Answers "can any node of the cluster ever host this request?" using distinct node shapes.
class FeasibilityChecker {
public:
    explicit FeasibilityChecker(const Trace& trace);
    bool hasNodes() const { return !m_shapes.empty(); }
    bool canEverHost(const TaskRequest& request) const;

private:
    struct Shape {
        int64_t cpuMilli;
        int64_t memMiB;
        int32_t numGpu;
        int16_t gpuModel;
        bool operator==(const Shape&) const = default;
    };
    std::vector<Shape> m_shapes;
};

} // namespace schedlab::trace
