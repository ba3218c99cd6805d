#pragma once
/// The value syntaxes of Slurm accounting (`sacct --parsable2`): times, durations, memory sizes,
/// TRES lists and hostlists. Allocation-free where it matters; every parser says why it failed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace schedlab::trace {

/// Seconds since 1970-01-01 of a civil date-time read as UTC (proleptic Gregorian).
int64_t civilSeconds(int year, int month, int day, int hour, int minute, int second);

/// A value that sacct writes for "no time": "Unknown", "None", "N/A", "INVALID", empty.
bool isSlurmNoTime(std::string_view text);

/// `YYYY-MM-DDTHH:MM:SS` (sacct's default; a space for the T is accepted) as civil seconds
/// (local time of the cluster, no zone). Empty optional with `error` set when malformed.
std::optional<int64_t> parseSlurmDateTime(std::string_view text, std::string& error);

/// `[D-]HH:MM:SS`, `MM:SS`, `MM:SS.mmm`, `D-HH`, `D-HH:MM` (sacct's and sbatch --time's forms),
/// or plain seconds. Optional empty for "UNLIMITED", "Partition_Limit" and the no-time words;
/// `error` set when malformed.
std::optional<double> parseSlurmDuration(std::string_view text, std::string& error);

/// A memory amount: number, optional unit K/M/G/T/P (binary; M when absent), optional `n` (per
/// node) or `c` (per CPU) suffix. Old sacct printed the per-CPU flag into the number
/// (2147486648Mn = 2^31 + 3000): a value of 2^31 MiB or more has 2^31 taken off and is per CPU.
struct SlurmMemory {
    double mib = 0;
    bool perCpu = false;
    bool flagInNumber = false; ///< the 2^31 artefact was undone
};
std::optional<SlurmMemory> parseSlurmMemory(std::string_view text, std::string& error);

/// What a TRES list (`billing=12,cpu=12,gres/gpu=2,mem=31000M,node=1`) says; -1 = absent.
struct SlurmTres {
    int64_t cpu = -1;
    double memMiB = -1; ///< of the whole job
    int64_t nodes = -1;
    int64_t gpus = -1; ///< gres/gpu total (typed entries like gres/gpu:a100=2 summed)
    std::string gpuModel; ///< the type of a typed gres/gpu entry, empty if untyped
};
std::optional<SlurmTres> parseSlurmTres(std::string_view text, std::string& error);

/// Expands a Slurm hostlist (`cn[01-04,07]`, `a[1-2]-b[1-2]`, `x,y`) in order. "None assigned"
/// and empty give no names. At most `limit` names (error beyond: hostile input).
std::optional<std::vector<std::string>> expandHostlist(std::string_view text, std::size_t limit, std::string& error);

/// Local civil time to UTC for one time zone: "UTC" (default), a fixed offset "UTC+05:30" /
/// "-06:00", or an IANA name ("America/New_York", daylight saving honoured). Offsets are cached
/// per local hour, so a million rows cost a few thousand zone lookups.
class LocalTimeZone {
public:
    /// Empty optional with `error` when the zone is not known.
    static std::optional<LocalTimeZone> make(const std::string& name, std::string& error);
    const std::string& name() const { return m_name; }
    bool isUtc() const { return m_utc; }
    /// Unix seconds of a local civil time (a time skipped by a DST jump is taken as the later
    /// offset, a repeated one as the first).
    int64_t toUnix(int64_t civil) const;

private:
    std::string m_name;
    bool m_utc = true;
    int m_fixedOffsetS = 0; ///< when m_iana is empty
    std::string m_iana;
    mutable std::unordered_map<int64_t, int> m_offsetByHour; ///< local hour -> offset (s)
};

} // namespace schedlab::trace
