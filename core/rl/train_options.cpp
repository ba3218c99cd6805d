#include "dqn_trainer.h"

#include <cstdio>

namespace schedlab::rl {

sim::RunSpec trainingRun(sim::RunMode mode)
{
    if (mode == sim::RunMode::Fill)
        return sim::RunSpec::fill({}, sim::FillOptions {});
    sim::TimedOptions t;
    t.backfill = sim::Backfill::Easy;
    return sim::RunSpec::timed({}, t);
}

LearnedOptions TrainOptions::learnedOptions() const
{
    LearnedOptions l = policy;
    l.waitTargetS = reward.p99TargetS;
    return l;
}

bool TrainOptions::makesRoom() const
{
    const sim::TimedOptions* t = run.timedOptions();
    return t && (t->preemption != sim::Preemption::None || t->migration != sim::Migration::None);
}

std::string validationText(sim::RunMode mode, double validation)
{
    char buf[64];
    if (mode == sim::RunMode::Fill)
        std::snprintf(buf, sizeof buf, "%.2f %% GPU allocated", validation);
    else
        std::snprintf(buf, sizeof buf, "p99 wait %.0f s", validation);
    return buf;
}

sim::FillOptions fillOptionsFor(const TrainOptions& o, uint64_t seed)
{
    sim::FillOptions f = o.run.fillOptions() ? *o.run.fillOptions() : sim::FillOptions {};
    f.seed = seed;
    f.maxPods = 0; // validations and evaluations place every pod
    return f;
}

sim::Recording trainingRecording()
{
    sim::Recording r;
    r.decisions = false;
    r.heat = false;
    return r;
}

sim::FillOptions episodeFillOptions(const TrainOptions& o, uint64_t seed)
{
    sim::FillOptions f = fillOptionsFor(o, seed);
    if (const sim::FillOptions* run = o.run.fillOptions())
        f.maxPods = run->maxPods;
    return f;
}

sim::TimedOptions timedOptionsFor(const TrainOptions& o, uint64_t seed)
{
    sim::TimedOptions t = o.run.timedOptions() ? *o.run.timedOptions() : sim::TimedOptions {};
    t.seed = seed;
    t.defaultSlaS = o.constraints.slaS;
    return t;
}

} // namespace schedlab::rl
