#include "execute.h"

#include "rl/learned_policy.h"
#include "rl/reward_observer.h"

namespace schedlab::workflow {

namespace {
const sim::DecisionLog kNoDecisions;
}

const sim::DecisionLog& RunOutcome::decisions() const
{
    return fill ? fill->decisions : timed ? timed->decisions : kNoDecisions;
}

uint64_t RunOutcome::stateHash() const { return fill ? fill->stateHash : timed ? timed->stateHash : 0; }

double RunOutcome::simSeconds() const { return fill ? fill->seconds : timed ? timed->simSeconds : 0; }

Result<RunOutcome> execute(const sim::RunSpec& spec, const trace::Trace& trace, const ExecuteOptions& options, ProgressFn progress,
    CancelToken cancel)
{
    auto made = rl::makeAnyPolicy(spec.policy, {}, spec.schedulerConfig);
    if (!made)
        return made.error();
    policy::PlacementPolicy& policy = *made.value();
    RunOutcome out;
    out.spec = spec;
    auto journal = options.record ? std::make_shared<sim::StateJournal>() : nullptr;
    sim::Recording recording;
    recording.decisions = options.record;
    recording.topK = options.topK;
    recording.journal = journal.get();
    // Every policy's recorded decisions carry the reward (default weights) they would earn.
    rl::RewardObserver reward { rl::RewardConfig {} };
    const sim::Observers observers { &reward };
    if (const sim::FillOptions* f = spec.fillOptions()) {
        sim::FillOptions o = *f;
        o.fork = {};
        o.stopAt = -1;
        auto r = sim::runFillExperiment(trace, policy, o, recording, observers, std::move(progress), std::move(cancel));
        if (!r)
            return r.error();
        out.fill = std::make_shared<const sim::FillResult>(std::move(r).value());
    } else {
        sim::TimedOptions o = *spec.timedOptions();
        o.fork = {};
        auto r = sim::runTimedReplay(trace, policy, o, recording, observers, std::move(progress), std::move(cancel));
        if (!r)
            return r.error();
        out.timed = std::make_shared<const sim::TimedResult>(std::move(r).value());
    }
    out.journal = std::move(journal);
    return out;
}

} // namespace schedlab::workflow
