#pragma once
/// What the views plot of a run, whatever mode made it: named series with their x-axis kind, and
/// the one conversion between a run's own x (pod number, trace seconds) and the plot's x (arrived
/// GPU workload %, hours since the first tick). The dashboard, heatmap, decision table and
/// incident panel use it instead of asking which mode a run was.

#include "sim/fill_experiment.h"
#include "sim/run_spec.h"
#include "sim/timed_replay.h"

#include <string>
#include <vector>

namespace schedlab::workflow {

struct RunOutcome;

/// The plot x axis of a run.
class RunAxis {
public:
    RunAxis() = default;
    /// Exactly one of `fill`, `timed` set (both null: an empty axis).
    RunAxis(const sim::FillResult* fill, const sim::TimedResult* timed);
    explicit RunAxis(const RunOutcome& run);

    /// ArrivedPct (fill) or Seconds shown as hours since the first tick (timed).
    sim::XAxisKind kind() const { return m_fill ? sim::XAxisKind::ArrivedPct : sim::XAxisKind::Seconds; }
    bool counts() const { return m_fill != nullptr; } ///< the run's own x counts pods (fill)
    std::string label() const; ///< "arrived GPU workload (%)", "time since first submit (h)"
    std::string unit() const; ///< "%", "h"
    /// Timed: trace seconds -> plot hours. Fill: identity (arrived %).
    double plotXOfSeconds(double seconds) const;
    /// A decision's own x (fill: pod number, 0-based; timed: trace seconds) -> plot x.
    double plotXOfDecision(double decisionX) const;
    /// Plot x -> the decision x nearest below it (fill: the pod at which arrived % reached x).
    double decisionXOfPlot(double plotX) const;
    /// Timed: hours since the first tick as the user types them in filters -> trace seconds.
    double secondsOfHours(double hours) const { return m_t0 + hours * 3600.0; }
    double startS() const { return m_t0; } ///< timed: the first tick; 0 for fill

private:
    const sim::FillResult* m_fill = nullptr;
    double m_t0 = 0;
};

/// The dashboard's three panels.
enum class Panel { Latency = 0, Fragmentation = 1, Utilization = 2 };
/// Choices of the timed panels (fill runs have one series per panel).
enum class UtilizationKind { Cpu = 0, Memory = 1, Gpu = 2 };
enum class FragmentationKind { Gpu = 0, Cpu = 1 };

struct NamedSeries {
    std::string name; ///< the y-axis title: "p99 wait (s), 1 h window", "GPU allocation (%)"
    sim::XAxisKind axis = sim::XAxisKind::Seconds;
    std::vector<double> x, y; ///< x in plot units (RunAxis)
};

/// The series a panel shows for a run: fill GPU allocation / fragmentation amount (GPUs) /
/// fragmentation rate over arrived %; timed p99 wait (ticks with no start in the window left out)
/// / fragmentation rate / utilization over hours. `p99WindowS` names the p99 window.
NamedSeries panelSeries(const sim::FillResult* fill, const sim::TimedResult* timed, Panel panel, UtilizationKind util = UtilizationKind::Gpu,
    FragmentationKind frag = FragmentationKind::Gpu, double p99WindowS = 3600);
NamedSeries panelSeries(const RunOutcome& run, Panel panel, UtilizationKind util = UtilizationKind::Gpu,
    FragmentationKind frag = FragmentationKind::Gpu);

/// Whether the utilization and fragmentation choices apply to runs of this mode.
bool panelsHaveChoices(sim::RunMode mode);

/// The node heat of a run (nullptr for an empty outcome).
const sim::NodeHeat* heatOf(const sim::FillResult* fill, const sim::TimedResult* timed);

/// The heat columns of a run in plot x.
std::vector<double> heatColumnsX(const sim::FillResult* fill, const sim::TimedResult* timed);

/// One summary figure of a run.
struct NamedValue {
    std::string name; ///< "wait p99 (s)", "final GPU allocation (%)"
    double value = 0;
};

/// The figures runs of a mode are compared by, in a fixed order (the same names for every run of
/// the mode): fill final GPU allocation, fragmentation rate, failed pods and GPUs; timed wait p50
/// and p99, mean utilization of `util` and GPU fragmentation, failed jobs, energy (-1 when the
/// trace has no power model); with `room` also evictions, migrations and work lost (GPU-h) (see
/// madeRoom).
std::vector<NamedValue> summaryMetrics(const RunOutcome& run, UtilizationKind util = UtilizationKind::Gpu, bool room = false);
/// A timed run that evicted or moved running units to make room (TimedOptions::preemption/migration).
bool madeRoom(const RunOutcome& run);

/// Waits (start - submit, s) of the units that started, sorted; empty for fill runs.
std::vector<double> sortedWaits(const RunOutcome& run);

} // namespace schedlab::workflow
