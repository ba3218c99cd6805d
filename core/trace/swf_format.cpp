// The SWF format object (Standard Workload Format, Parallel Workloads Archive): one log per trace,
// recognised by a ';' header comment or a first line of 18 numeric fields.

#include "swf_importer.h"
#include "trace_format.h"

#include "fields.h"

#include <algorithm>

namespace schedlab::trace {

namespace {

class SwfImport final : public FormatImport {
public:
    Status add(const LoadedFile&, LineReader& reader, Trace& trace, ImportContext& ctx) override { return importSwf(reader, trace, ctx); }
    Status finish(Trace&, ImportContext&) override { return {}; }
};

class SwfFormat final : public TraceFormat {
public:
    std::string name() const override { return "swf"; }
    std::string description() const override { return "an SWF line"; }
    Detection detect(const FileHead& h) const override
    {
        if (trimmed(h.firstLine)[0] == ';')
            return { 95, "swf", {} }; // a header comment: above any CSV reading of the line
        if (h.commaFields.size() != 1)
            return {};
        if (h.spaceFields.size() < 18) { // numbers, but too few of them: say so rather than "unknown"
            double d = 0;
            const bool numbers = h.spaceFields.size() >= 5
                && std::all_of(h.spaceFields.begin(), h.spaceFields.end(), [&](std::string_view f) { return parseDouble(f, d) == ParseStatus::Ok; });
            if (numbers)
                return { 0, {}, "looks like an SWF line (whitespace-separated numbers) but has " + std::to_string(h.spaceFields.size())
                        + " fields where SWF has 18: " + quoted(h.firstLine) };
            return {};
        }
        for (std::size_t i = 0; i < 18; ++i) {
            double d = 0;
            if (parseDouble(h.spaceFields[i], d) != ParseStatus::Ok)
                return {};
        }
        return { 40, "swf", {} };
    }
    Status arrange(std::vector<LoadedFile>& files) const override
    {
        if (files.size() > 1)
            return makeError(ErrorCode::Invalid, "a schedlab or SWF trace is one file; got " + std::to_string(files.size()));
        return {};
    }
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<SwfImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeSwfFormat() { return std::make_unique<SwfFormat>(); }

} // namespace schedlab::trace
