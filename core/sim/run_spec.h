#pragma once
/// A run spec: the policy and the options of exactly one run mode. It is what the workflow layer
/// executes, what a project stores with a run (store/run_spec_codec.h) and what incident replay
/// replays again. Adding a mode means adding an alternative to `RunSpec::Options` and the
/// compiler lists every `std::visit` that must handle it. The options are the experiment's only:
/// what a run records is the Recording it is run with (recording.h), never part of the spec.

#include "fill_experiment.h"
#include "timed_replay.h"

#include <cstdint>
#include <string>
#include <variant>

namespace schedlab::sim {

enum class RunMode { Fill, Timed };

/// "fill", "timed".
const char* runModeName(RunMode mode);
/// Accepts the names of runModeName(); false otherwise (mode untouched).
bool parseRunMode(const std::string& name, RunMode& mode);

/// What the x axis of a run's series and decisions measures.
enum class XAxisKind {
    ArrivedPct, ///< fill: arrived GPU workload, % of capacity
    PodIndex, ///< fill decisions: pod number, 0-based
    Seconds, ///< timed: seconds of trace time
};

struct RunSpec {
    using Options = std::variant<FillOptions, TimedOptions>;
    std::string policy; ///< registry name or model spec ("learned:F.slq")
    Options options = TimedOptions {};
    /// A KubeSchedulerConfiguration (YAML text, kept whole so the run replays the same later)
    /// for k8s-default / k8s-sampling (policy/k8s_scheduler_config.h); empty = built-in defaults.
    std::string schedulerConfig;

    static RunSpec fill(std::string policy, FillOptions o) { return { std::move(policy), std::move(o), {} }; }
    static RunSpec timed(std::string policy, TimedOptions o) { return { std::move(policy), std::move(o), {} }; }

    RunMode mode() const { return std::holds_alternative<FillOptions>(options) ? RunMode::Fill : RunMode::Timed; }
    bool isFill() const { return mode() == RunMode::Fill; }
    /// The options of the mode, nullptr for the other mode.
    const FillOptions* fillOptions() const { return std::get_if<FillOptions>(&options); }
    FillOptions* fillOptions() { return std::get_if<FillOptions>(&options); }
    const TimedOptions* timedOptions() const { return std::get_if<TimedOptions>(&options); }
    TimedOptions* timedOptions() { return std::get_if<TimedOptions>(&options); }

    uint64_t seed() const;
    void setSeed(uint64_t seed);
    policy::TieBreak tieBreak() const;
    /// How the run makes room, for labels: "", " + preemption", " + migration" or both (fill: at
    /// most " + migration").
    std::string roomSuffix() const;
    /// Decisions (and with a journal, states) are x'ed by this: PodIndex or Seconds.
    XAxisKind decisionAxis() const { return isFill() ? XAxisKind::PodIndex : XAxisKind::Seconds; }
    /// The series (curve / ticks) are x'ed by this: ArrivedPct or Seconds.
    XAxisKind seriesAxis() const { return isFill() ? XAxisKind::ArrivedPct : XAxisKind::Seconds; }
};

} // namespace schedlab::sim
