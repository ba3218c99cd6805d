// The Google cluster trace 2011 format object: machine_events (at most one), job_events (at most
// one) and task_events part files (at least one), CSV without a header, told apart by their
// field counts; imported machines first, then jobs, then tasks.

#include "google_importer.h"
#include "trace_format.h"

#include "fields.h"

#include <algorithm>

namespace schedlab::trace {

namespace {

bool allNumericOrEmpty(const std::vector<std::string_view>& fields, std::initializer_list<int> cols)
{
    for (int c : cols) {
        if (std::size_t(c) >= fields.size())
            return false;
        std::string_view f = trimmed(fields[std::size_t(c)]);
        double d = 0;
        if (!f.empty() && parseDouble(f, d) != ParseStatus::Ok)
            return false;
    }
    return true;
}

int orderOf(const std::string& kind) { return kind == "google-machine-events" ? 0 : kind == "google-job-events" ? 1 : 2; }

class GoogleImport final : public FormatImport {
public:
    Status add(const LoadedFile& file, LineReader& reader, Trace&, ImportContext& ctx) override
    {
        switch (orderOf(file.kind)) {
        case 0: return m_google.addMachineEvents(reader, ctx);
        case 1: return m_google.addJobEvents(reader, ctx);
        default: return m_google.addTaskEvents(reader, ctx);
        }
    }
    Status finish(Trace& trace, ImportContext& ctx) override { return m_google.finish(trace, ctx); }

private:
    GoogleImporter m_google;
};

class GoogleFormat final : public TraceFormat {
public:
    std::string name() const override { return "google2011"; }
    std::string description() const override { return "Google 2011 events"; }
    Detection detect(const FileHead& h) const override
    {
        const auto& f = h.commaFields;
        if (f.size() == 13 && allNumericOrEmpty(f, { 0, 1, 2, 3, 4, 5, 7, 8 }))
            return { 50, "google-task-events", {} };
        if (f.size() == 8 && allNumericOrEmpty(f, { 0, 1, 2, 3, 5 }))
            return { 50, "google-job-events", {} };
        if (f.size() == 6 && allNumericOrEmpty(f, { 0, 1, 2, 4, 5 }))
            return { 50, "google-machine-events", {} };
        if (f.size() >= 4 && allNumericOrEmpty(f, { 0, 1, 2 }))
            return { 0, {}, "comma-separated numbers like a Google 2011 events file, but " + std::to_string(f.size())
                    + " fields (task_events has 13, job_events 8, machine_events 6): " + quoted(h.firstLine) };
        return {};
    }
    Status arrange(std::vector<LoadedFile>& files) const override
    {
        auto count = [&](const char* kind) { return std::count_if(files.begin(), files.end(), [kind](const LoadedFile& f) { return f.kind == kind; }); };
        if (count("google-machine-events") > 1 || count("google-job-events") > 1)
            return makeError(ErrorCode::Invalid, "a Google trace has at most one machine_events and one job_events file");
        if (count("google-task-events") == 0)
            return makeError(ErrorCode::Invalid, "a Google trace needs at least one task_events file");
        std::stable_sort(files.begin(), files.end(), [](const LoadedFile& a, const LoadedFile& b) { return orderOf(a.kind) < orderOf(b.kind); });
        return {};
    }
    std::unique_ptr<FormatImport> startImport() const override { return std::make_unique<GoogleImport>(); }
};

} // namespace

std::unique_ptr<TraceFormat> makeGoogleFormat() { return std::make_unique<GoogleFormat>(); }

} // namespace schedlab::trace
