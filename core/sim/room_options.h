#pragma once
/// Making room for work that fits nowhere (module README, "Making room"): the choices shared by the
/// timed replay (TimedOptions) and the fill experiment (FillOptions, migration only).

#include <string>

namespace schedlab::sim {

/// What a single-task unit that fits nowhere may do to running units (timed replay).
/// Priority: Kubernetes default preemption (evict lower-priority units, the fewest and least
/// important, on the node chosen by the scheduler's criteria; evicted units queue again and lose
/// the time they ran). Migration Defragment: move one running single-task unit of the same or
/// lower priority to another node when that frees a node for the waiting one (the moved unit's
/// end moves `migrationRestartS` later). Tried for the unit at the head of a pass, migration first.
enum class Preemption { None, Priority };
enum class Migration { None, Defragment };
const char* preemptionName(Preemption p);
bool parsePreemption(const std::string& s, Preemption& out);
const char* migrationName(Migration m);
bool parseMigration(const std::string& s, Migration& out);

/// In the fill experiment (no time, nothing ends) a migration moves one placed pod to another node
/// when that lets the failed pod fit; see FillOptions::migration.

} // namespace schedlab::sim
