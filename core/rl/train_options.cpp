#include "dqn_trainer.h"

namespace schedlab::rl {

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
