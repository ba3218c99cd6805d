#include "run_spec.h"

namespace schedlab::sim {

const char* runModeName(RunMode mode) { return mode == RunMode::Fill ? "fill" : "timed"; }

bool parseRunMode(const std::string& name, RunMode& mode)
{
    if (name == "fill")
        mode = RunMode::Fill;
    else if (name == "timed")
        mode = RunMode::Timed;
    else
        return false;
    return true;
}

std::string RunSpec::roomSuffix() const
{
    std::string out;
    if (const TimedOptions* t = timedOptions(); t && t->preemption != Preemption::None)
        out += " + preemption";
    const Migration m = isFill() ? fillOptions()->migration : timedOptions()->migration;
    if (m != Migration::None)
        out += " + migration";
    return out;
}

uint64_t RunSpec::seed() const
{
    return std::visit([](const auto& o) { return o.seed; }, options);
}

void RunSpec::setSeed(uint64_t seed)
{
    std::visit([seed](auto& o) { o.seed = seed; }, options);
}

policy::TieBreak RunSpec::tieBreak() const
{
    return std::visit([](const auto& o) { return o.tieBreak; }, options);
}

} // namespace schedlab::sim
