#pragma once
/// Queue order: which waiting job goes next (docs/policies.md §1). Each order is a sort key, lower first,
/// recomputed at every scheduling pass because several depend on the current wait.

#include <cstdint>
#include <string>
#include <vector>

namespace schedlab::policy {

enum class QueueOrder { Fcfs, Sjf, Priority, Wfp3, Unicep, F1, FairShare };

/// What a queue order may look at for one waiting job.
struct QueueItem {
    double submitS = 0;
    double requestedS = 0; ///< user's estimate (> 0; the run time when the trace has none)
    double procs = 1; ///< requested cores over all tasks (cpuMilli / 1000), >= 1
    int32_t priority = 0;
    double userShare = 0; ///< dominant resource share currently held by the job's user (FairShare)
};

/// Sort key at time nowS; ties are broken by the caller (submit time, then arrival order).
///  FCFS submit; SJF requested; Priority -priority; WFP3 -(wait/req)^3 * procs;
///  UNICEP -wait / (log2(procs) * req) with procs floored at 2 (log2(1) = 0 would divide by zero);
///  F1 log10(req) * procs + 870 * log10(submit) with submit floored at 1 s; FairShare userShare.
double queueKey(QueueOrder order, const QueueItem& item, double nowS);

/// "fcfs", "sjf", "priority", "wfp3", "unicep", "f1", "fair"; false when unknown.
bool parseQueueOrder(const std::string& name, QueueOrder& out);
std::string queueOrderName(QueueOrder order);
std::vector<std::string> queueOrderNames();

} // namespace schedlab::policy
