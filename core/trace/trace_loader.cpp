#include "trace_loader.h"

#include "google_importer.h"
#include "native_format.h"
#include "openb_importer.h"
#include "swf_importer.h"

#include <algorithm>
#include <chrono>
#include <sys/stat.h>

namespace schedlab::trace {

namespace {

enum class Family { Native, Openb, Swf, Google };

Family familyOf(FileKind k)
{
    switch (k) {
    case FileKind::Native: return Family::Native;
    case FileKind::OpenbNodes:
    case FileKind::OpenbPods: return Family::Openb;
    case FileKind::Swf: return Family::Swf;
    default: return Family::Google;
    }
}

// Import order inside a family: nodes/machines first so jobs can be checked against them.
int orderOf(FileKind k)
{
    switch (k) {
    case FileKind::OpenbNodes:
    case FileKind::GoogleMachineEvents: return 0;
    case FileKind::GoogleJobEvents: return 1;
    default: return 2;
    }
}

} // namespace

Result<LoadedTrace> loadTrace(
    const std::vector<std::string>& paths, const ImportOptions& options, ProgressFn progressFn, CancelToken cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (paths.empty())
        return makeError(ErrorCode::Invalid, "no trace file given");

    LoadedTrace out;
    for (const std::string& p : paths) {
        auto kind = detectFileKind(p);
        if (!kind)
            return kind.error();
        struct stat st {};
        ::stat(p.c_str(), &st);
        out.files.push_back(LoadedFile { p, kind.value(), int64_t(st.st_size), 0 });
    }
    const Family family = familyOf(out.files[0].kind);
    for (const LoadedFile& f : out.files) {
        if (familyOf(f.kind) != family)
            return makeError(ErrorCode::Invalid,
                std::string("cannot combine a ") + fileKindName(f.kind) + " file with a "
                    + fileKindName(out.files[0].kind) + " file in one trace",
                baseName(f.path));
    }
    auto countOf = [&](FileKind k) {
        return std::count_if(out.files.begin(), out.files.end(), [&](const LoadedFile& f) { return f.kind == k; });
    };
    if ((family == Family::Native || family == Family::Swf) && out.files.size() > 1)
        return makeError(ErrorCode::Invalid, "a schedlab or SWF trace is one file; got " + std::to_string(paths.size()));
    if (countOf(FileKind::OpenbNodes) > 1 || countOf(FileKind::OpenbPods) > 1)
        return makeError(ErrorCode::Invalid, "an openb trace is at most one node list and one pod list");
    if (countOf(FileKind::GoogleMachineEvents) > 1 || countOf(FileKind::GoogleJobEvents) > 1)
        return makeError(ErrorCode::Invalid, "a Google trace has at most one machine_events and one job_events file");
    if (family == Family::Google && countOf(FileKind::GoogleTaskEvents) == 0)
        return makeError(ErrorCode::Invalid, "a Google trace needs at least one task_events file");
    std::stable_sort(out.files.begin(), out.files.end(),
        [](const LoadedFile& a, const LoadedFile& b) { return orderOf(a.kind) < orderOf(b.kind); });

    int64_t totalBytes = 0;
    for (const LoadedFile& f : out.files)
        totalBytes += f.bytes;

    ThrottledProgress progress(std::move(progressFn));
    ImportContext ctx { options, out.diagnostics, progress, cancel, 0, std::max<int64_t>(totalBytes, 1) };
    Trace& trace = out.trace;
    GoogleImporter google;
    static const char* kFormatName[] = { "schedlab", "openb", "swf", "google2011" };
    trace.sourceFormat = kFormatName[int(family)];

    for (LoadedFile& f : out.files) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, "import cancelled");
        auto reader = LineReader::open(f.path, options.reader);
        if (!reader)
            return reader.error();
        LineReader& r = *reader.value();
        Status st;
        switch (f.kind) {
        case FileKind::Native: st = importNative(r, trace, ctx); break;
        case FileKind::OpenbNodes: st = importOpenbNodes(r, trace, ctx); break;
        case FileKind::OpenbPods: st = importOpenbPods(r, trace, ctx); break;
        case FileKind::Swf: st = importSwf(r, trace, ctx); break;
        case FileKind::GoogleMachineEvents: st = google.addMachineEvents(r, ctx); break;
        case FileKind::GoogleJobEvents: st = google.addJobEvents(r, ctx); break;
        case FileKind::GoogleTaskEvents: st = google.addTaskEvents(r, ctx); break;
        }
        if (!st)
            return st.error();
        f.uncompressedBytes = r.bytesRead();
        ctx.bytesBefore += f.bytes;
        if (family != Family::Native)
            trace.sourceFiles.push_back(baseName(f.path));
        if (options.strict && out.diagnostics.total() > 0 && !out.diagnostics.kept().empty()) {
            const Warning& w = out.diagnostics.kept().front();
            return Error { ErrorCode::Parse, (w.field.empty() ? "" : "column " + w.field + ": ") + w.message + " (--strict)",
                w.file, w.line, -1 };
        }
    }
    if (family == Family::Google) {
        Status st = google.finish(trace, ctx);
        if (!st)
            return st.error();
    }
    if (family == Family::Openb && trace.jobs.empty() && trace.nodes.empty())
        return makeError(ErrorCode::Empty, "openb trace has neither nodes nor pods");
    progress.report(1.0);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace schedlab::trace
