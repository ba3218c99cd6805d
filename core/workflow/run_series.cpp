#include "run_series.h"

#include "execute.h"

#include <algorithm>
#include <cmath>

namespace schedlab::workflow {

RunAxis::RunAxis(const sim::FillResult* fill, const sim::TimedResult* timed)
    : m_fill(fill)
    , m_t0(timed && !timed->series.empty() ? timed->series.front().timeS : 0)
{
}

RunAxis::RunAxis(const RunOutcome& run)
    : RunAxis(run.fill.get(), run.timed.get())
{
}

std::string RunAxis::label() const { return m_fill ? "arrived GPU workload (%)" : "time since first submit (h)"; }

std::string RunAxis::unit() const { return m_fill ? "%" : "h"; }

double RunAxis::plotXOfSeconds(double seconds) const { return m_fill ? seconds : (seconds - m_t0) / 3600.0; }

double RunAxis::plotXOfDecision(double x) const
{
    if (!m_fill)
        return (x - m_t0) / 3600.0;
    for (const sim::FillPoint& p : m_fill->curve)
        if (double(p.podsArrived) >= x + 1)
            return p.arrivedExactPct;
    return m_fill->curve.empty() ? 0 : m_fill->curve.back().arrivedExactPct;
}

double RunAxis::decisionXOfPlot(double x) const
{
    if (!m_fill)
        return m_t0 + x * 3600.0;
    for (const sim::FillPoint& p : m_fill->curve)
        if (p.arrivedExactPct >= x)
            return double(p.podsArrived - 1);
    return double(m_fill->pods - 1);
}

namespace {
std::string windowText(double s)
{
    if (s >= 3600 && std::fmod(s, 3600) == 0)
        return std::to_string(int64_t(s / 3600)) + " h";
    if (s >= 60 && std::fmod(s, 60) == 0)
        return std::to_string(int64_t(s / 60)) + " min";
    return std::to_string(int64_t(s)) + " s";
}
} // namespace

NamedSeries panelSeries(const sim::FillResult* fill, const sim::TimedResult* timed, Panel panel, UtilizationKind util, FragmentationKind frag,
    double p99WindowS)
{
    NamedSeries s;
    if (fill) {
        s.axis = sim::XAxisKind::ArrivedPct;
        s.name = panel == Panel::Latency ? "GPU allocation (%)" : panel == Panel::Fragmentation ? "fragmentation amount (GPUs)" : "fragmentation rate (%)";
        for (const sim::FillPoint& p : fill->curve) {
            s.x.push_back(p.arrivedExactPct);
            s.y.push_back(panel == Panel::Latency ? p.gpuAllocPct : panel == Panel::Fragmentation ? p.fragAmount / 1000.0 : p.fragRatePct);
        }
        return s;
    }
    s.axis = sim::XAxisKind::Seconds;
    if (panel == Panel::Latency)
        s.name = "p99 wait (s), " + windowText(p99WindowS) + " window";
    else if (panel == Panel::Fragmentation)
        s.name = frag == FragmentationKind::Gpu ? "GPU fragmentation rate (%)" : "CPU fragmentation rate (%)";
    else
        s.name = util == UtilizationKind::Cpu ? "CPU utilization (%)" : util == UtilizationKind::Memory ? "memory utilization (%)" : "GPU utilization (%)";
    if (!timed)
        return s;
    const RunAxis axis(nullptr, timed);
    for (const sim::SeriesPoint& p : timed->series) {
        double v = 0;
        if (panel == Panel::Latency) {
            if (p.p99WaitS < 0)
                continue; // nothing started in the window
            v = p.p99WaitS;
        } else if (panel == Panel::Fragmentation) {
            v = 100.0 * (frag == FragmentationKind::Gpu ? p.gpuFragRate : p.cpuFragRate);
        } else {
            v = 100.0 * (util == UtilizationKind::Cpu ? p.cpuUtil : util == UtilizationKind::Memory ? p.memUtil : p.gpuUtil);
        }
        s.x.push_back(axis.plotXOfSeconds(p.timeS));
        s.y.push_back(v);
    }
    return s;
}

NamedSeries panelSeries(const RunOutcome& run, Panel panel, UtilizationKind util, FragmentationKind frag)
{
    const sim::TimedOptions* t = run.spec.timedOptions();
    return panelSeries(run.fill.get(), run.timed.get(), panel, util, frag, t ? t->p99WindowS : 3600);
}

bool panelsHaveChoices(sim::RunMode mode) { return mode == sim::RunMode::Timed; }

const sim::NodeHeat* heatOf(const sim::FillResult* fill, const sim::TimedResult* timed)
{
    return fill ? &fill->heat : timed ? &timed->heat : nullptr;
}

std::vector<double> heatColumnsX(const sim::FillResult* fill, const sim::TimedResult* timed)
{
    const sim::NodeHeat* h = heatOf(fill, timed);
    if (!h)
        return {};
    const RunAxis axis(fill, timed);
    std::vector<double> x;
    x.reserve(h->x.size());
    for (double v : h->x)
        x.push_back(axis.plotXOfSeconds(v));
    return x;
}

bool madeRoom(const RunOutcome& run) { return run.timed && (run.timed->preemptions > 0 || run.timed->migrations > 0); }

std::vector<NamedValue> summaryMetrics(const RunOutcome& run, UtilizationKind util, bool room)
{
    if (const sim::FillResult* f = run.fill.get())
        return { { "final GPU allocation (%)", f->finalGpuAllocPct }, { "final fragmentation rate (%)", f->finalFragRatePct },
            { "failed pods", double(f->failed) }, { "failed GPU request (GPUs)", f->failedGpuMilli / 1000.0 } };
    if (const sim::TimedResult* t = run.timed.get()) {
        std::vector<NamedValue> out { { "wait p50 (s)", t->waitS.p50 }, { "wait p99 (s)", t->waitS.p99 },
            util == UtilizationKind::Cpu    ? NamedValue { "mean CPU utilization (%)", 100 * t->meanCpuUtil }
                : util == UtilizationKind::Memory ? NamedValue { "mean memory utilization (%)", 100 * t->meanMemUtil }
                                                  : NamedValue { "mean GPU utilization (%)", 100 * t->meanGpuUtil },
            { "mean GPU fragmentation (%)", 100 * t->meanGpuFragRate }, { "failed jobs", double(t->failed) },
            { "energy (kWh)", t->energyKWh } };
        if (room)
            out.insert(out.end(), { { "evictions", double(t->preemptions) }, { "migrations", double(t->migrations) },
                                      { "work lost (GPU-h)", t->workLostGpuHours },
                                      { "GPU jobs blocked with room free", double(t->gpuBlockedWithRoom) } });
        return out;
    }
    return {};
}

std::vector<double> sortedWaits(const RunOutcome& run)
{
    std::vector<double> waits;
    if (run.timed)
        for (const sim::UnitResult& u : run.timed->units_)
            if (u.startS >= 0)
                waits.push_back(u.startS - u.submitS);
    std::sort(waits.begin(), waits.end());
    return waits;
}

} // namespace schedlab::workflow
