#include "slurm_layout.h"

#include "fields.h"
#include "slurm_fields.h"

#include <cctype>

namespace schedlab::trace {

namespace {

struct Known {
    const char* source;
    std::vector<std::string_view> names;
    int submitAt; ///< a field that must read as a time
};

// Open XDMoD's xdmod-slurm-helper (its Shredder/Slurm.php field list) and AWS hpc-cost-simulator's
// SlurmLogParser (SLURM_ACCT_FIELDS): the two header-less exports seen in public data.
const std::vector<Known>& knownLayouts()
{
    static const std::vector<Known> layouts = {
        { "xdmod-26",
            { "jobid", "jobidraw", "cluster", "partition", "qos", "account", "group", "gid", "user", "uid", "submit", "eligible",
                "start", "end", "elapsed", "exitcode", "state", "nnodes", "ncpus", "reqcpus", "reqmem", "reqtres", "alloctres",
                "timelimit", "nodelist", "jobname" },
            10 },
        { "hpc-cost-simulator-25",
            { "state", "jobid", "reqcpus", "reqmem", "reqnodes", "constraints", "submit", "eligible", "start", "elapsed",
                "suspended", "end", "exitcode", "derivedexitcode", "allocnodes", "ncpus", "maxdiskread", "maxdiskwrite",
                "maxpages", "maxrss", "maxvmsize", "cputime", "usercpu", "systemcpu", "totalcpu" },
            6 },
    };
    return layouts;
}

std::string lower(std::string_view s)
{
    std::string out(trimmed(s));
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::optional<SacctLayout> sacctLayoutFromNames(const std::vector<std::string_view>& names, std::string source, std::string& error)
{
    SacctLayout l;
    l.source = std::move(source);
    l.fieldCount = names.size();
    struct Slot {
        const char* name;
        int SacctLayout::*member;
    };
    static const Slot slots[] = { { "jobid", &SacctLayout::jobId }, { "jobidraw", &SacctLayout::jobIdRaw },
        { "jobname", &SacctLayout::jobName }, { "user", &SacctLayout::user }, { "uid", &SacctLayout::uid },
        { "gid", &SacctLayout::gid }, { "account", &SacctLayout::account }, { "partition", &SacctLayout::partition },
        { "qos", &SacctLayout::qos }, { "priority", &SacctLayout::priority }, { "submit", &SacctLayout::submit },
        { "eligible", &SacctLayout::eligible }, { "start", &SacctLayout::start }, { "end", &SacctLayout::end },
        { "elapsed", &SacctLayout::elapsed }, { "elapsedraw", &SacctLayout::elapsedRaw },
        { "timelimit", &SacctLayout::timelimit }, { "timelimitraw", &SacctLayout::timelimitRaw },
        { "state", &SacctLayout::state }, { "nnodes", &SacctLayout::nnodes }, { "allocnodes", &SacctLayout::allocNodes },
        { "reqnodes", &SacctLayout::reqNodes }, { "ncpus", &SacctLayout::ncpus }, { "alloccpus", &SacctLayout::allocCpus },
        { "reqcpus", &SacctLayout::reqCpus }, { "reqmem", &SacctLayout::reqMem }, { "reqtres", &SacctLayout::reqTres },
        { "alloctres", &SacctLayout::allocTres }, { "nodelist", &SacctLayout::nodeList },
        { "cputimeraw", &SacctLayout::cpuTimeRaw }, { "resvcpuraw", &SacctLayout::resvCpuRaw },
        { "cluster", &SacctLayout::cluster } };
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string n = lower(names[i]);
        for (const Slot& s : slots)
            if (n == s.name && l.*(s.member) < 0)
                l.*(s.member) = int(i);
    }
    if (l.submit < 0) {
        error = "sacct output without a Submit field (the fields are: ";
        for (std::size_t i = 0; i < names.size(); ++i)
            error += (i ? "," : "") + std::string(trimmed(names[i]));
        error += ")";
        return std::nullopt;
    }
    return l;
}

bool looksLikeSacctHeader(const std::vector<std::string_view>& fields)
{
    bool jobId = false, submit = false, state = false;
    for (std::string_view f : fields) {
        const std::string n = lower(f);
        jobId |= n == "jobid" || n == "jobidraw";
        submit |= n == "submit";
        state |= n == "state";
    }
    return fields.size() >= 2 && (jobId || (submit && state));
}

char sacctHeaderDelimiter(std::string_view line)
{
    std::vector<std::string_view> fields;
    for (char c : kSacctDelimiters) {
        if (line.find(c) == std::string_view::npos)
            continue;
        splitChar(line, c, fields);
        if (looksLikeSacctHeader(fields))
            return c;
    }
    return 0;
}

std::string delimiterText(char c) { return c == '\t' ? std::string("\\t") : std::string(1, c); }

std::optional<SacctLayout> knownHeaderlessSacctLayout(const std::vector<std::string_view>& fields)
{
    for (const Known& k : knownLayouts()) {
        if (fields.size() != k.names.size())
            continue;
        std::string error;
        if (!parseSlurmDateTime(fields[std::size_t(k.submitAt)], error))
            continue;
        return sacctLayoutFromNames(k.names, k.source, error);
    }
    return std::nullopt;
}

std::string knownSacctLayoutsText()
{
    std::string out;
    for (const Known& k : knownLayouts()) {
        out += out.empty() ? "" : "; ";
        out += std::to_string(k.names.size()) + " fields (" + k.source + ")";
    }
    return out;
}

} // namespace schedlab::trace
