#pragma once
/// Slurm accounting, `sacct --parsable2` output (with a header line, header-less in a known
/// layout, or with --sacct-fields): one job per allocation row, steps (`123.batch`, `123.0`,
/// `123.extern`) folded into their job, local times read in ImportOptions::timezone, the logged
/// node list and start kept as the logged decision, node sizes inferred from the log (see
/// core/trace/README.md, "Slurm").

#include "base/result.h"

#include <memory>

namespace schedlab::trace {

class LineReader;
struct ImportContext;
struct Trace;

class SlurmImporter {
public:
    SlurmImporter();
    ~SlurmImporter();
    /// One sacct file; several files (e.g. one per month) add up to one trace.
    Status add(LineReader& reader, Trace& trace, ImportContext& ctx);
    /// Times rebased to the earliest submit, nodes sized, counts into metadata.
    Status finish(Trace& trace, ImportContext& ctx);

private:
    struct State;
    std::unique_ptr<State> m;
};

} // namespace schedlab::trace
