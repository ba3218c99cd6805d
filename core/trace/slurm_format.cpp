// The Slurm format object: `sacct --parsable2` output, recognised by its '|'-separated header
// line, or a header-less row in a known layout (or any '|' row with a Slurm time, which then
// needs --sacct-fields).

#include "slurm_importer.h"
#include "slurm_fields.h"
#include "slurm_layout.h"
#include "trace_format.h"

#include "fields.h"

namespace schedlab::trace {

namespace {

class SlurmImport final : public FormatImport {
public:
    Status add(const LoadedFile&, LineReader& reader, Trace& trace, ImportContext& ctx) override { return m_importer.add(reader, trace, ctx); }
    Status finish(Trace& trace, ImportContext& ctx) override { return m_importer.finish(trace, ctx); }

private:
    SlurmImporter m_importer;
};

class SlurmFormat final : public TraceFormat {
public:
    std::string name() const override { return "slurm"; }
    std::string description() const override { return "a Slurm sacct --parsable2 line"; }
    Detection detect(const FileHead& h) const override
    {
        std::vector<std::string_view> fields;
        splitChar(h.firstLine, '|', fields);
        if (looksLikeSacctHeader(fields) || sacctHeaderDelimiter(h.firstLine) != 0) // sacct --delimiter X: X
            return { 90, "slurm-sacct", {} };
        if (fields.size() >= 3 && knownHeaderlessSacctLayout(fields))
            return { 70, "slurm-sacct", {} };
        // Rows with a Slurm time, split at '|' or another delimiter (sacct --delimiter): they need
        // --sacct-fields (and --sacct-delimiter); the importer says so.
        std::string error;
        for (char c : kSacctDelimiters) {
            splitChar(h.firstLine, c, fields);
            if (fields.size() >= 3)
                for (std::string_view f : fields)
                    if (parseSlurmDateTime(f, error))
                        return { 30, "slurm-sacct", {} };
        }
        splitChar(h.firstLine, '|', fields);
        if (fields.size() >= 3)
            return { 0, {}, "'|'-separated like sacct --parsable2 output, but neither a header naming JobID (or Submit and State) "
                              "nor a Slurm time in the line: " + quoted(h.firstLine) };
        return {};
    }
    Status arrange(std::vector<LoadedFile>&) const override { return {}; } // any number, in the given order
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<SlurmImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeSlurmFormat() { return std::make_unique<SlurmFormat>(); }

} // namespace schedlab::trace
