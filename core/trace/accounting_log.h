#pragma once
/// What the importers of accounting logs (Slurm sacct, LSF lsb.acct) share once every row is read:
/// times moved from Unix seconds to seconds from the earliest submit (the epoch kept in metadata
/// `epoch.unixS`, so axes show dates), and a cluster built from where the jobs ran, since these
/// logs name hosts but not their size.

#include <cstdint>
#include <string>
#include <vector>

namespace schedlab::trace {

struct Trace;

/// Subtracts the earliest submit from every submit and logged start/end (all in Unix seconds on
/// entry; -1 stays -1) and records it as `epoch.unixS`. No-op on a trace without jobs.
void rebaseToEarliestSubmit(Trace& trace);

/// Sizes the nodes the log named (Trace::nodes, capacities still 0): each gets, per resource, the
/// peak of what the log shows allocated on it at once (a task holds its request from its logged
/// start to its logged end, or to the end of the log while still running; a task ending at t frees
/// before one starting at t), and at least the largest single task placed on it. The logged
/// schedule therefore fits; any other schedule is judged against the capacity the log proves.
/// Sets `<prefix>.capacity` in metadata to say so. Rows that record one allocation more than once
/// (Slurm rows sharing a JobIDRaw) carry the same `allocationOf[job]` (>= 0; -1 or past the end =
/// a row of its own): on a node they hold the largest of them at each instant, never their sum.
void inferNodeCapacities(Trace& trace, const std::string& prefix, const std::vector<int64_t>& allocationOf = {});

/// For logs that name no hosts (an anonymised sacct export): one node "pool" sized like
/// inferNodeCapacities() sizes a node, and every task with a logged start placed on it.
void addInferredPool(Trace& trace, const std::string& prefix, const std::vector<int64_t>& allocationOf = {});

} // namespace schedlab::trace
