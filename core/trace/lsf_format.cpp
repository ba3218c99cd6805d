// The LSF format object: lsb.acct accounting, recognised by a first record of a type lsb.acct
// holds ("JOB_FINISH", "JOB_RESIZE", "EVENT_ADRSV_FINISH").

#include "lsf_importer.h"
#include "trace_format.h"

#include "fields.h"

namespace schedlab::trace {

namespace {

class LsfImport final : public FormatImport {
public:
    Status add(const LoadedFile&, LineReader& reader, Trace& trace, ImportContext& ctx) override { return m_importer.add(reader, trace, ctx); }
    Status finish(Trace& trace, ImportContext& ctx) override { return m_importer.finish(trace, ctx); }

private:
    LsfImporter m_importer;
};

class LsfFormat final : public TraceFormat {
public:
    std::string name() const override { return "lsf"; }
    std::string description() const override { return "an LSF lsb.acct record"; }
    Detection detect(const FileHead& h) const override
    {
        const std::string_view t = trimmed(h.firstLine);
        for (std::string_view type : { "\"JOB_FINISH\"", "\"JOB_RESIZE\"", "\"EVENT_ADRSV_FINISH\"" })
            if (t.starts_with(type) && t.size() > type.size() && (t[type.size()] == ' ' || t[type.size()] == '\t'))
                return { 95, "lsf-acct", {} };
        // lsb.events: "#<seek position>" then records such as "LOAD_INDEX", "MBD_START", "JOB_NEW".
        for (std::string_view other : { "\"MBD_START\" ", "\"JOB_NEW\" ", "\"LOAD_INDEX\" ", "\"JOB_START\" " })
            if (h.text.find(other) != std::string_view::npos)
                return { 0, {}, "an LSF event log (lsb.events, " + std::string(other.substr(0, other.size() - 1))
                        + " records): schedlab reads the accounting log, lsb.acct, whose JOB_FINISH records say what each job ran on" };
        return {};
    }
    Status arrange(std::vector<LoadedFile>&) const override { return {}; } // lsb.acct.N rotations, in the given order
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<LsfImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeLsfFormat() { return std::make_unique<LsfFormat>(); }

} // namespace schedlab::trace
