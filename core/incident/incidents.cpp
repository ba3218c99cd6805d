#include "incidents.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace schedlab::incident {

namespace {

std::string fmt(const char* f, double a, double b = 0, double c = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

std::string duration(double s)
{
    if (s >= 3600)
        return fmt("%.1f h", s / 3600);
    if (s >= 60)
        return fmt("%.0f min", s / 60);
    return fmt("%.0f s", s);
}

// Merges flagged points (x, value) into runs: consecutive flagged points form one incident;
// emit(startX, endX, peak, index of the peak point).
template <class Flag, class Value>
void runsOf(std::size_t n, Flag flagged, Value value, const std::function<double(std::size_t)>& xOf,
    const std::function<void(double, double, double, std::size_t)>& emit)
{
    std::size_t i = 0;
    while (i < n) {
        if (!flagged(i)) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        double peak = value(i);
        std::size_t at = i;
        while (i + 1 < n && flagged(i + 1))
            if (const double v = value(++i); v > peak) {
                peak = v;
                at = i;
            }
        emit(xOf(start), xOf(i), peak, at);
        ++i;
    }
}

void keepWorst(std::vector<Incident>& list, std::size_t max)
{
    if (list.size() <= max)
        return;
    std::stable_sort(list.begin(), list.end(), [](const Incident& a, const Incident& b) { return a.peak > b.peak; });
    list.resize(max);
}

} // namespace

const char* incidentKindName(IncidentKind k)
{
    switch (k) {
    case IncidentKind::P99Above: return "p99 above limit";
    case IncidentKind::P99Jump: return "p99 jump";
    case IncidentKind::FailureBurst: return "failure burst";
    case IncidentKind::SlaViolations: return "SLA violations";
    case IncidentKind::FragSpike: return "fragmentation spike";
    }
    return "?";
}

namespace {
/// Collects one kind's incidents and keeps the worst `maxIncidents` of them.
class IncidentList {
public:
    IncidentList(const RunIndex& index, std::vector<Incident>& all, std::size_t maxIncidents)
        : m_index(index)
        , m_all(all)
        , m_max(maxIncidents)
    {
    }
    ~IncidentList()
    {
        keepWorst(m_list, m_max);
        m_all.insert(m_all.end(), m_list.begin(), m_list.end());
    }
    /// `decision` < 0: the decision nearest x0.
    void add(IncidentKind kind, double x0, double x1, double peak, std::string text, int64_t decision = -1)
    {
        m_list.push_back(Incident { kind, x0, x1, peak, decision >= 0 ? decision : nearestDecision(m_index, x0), std::move(text) });
    }
    std::vector<Incident>& list() { return m_list; }

private:
    const RunIndex& m_index;
    std::vector<Incident>& m_all;
    std::size_t m_max;
    std::vector<Incident> m_list;
};

/// What the timed finders share: the series, its p99 window and the run's SLA options.
struct TimedSeries {
    const RunIndex& index;
    const IncidentOptions& o;
    const std::vector<sim::SeriesPoint>& s;
    sim::TimedOptions to;
    double window;
    double xOf(std::size_t i) const { return s[i].timeS; }
};

void p99Above(const TimedSeries& t, std::vector<Incident>& all)
{
    IncidentList above(t.index, all, t.o.maxIncidents);
    const double limit = t.o.p99AboveS >= 0 ? t.o.p99AboveS : t.to.defaultSlaS;
    runsOf(
        t.s.size(), [&](std::size_t i) { return t.s[i].p99WaitS > limit; }, [&](std::size_t i) { return t.s[i].p99WaitS; },
        [&](std::size_t i) { return t.xOf(i); },
        [&](double a, double b, double peak, std::size_t) {
            above.add(IncidentKind::P99Above, a, b, peak, "p99 wait up to " + duration(peak) + " (limit " + duration(limit) + ") for " + duration(b - a));
        });
}

/// Per sample: the p99 wait one window earlier (-1 = none) and the lowest GPU fragmentation rate
/// within the window before it.
void windowBaselines(const TimedSeries& t, std::vector<double>& before, std::vector<double>& fragMin)
{
    const auto& s = t.s;
    before.assign(s.size(), -1);
    fragMin.assign(s.size(), 0);
    for (std::size_t i = 0, j = 0, m = 0; i < s.size(); ++i) {
        while (j + 1 < i && s[j + 1].timeS <= s[i].timeS - t.window)
            ++j;
        before[i] = (j < i && s[j].timeS <= s[i].timeS - t.window) ? s[j].p99WaitS : -1;
        while (m < i && s[m].timeS < s[i].timeS - t.window)
            ++m;
        double lo = s[i].gpuFragRate;
        for (std::size_t q = m; q < i; ++q)
            lo = std::min(lo, s[q].gpuFragRate);
        fragMin[i] = lo;
    }
}

void p99Jumps(const TimedSeries& t, const std::vector<double>& before, std::vector<Incident>& all)
{
    IncidentList jumps(t.index, all, t.o.maxIncidents);
    runsOf(
        t.s.size(),
        [&](std::size_t i) { return t.s[i].p99WaitS >= t.o.p99JumpMinS && t.s[i].p99WaitS >= t.o.p99JumpFactor * std::max(before[i], 1.0); },
        [&](std::size_t i) { return t.s[i].p99WaitS; }, [&](std::size_t i) { return t.xOf(i); },
        [&](double a, double b, double peak, std::size_t) {
            jumps.add(IncidentKind::P99Jump, a, b, peak,
                "p99 wait jumped to " + duration(peak) + " (x" + fmt("%.0f", t.o.p99JumpFactor) + " or more within " + duration(t.window) + ")");
        });
}

void timedFragSpikes(const TimedSeries& t, const std::vector<double>& fragMin, std::vector<Incident>& all)
{
    IncidentList frag(t.index, all, t.o.maxIncidents);
    runsOf(
        t.s.size(), [&](std::size_t i) { return 100.0 * (t.s[i].gpuFragRate - fragMin[i]) >= t.o.fragSpikePts; },
        [&](std::size_t i) { return 100.0 * (t.s[i].gpuFragRate - fragMin[i]); }, [&](std::size_t i) { return t.xOf(i); },
        [&](double a, double b, double peak, std::size_t at) {
            // The inspector opens at the peak, so what it shows is what the text says.
            frag.add(IncidentKind::FragSpike, a, b, peak,
                "GPU fragmentation rate up " + fmt("%.1f", peak) + " points within " + duration(t.window) + ", to "
                    + fmt("%.1f %%", 100.0 * t.s[at].gpuFragRate) + " at the peak",
                nearestDecision(t.index, t.s[at].timeS));
        });
}

/// SLA violations, by the window the job started in; adjacent windows make one incident.
void slaViolations(const TimedSeries& t, std::vector<Incident>& all)
{
    IncidentList sla(t.index, all, t.o.maxIncidents);
    std::vector<std::pair<double, int>> late; // start time, 1
    const trace::Trace& tr = *t.index.trace;
    for (const sim::UnitResult& u : t.index.timed->units_) {
        if (u.startS < 0)
            continue;
        const int16_t q = tr.jobs[std::size_t(u.job)].qos;
        const std::string cls = q >= 0 ? tr.qosClasses[std::size_t(q)] : "none";
        auto it = t.to.slaByQos.find(cls);
        if (u.startS - u.submitS > (it == t.to.slaByQos.end() ? t.to.defaultSlaS : it->second))
            late.push_back({ u.startS, 1 });
    }
    std::sort(late.begin(), late.end());
    const double window = t.window;
    std::vector<Incident>& list = sla.list();
    for (std::size_t i = 0; i < late.size();) {
        const double w0 = std::floor(late[i].first / window) * window;
        std::size_t j = i;
        while (j < late.size() && late[j].first < w0 + window)
            ++j;
        if (int(j - i) >= t.o.minSlaViolations) {
            if (!list.empty() && list.back().endX >= w0) { // adjacent windows: one incident
                list.back().endX = w0 + window;
                list.back().peak += double(j - i);
                list.back().text = fmt("%.0f jobs started past their SLA", list.back().peak) + " within " + duration(list.back().endX - list.back().startX);
            } else {
                sla.add(IncidentKind::SlaViolations, late[i].first, w0 + window, double(j - i),
                    fmt("%.0f jobs started past their SLA", double(j - i)) + " within " + duration(w0 + window - late[i].first));
            }
        }
        i = j;
    }
}

/// Failures (jobs that can never run), one window apart at most.
void timedFailureBursts(const TimedSeries& t, std::vector<Incident>& all)
{
    IncidentList fails(t.index, all, t.o.maxIncidents);
    const auto& ds = t.index.decisions.decisions();
    for (std::size_t i = 0; i < ds.size();) {
        if (ds[i].outcome != sim::Outcome::Failed) {
            ++i;
            continue;
        }
        std::size_t j = i, last = i;
        int n = 0;
        while (j < ds.size() && ds[j].timeS <= ds[last].timeS + t.window) {
            if (ds[j].outcome == sim::Outcome::Failed) {
                ++n;
                last = j;
            }
            ++j;
        }
        if (n >= t.o.minFailures)
            fails.add(IncidentKind::FailureBurst, ds[i].timeS, ds[last].timeS, n,
                fmt("%.0f jobs failed (fit nowhere)", n) + " within " + duration(ds[last].timeS - ds[i].timeS), int64_t(i));
        i = last + 1;
    }
}

void timedIncidents(const RunIndex& index, const IncidentOptions& o, std::vector<Incident>& all)
{
    const sim::TimedOptions to = index.spec.timedOptions() ? *index.spec.timedOptions() : sim::TimedOptions {};
    const TimedSeries t { index, o, index.timed->series, to, to.p99WindowS > 0 ? to.p99WindowS : 3600 };
    p99Above(t, all);
    std::vector<double> before, fragMin;
    windowBaselines(t, before, fragMin);
    p99Jumps(t, before, all);
    timedFragSpikes(t, fragMin, all);
    slaViolations(t, all);
    timedFailureBursts(t, all);
}

/// A spike: the rate rises by fragSpikePts within 5 points of arrived workload.
void fillFragSpikes(const RunIndex& index, const IncidentOptions& o, std::vector<Incident>& all)
{
    IncidentList frag(index, all, o.maxIncidents);
    const auto& c = index.fill->curve;
    const auto& ds = index.decisions.decisions();
    runsOf(
        c.size(),
        [&](std::size_t i) {
            double lo = c[i].fragRatePct;
            for (std::size_t q = i >= 5 ? i - 5 : 0; q < i; ++q)
                lo = std::min(lo, c[q].fragRatePct);
            return c[i].fragRatePct - lo >= o.fragSpikePts;
        },
        [&](std::size_t i) { return c[i].fragRatePct; }, [&](std::size_t i) { return double(c[i].podsArrived - 1); },
        [&](double a, double b, double peak, std::size_t at) {
            // Curve point k is the state after pod podsArrived - 1, which decision podsArrived
            // saw: the inspector opens there and shows the same rate.
            const int64_t k = std::min<int64_t>(c[at].podsArrived, int64_t(ds.size()) - 1);
            frag.add(IncidentKind::FragSpike, a, b, peak,
                "GPU fragmentation rate rose to " + fmt("%.1f %%", peak) + " at pod " + std::to_string(c[at].podsArrived) + " (+"
                    + fmt("%.0f", o.fragSpikePts) + " points or more within 5 % of arrivals)",
                k);
        });
}

/// Failures at most kGap decisions apart form one burst.
void fillFailureBursts(const RunIndex& index, const IncidentOptions& o, std::vector<Incident>& all)
{
    IncidentList fails(index, all, o.maxIncidents);
    const auto& ds = index.decisions.decisions();
    constexpr std::size_t kGap = 5;
    for (std::size_t i = 0; i < ds.size();) {
        if (ds[i].outcome != sim::Outcome::Failed) {
            ++i;
            continue;
        }
        std::size_t last = i, j = i;
        int n = 0;
        while (j < ds.size() && j <= last + kGap) {
            if (ds[j].outcome == sim::Outcome::Failed) {
                ++n;
                last = j;
            }
            ++j;
        }
        if (n >= o.minFailures)
            fails.add(IncidentKind::FailureBurst, double(i), double(last), double(n),
                fmt("%.0f of %.0f pods failed", double(n), double(last - i + 1)), int64_t(i));
        i = last + 1;
    }
}
} // namespace

std::vector<Incident> findIncidents(const RunIndex& index, const IncidentOptions& o)
{
    std::vector<Incident> all;
    if (index.timed) {
        timedIncidents(index, o, all);
    } else if (index.fill) {
        fillFragSpikes(index, o, all);
        fillFailureBursts(index, o, all);
    }
    std::stable_sort(all.begin(), all.end(), [](const Incident& a, const Incident& b) { return a.startX < b.startX; });
    return all;
}

} // namespace schedlab::incident
