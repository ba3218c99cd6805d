// The openb format object (Alibaba GPU 2023 "openb"): a node list and/or a pod list, CSV with a
// header; nodes are imported first so pods can be checked against them.

#include "openb_importer.h"
#include "trace_format.h"

#include "fields.h"
#include "import_context.h"
#include "line_reader.h"
#include "trace.h"

#include <algorithm>

namespace schedlab::trace {

namespace {

class OpenbImport final : public FormatImport {
public:
    Status add(const LoadedFile& file, LineReader& reader, Trace& trace, ImportContext& ctx) override
    {
        m_files.push_back(baseName(file.path));
        return file.kind == "openb-nodes" ? importOpenbNodes(reader, trace, ctx) : importOpenbPods(reader, trace, ctx);
    }
    Status finish(Trace& trace, ImportContext& ctx) override
    {
        if (!trace.jobs.empty() || !trace.nodes.empty())
            return {};
        // Say which file and why: every row rejected is a different problem from an empty file.
        std::string files;
        for (const std::string& f : m_files)
            files += (files.empty() ? "" : ", ") + f;
        if (ctx.diagnostics.total() == 0 || ctx.diagnostics.kept().empty())
            return makeError(ErrorCode::Empty, "openb trace has neither nodes nor pods (" + files + ")", m_files.empty() ? std::string() : m_files.front());
        const Warning& w = ctx.diagnostics.kept().front();
        return Error { ErrorCode::Empty,
            "openb trace has neither nodes nor pods: every row of " + files + " was rejected (" + std::to_string(ctx.diagnostics.total())
                + " warnings); the first: " + (w.field.empty() ? "" : "column " + w.field + ": ") + w.message,
            w.file, w.line, -1 };
    }

private:
    std::vector<std::string> m_files;
};

class OpenbFormat final : public TraceFormat {
public:
    std::string name() const override { return "openb"; }
    std::string description() const override { return "an openb header"; }
    Detection detect(const FileHead& h) const override
    {
        if (h.hasColumn("sn") && h.hasColumn("cpu_milli"))
            return { 90, "openb-nodes", {} };
        if (h.hasColumn("name") && h.hasColumn("cpu_milli") && (h.hasColumn("num_gpu") || h.hasColumn("gpu_milli")))
            return { 90, "openb-pods", {} };
        if (h.commaFields.size() > 1 && (h.hasColumn("cpu_milli") || h.hasColumn("sn") || h.hasColumn("name")))
            return { 0, {}, "looks like an openb CSV but the header lacks required columns (header is " + quoted(h.firstLine) + ")" };
        return {};
    }
    Status arrange(std::vector<LoadedFile>& files) const override
    {
        for (const char* kind : { "openb-nodes", "openb-pods" })
            if (std::count_if(files.begin(), files.end(), [kind](const LoadedFile& f) { return f.kind == kind; }) > 1)
                return makeError(ErrorCode::Invalid, "an openb trace is at most one node list and one pod list");
        std::stable_sort(files.begin(), files.end(), [](const LoadedFile& a, const LoadedFile& b) {
            return (a.kind == "openb-nodes") > (b.kind == "openb-nodes");
        });
        return {};
    }
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<OpenbImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeOpenbFormat() { return std::make_unique<OpenbFormat>(); }

} // namespace schedlab::trace
