#include "trace_loader.h"

#include "line_reader.h"

#include <algorithm>
#include <filesystem>
#include <chrono>
#include <sys/stat.h>

namespace schedlab::trace {

namespace {

/// A folder (a kubectl or Sonobuoy dump) stands for the files under it that a format claims;
/// the others are listed as ignored.
Status addFolder(const std::string& p, std::vector<std::string>& inputs, LoadedTrace& out)
{
    std::error_code ec;
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(p, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && !it->path().filename().string().starts_with("."))
            found.push_back(it->path().string());
    if (ec)
        return makeError(ErrorCode::Io, "cannot list the folder: " + ec.message(), p);
    std::sort(found.begin(), found.end());
    std::size_t claimed = 0;
    std::string ignored;
    for (const std::string& f : found) {
        auto head = peekFile(f, 64 * 1024);
        if (head && detectFileFromText(head.value(), baseName(f))) {
            inputs.push_back(f);
            ++claimed;
        } else {
            out.diagnostics.note("ignored-file (no format claims it)");
            ignored += (ignored.empty() ? "" : ", ") + baseName(f);
        }
    }
    if (claimed == 0)
        return makeError(ErrorCode::Empty,
            "no trace file in the folder (" + std::to_string(found.size()) + " files, none of a known format"
                + (ignored.empty() ? "" : ": " + ignored.substr(0, 200)) + ")",
            p);
    if (!ignored.empty())
        out.trace.metadata["ignoredFiles"] = ignored;
    return {};
}

/// Each input's format and size into out.files.
Status identify(const std::vector<std::string>& inputs, const ImportOptions& options, SpooledFiles& spooled, LoadedTrace& out)
{
    for (const std::string& p : inputs) {
        // A stream is read once, whole, into a temporary copy: detection and the importer both
        // start from its first byte.
        std::string readPath = p, shown = p == "-" ? kStdinName : p;
        if (isStream(p)) {
            // Refused on its first MiB when no format claims it (an endless /dev/zero stops there).
            auto known = [&](const std::string& partial) -> Status {
                auto head = peekFile(partial, 64 * 1024);
                if (!head)
                    return head.error();
                if (auto match = detectFileFromText(head.value(), baseName(shown)); !match)
                    return match.error();
                return {};
            };
            auto copy = spoolStream(p, options.waitingForInput, options.stream, known);
            if (!copy)
                return copy.error();
            readPath = copy->readPath;
            spooled.add(copy->fd);
        }
        auto head = peekFile(readPath, 64 * 1024);
        if (!head) // a temporary copy is named as the input it copies
            return readPath == p ? head.error() : Error { head.error().code, head.error().message, shown, -1, -1 };
        auto match = detectFileFromText(head.value(), baseName(shown));
        if (!match)
            return match.error();
        struct stat st {};
        ::stat(readPath.c_str(), &st);
        out.files.push_back(LoadedFile { shown, readPath, match->format, match->kind, int64_t(st.st_size), 0 });
    }
    return {};
}

/// Runs the format's import over the files, in their arranged order.
Status importFiles(const TraceFormat& format, const ImportOptions& options, ImportContext& ctx, CancelToken cancel, LoadedTrace& out)
{
    Trace& trace = out.trace;
    trace.sourceFormat = format.name();
    std::unique_ptr<FormatImport> import = format.startImport();
    for (LoadedFile& f : out.files) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, "import cancelled");
        auto reader = LineReader::open(f.readPath, options.reader);
        if (!reader)
            return f.readPath == f.path ? reader.error()
                                        : Error { reader.error().code, reader.error().message, f.path, -1, -1 };
        LineReader& r = *reader.value();
        if (f.readPath != f.path)
            r.setDisplayName(baseName(f.path));
        const Status st = import->add(f, r, trace, ctx);
        if (!st)
            return st.error();
        f.uncompressedBytes = r.bytesRead();
        ctx.bytesBefore += f.bytes;
        if (format.recordsSourceFiles())
            trace.sourceFiles.push_back(baseName(f.path));
        if (options.strict && out.diagnostics.total() > 0 && !out.diagnostics.kept().empty()) {
            const Warning& w = out.diagnostics.kept().front();
            return Error { ErrorCode::Parse, (w.field.empty() ? "" : "column " + w.field + ": ") + w.message + " (--strict)",
                w.file, w.line, -1 };
        }
    }
    return import->finish(trace, ctx);
}

} // namespace

Result<LoadedTrace> loadTrace(
    const std::vector<std::string>& paths, const ImportOptions& options, ProgressFn progressFn, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (paths.empty())
        return makeError(ErrorCode::Invalid, "no trace file given");

    LoadedTrace out;
    auto spooled = std::make_shared<SpooledFiles>();
    std::vector<std::string> inputs;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (p != "-" && std::filesystem::is_directory(p, ec)) {
            if (Status s = addFolder(p, inputs, out); !s)
                return s.error();
            continue;
        }
        inputs.push_back(p);
    }
    if (Status s = identify(inputs, options, *spooled, out); !s)
        return s.error();
    out.spooled = std::move(spooled);
    const TraceFormat& format = *out.files[0].format;
    for (const LoadedFile& f : out.files) {
        if (f.format != &format)
            return makeError(ErrorCode::Invalid,
                "cannot combine a " + f.kind + " file with a " + out.files[0].kind + " file in one trace", baseName(f.path));
    }
    if (Status s = format.arrange(out.files); !s)
        return s.error();

    int64_t totalBytes = 0;
    for (const LoadedFile& f : out.files)
        totalBytes += f.bytes;
    ThrottledProgress progress(std::move(progressFn));
    ImportContext ctx { options, out.diagnostics, progress, cancel, 0, std::max<int64_t>(totalBytes, 1) };
    if (Status s = importFiles(format, options, ctx, cancel, out); !s)
        return s.error();
    recordImportOptions(options, out.trace.metadata);
    progress.report(1.0);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace schedlab::trace
