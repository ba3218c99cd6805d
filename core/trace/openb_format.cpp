// The openb format object (Alibaba GPU 2023 "openb"): a node list and/or a pod list, CSV with a
// header; nodes are imported first so pods can be checked against them.

#include "openb_importer.h"
#include "trace_format.h"

#include "fields.h"
#include "trace.h"

#include <algorithm>

namespace schedlab::trace {

namespace {

class OpenbImport final : public FormatImport {
public:
    Status add(const LoadedFile& file, LineReader& reader, Trace& trace, ImportContext& ctx) override
    {
        return file.kind == "openb-nodes" ? importOpenbNodes(reader, trace, ctx) : importOpenbPods(reader, trace, ctx);
    }
    Status finish(Trace& trace, ImportContext&) override
    {
        if (trace.jobs.empty() && trace.nodes.empty())
            return makeError(ErrorCode::Empty, "openb trace has neither nodes nor pods");
        return {};
    }
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
