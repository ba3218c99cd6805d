#pragma once
/// IBM Spectrum LSF accounting, `lsb.acct` (and its rotations lsb.acct.N): one JOB_FINISH record
/// per finished job, blank-separated, strings in double quotes ("" inside is a quote), times in
/// Unix seconds. Field order per IBM's lsb.acct reference: type, version, event time (= the job's
/// end), jobId, userId, options, numProcessors, submitTime, beginTime, termTime, startTime,
/// userName, queue, resReq, dependCond, preExecCmd, fromHost, cwd, inFile, outFile, errFile,
/// jobFile, numAskedHosts + that many names, numExHosts + that many names (one per slot, or N*host: hostSlots), jStatus,
/// hostFactor, jobName, command, 19 resource usage figures, mailUser, projectName, exitStatus,
/// maxNumProcessors, loginShell, timeEvent, idx, maxRMem, maxRSwap, ... A JOB_FINISH record
/// ending before maxRSwap was cut mid-way and is skipped (truncated-record). Other record types
/// are counted and skipped.
/// A job becomes a gang of one task per distinct execution host holding its slots there (1000
/// cpuMilli a slot); memory is not modelled (0); hosts are sized from the log (accounting_log.h).

#include "base/result.h"

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

/// One execution-host entry: "host" is one slot there; the compact form "16*host" sixteen (LSF
/// writes it with LSF_HPC_EXTENSIONS="SHORT_EVENTFILE": `6 "hostA" x4 "hostB" "hostC"` becomes
/// `3 "4*hostA" "hostB" "hostC"`, numExHosts counting entries). Anything else is a host name.
std::pair<std::string_view, int64_t> hostSlots(std::string_view entry);

/// Splits one lsb.acct record into fields: quoted strings unquoted ("" -> "), bare tokens as is.
/// False with `error` on an unterminated string. Views point into `line` or into `storage`.
bool splitLsfRecord(std::string_view line, std::vector<std::string_view>& fields, std::deque<std::string>& storage, std::string& error);

class LsfImporter {
public:
    LsfImporter();
    ~LsfImporter();
    Status add(LineReader& reader, Trace& trace, ImportContext& ctx);
    Status finish(Trace& trace, ImportContext& ctx);

private:
    struct State;
    std::unique_ptr<State> m;
};

} // namespace schedlab::trace
