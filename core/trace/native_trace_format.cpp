// The format object of schedlab's own trace files (native_format.h): one file, a magic first line.

#include "native_format.h"
#include "trace_format.h"

namespace schedlab::trace {

namespace {

class NativeImport final : public FormatImport {
public:
    Status add(const LoadedFile&, LineReader& reader, Trace& trace, ImportContext& ctx) override { return importNative(reader, trace, ctx); }
    Status finish(Trace&, ImportContext&) override { return {}; }
};

class NativeFormat final : public TraceFormat {
public:
    std::string name() const override { return "schedlab"; }
    std::string description() const override { return "a schedlab trace"; }
    Detection detect(const FileHead& h) const override
    {
        if (h.firstLine == kNativeMagic)
            return { 100, "schedlab", {} };
        return {};
    }
    Status arrange(std::vector<LoadedFile>& files) const override
    {
        if (files.size() > 1)
            return makeError(ErrorCode::Invalid, "a schedlab or SWF trace is one file; got " + std::to_string(files.size()));
        return {};
    }
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<NativeImport>(); }
    bool recordsSourceFiles() const override { return false; } // it carries the names of its own sources
};

} // namespace

std::unique_ptr<TraceFormat> makeNativeFormat() { return std::make_unique<NativeFormat>(); }

} // namespace schedlab::trace
