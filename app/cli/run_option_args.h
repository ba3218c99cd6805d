#pragma once
// The run options that replay, train, eval and sweep plan share, parsed in one place with one set
// of messages: the queue (--queue, --backfill, --head) and making room (--preemption, --migration,
// --migration-restart, --migrations-per-hour; fill: --migration, --migration-budget). Options not
// given keep the values already in the spec, so each command's defaults (a training round
// backfills with EASY: rl::trainingRun) come from the spec it starts from.

#include "cli_args.h"

#include "sim/run_spec.h"

#include <set>
#include <string>
#include <vector>

namespace schedlab::cli {

/// The options parseQueueOptions() and parseRoomOptions() read, with their help lines, for the
/// command table (functions, not globals: other files' static initialisers use them).
const std::vector<OptionSpec>& queueOptions();
const std::vector<OptionSpec>& roomOptions();
/// The names of queueOptions().
const std::set<std::string>& queueOptionNames();

/// --queue, --backfill, --head into a timed run's options. Returns an error text, empty when fine.
std::string parseQueueOptions(const Args& a, sim::TimedOptions& o);
/// Making room: timed --preemption, --migration, --migration-restart, --migrations-per-hour;
/// fill --migration, --migration-budget (--preemption is refused there). An error text or empty.
std::string parseRoomOptions(const Args& a, sim::RunSpec& spec);
/// Both of the above for the spec's mode (a fill spec refuses --queue, --backfill, --head).
std::string parseRunOptions(const Args& a, sim::RunSpec& spec);

} // namespace schedlab::cli
