#include "dqn_trainer.h"

#include <cstdio>

namespace schedlab::rl {

std::string validationText(TrainMode mode, double validation)
{
    char buf[64];
    if (mode == TrainMode::Fill)
        std::snprintf(buf, sizeof buf, "%.2f %% GPU allocated", validation);
    else
        std::snprintf(buf, sizeof buf, "p99 wait %.0f s", validation);
    return buf;
}

sim::FillOptions fillOptionsFor(const TrainOptions& o, uint64_t seed)
{
    sim::FillOptions f;
    f.seed = seed;
    f.ratio = o.ratio;
    f.recordDecisions = false;
    f.recordHeat = false;
    return f;
}

sim::TimedOptions timedOptionsFor(const TrainOptions& o, uint64_t seed)
{
    sim::TimedOptions t;
    t.seed = seed;
    t.queue = o.queue;
    t.backfill = o.backfill;
    t.preemption = o.preemption;
    t.migration = o.migration;
    t.migrationRestartS = o.migrationRestartS;
    t.migrationsPerHour = o.migrationsPerHour;
    t.defaultSlaS = o.constraints.slaS;
    t.recordDecisions = false;
    t.recordHeat = false;
    return t;
}

} // namespace schedlab::rl
