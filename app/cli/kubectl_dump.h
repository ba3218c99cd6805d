#pragma once
// A generated cluster written as a kubectl dump whose logged placements are consistent: the
// generated trace replayed with FCFS + FirstFit (no backfilling) decides where and when each pod
// ran; the dump is a snapshot at 90 % of that schedule's span (pods finished, running and pending
// at that moment). Used by `generate --kubectl-dump` and `bench import`.

#include "base/result.h"
#include "trace/trace_generator.h"

#include <string>

namespace schedlab::cli {

struct KubectlDumpStats {
    std::size_t nodes = 0, pods = 0, bound = 0, running = 0, pending = 0;
};

Result<KubectlDumpStats> writeGeneratedKubectlDump(const trace::GeneratorOptions& options, const std::string& dir);

} // namespace schedlab::cli
