#pragma once
/// A trace format as one object (PlotJuggler's DataLoader idea): its name, how sure it is that a
/// file belongs to it from the file's first bytes, how the files of one trace go together, and an
/// import session that reads them. The loader (trace_loader.h) asks the registry
/// (format_registry.h); adding a format is its own files plus one line in format_registry.cpp.

#include "base/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::trace {

class LineReader;
class TraceFormat;
struct ImportContext;
struct Trace;

/// The start of a file as detection sees it: the first non-blank line (BOM and CR removed), its
/// comma fields, its whitespace fields, and up to 64 KiB of text.
struct FileHead {
    std::string_view firstLine;
    std::vector<std::string_view> commaFields;
    std::vector<std::string_view> spaceFields;
    std::string_view text;
    /// A comma field equal to `name` after trimming.
    bool hasColumn(std::string_view name) const;
};

/// A format's verdict on one file.
struct Detection {
    int score = 0; ///< 0 = not this format; higher wins (100 = a magic line)
    std::string kind; ///< the file's role, e.g. "openb-nodes" (stable, in JSON output)
    /// With score 0: why the file is almost but not quite this format (the error a user sees
    /// when no format claims the file); empty otherwise.
    std::string nearMiss;
};

/// One input file and what it was taken for.
struct LoadedFile {
    std::string path; ///< as given ("(stdin)" for "-"): what messages name
    std::string readPath; ///< where the bytes are read: path, or the temporary copy of a stream
    const TraceFormat* format = nullptr;
    std::string kind; ///< Detection::kind
    int64_t bytes = 0; ///< size on disk
    int64_t uncompressedBytes = 0; ///< text bytes parsed
};

/// Reads the files of one trace, in the order TraceFormat::arrange() gave them.
class FormatImport {
public:
    virtual ~FormatImport() = default;
    virtual Status add(const LoadedFile& file, LineReader& reader, Trace& trace, ImportContext& ctx) = 0;
    /// After the last file (folding events into jobs, final checks).
    virtual Status finish(Trace& trace, ImportContext& ctx) = 0;
};

class TraceFormat {
public:
    virtual ~TraceFormat() = default;
    /// Trace::sourceFormat of its traces: "openb", "swf", "google2011", "schedlab".
    virtual std::string name() const = 0;
    /// What its files start with, for "unknown format" errors: "an SWF line".
    virtual std::string description() const = 0;
    virtual Detection detect(const FileHead& head) const = 0;
    /// Checks that `files` (all of this format) make one trace and puts them in import order;
    /// the error says what is missing or doubled.
    virtual Status arrange(std::vector<LoadedFile>& files) const = 0;
    virtual std::unique_ptr<FormatImport> startImport() const = 0;
    /// The trace records the names of the files it came from (a schedlab trace carries its own).
    virtual bool recordsSourceFiles() const { return true; }
};

} // namespace schedlab::trace
