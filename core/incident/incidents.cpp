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

std::vector<Incident> findIncidents(const RunIndex& index, const IncidentOptions& o)
{
    std::vector<Incident> all;
    const auto& ds = index.decisions.decisions();
    auto add = [&](std::vector<Incident>& into, IncidentKind kind, double x0, double x1, double peak, std::string text,
                   int64_t decision = -1) {
        into.push_back(Incident { kind, x0, x1, peak, decision >= 0 ? decision : nearestDecision(index, x0), std::move(text) });
    };
    auto flush = [&](std::vector<Incident>& list) {
        keepWorst(list, o.maxIncidents);
        all.insert(all.end(), list.begin(), list.end());
    };

    if (index.timed) {
        const sim::TimedResult& r = *index.timed;
        const sim::TimedOptions to = index.spec.timedOptions() ? *index.spec.timedOptions() : sim::TimedOptions {};
        const auto& s = r.series;
        const double window = to.p99WindowS > 0 ? to.p99WindowS : 3600;
        auto xOf = [&](std::size_t i) { return s[i].timeS; };
        // p99 wait above the limit.
        const double limit = o.p99AboveS >= 0 ? o.p99AboveS : to.defaultSlaS;
        std::vector<Incident> above, jumps, frag, sla, fails;
        runsOf(
            s.size(), [&](std::size_t i) { return s[i].p99WaitS > limit; }, [&](std::size_t i) { return s[i].p99WaitS; }, xOf,
            [&](double a, double b, double peak, std::size_t) {
                add(above, IncidentKind::P99Above, a, b, peak,
                    "p99 wait up to " + duration(peak) + " (limit " + duration(limit) + ") for " + duration(b - a));
            });
        flush(above);
        // p99 jumps: against the value one window earlier.
        std::vector<double> before(s.size(), -1), fragMin(s.size(), 0);
        for (std::size_t i = 0, j = 0, m = 0; i < s.size(); ++i) {
            while (j + 1 < i && s[j + 1].timeS <= s[i].timeS - window)
                ++j;
            before[i] = (j < i && s[j].timeS <= s[i].timeS - window) ? s[j].p99WaitS : -1;
            while (m < i && s[m].timeS < s[i].timeS - window)
                ++m;
            double lo = s[i].gpuFragRate;
            for (std::size_t q = m; q < i; ++q)
                lo = std::min(lo, s[q].gpuFragRate);
            fragMin[i] = lo;
        }
        runsOf(
            s.size(),
            [&](std::size_t i) {
                return s[i].p99WaitS >= o.p99JumpMinS && s[i].p99WaitS >= o.p99JumpFactor * std::max(before[i], 1.0);
            },
            [&](std::size_t i) { return s[i].p99WaitS; }, xOf,
            [&](double a, double b, double peak, std::size_t) {
                add(jumps, IncidentKind::P99Jump, a, b, peak,
                    "p99 wait jumped to " + duration(peak) + " (x" + fmt("%.0f", o.p99JumpFactor) + " or more within " + duration(window) + ")");
            });
        flush(jumps);
        runsOf(
            s.size(), [&](std::size_t i) { return 100.0 * (s[i].gpuFragRate - fragMin[i]) >= o.fragSpikePts; },
            [&](std::size_t i) { return 100.0 * (s[i].gpuFragRate - fragMin[i]); }, xOf,
            [&](double a, double b, double peak, std::size_t at) {
                // The inspector opens at the peak, so what it shows is what the text says.
                add(frag, IncidentKind::FragSpike, a, b, peak,
                    "GPU fragmentation rate up " + fmt("%.1f", peak) + " points within " + duration(window) + ", to "
                        + fmt("%.1f %%", 100.0 * s[at].gpuFragRate) + " at the peak",
                    nearestDecision(index, s[at].timeS));
            });
        flush(frag);
        // SLA violations, by the window the job started in.
        std::vector<std::pair<double, int>> late; // start time, 1
        const trace::Trace& tr = *index.trace;
        for (const sim::UnitResult& u : r.units_) {
            if (u.startS < 0)
                continue;
            const int16_t q = tr.jobs[std::size_t(u.job)].qos;
            const std::string cls = q >= 0 ? tr.qosClasses[std::size_t(q)] : "none";
            auto it = to.slaByQos.find(cls);
            if (u.startS - u.submitS > (it == to.slaByQos.end() ? to.defaultSlaS : it->second))
                late.push_back({ u.startS, 1 });
        }
        std::sort(late.begin(), late.end());
        for (std::size_t i = 0; i < late.size();) {
            const double w0 = std::floor(late[i].first / window) * window;
            std::size_t j = i;
            while (j < late.size() && late[j].first < w0 + window)
                ++j;
            if (int(j - i) >= o.minSlaViolations) {
                if (!sla.empty() && sla.back().endX >= w0) { // adjacent windows: one incident
                    sla.back().endX = w0 + window;
                    sla.back().peak += double(j - i);
                    sla.back().text = fmt("%.0f jobs started past their SLA", sla.back().peak) + " within " + duration(sla.back().endX - sla.back().startX);
                } else {
                    add(sla, IncidentKind::SlaViolations, late[i].first, w0 + window, double(j - i),
                        fmt("%.0f jobs started past their SLA", double(j - i)) + " within " + duration(w0 + window - late[i].first));
                }
            }
            i = j;
        }
        flush(sla);
        // Failures (jobs that can never run), one window apart at most.
        for (std::size_t i = 0; i < ds.size();) {
            if (ds[i].outcome != sim::Outcome::Failed) {
                ++i;
                continue;
            }
            std::size_t j = i, last = i;
            int n = 0;
            while (j < ds.size() && ds[j].timeS <= ds[last].timeS + window) {
                if (ds[j].outcome == sim::Outcome::Failed) {
                    ++n;
                    last = j;
                }
                ++j;
            }
            if (n >= o.minFailures)
                add(fails, IncidentKind::FailureBurst, ds[i].timeS, ds[last].timeS, n,
                    fmt("%.0f jobs failed (fit nowhere)", n) + " within " + duration(ds[last].timeS - ds[i].timeS), int64_t(i));
            i = last + 1;
        }
        flush(fails);
    } else if (index.fill) {
        std::vector<Incident> frag, fails;
        const auto& c = index.fill->curve;
        // A spike: the rate rises by fragSpikePts within 5 points of arrived workload.
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
                add(frag, IncidentKind::FragSpike, a, b, peak,
                    "GPU fragmentation rate rose to " + fmt("%.1f %%", peak) + " at pod " + std::to_string(c[at].podsArrived) + " (+"
                        + fmt("%.0f", o.fragSpikePts) + " points or more within 5 % of arrivals)",
                    k);
            });
        flush(frag);
        for (std::size_t i = 0; i < ds.size();) {
            if (ds[i].outcome != sim::Outcome::Failed) {
                ++i;
                continue;
            }
            // Failures at most kGap decisions apart form one burst.
            constexpr std::size_t kGap = 5;
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
                add(fails, IncidentKind::FailureBurst, double(i), double(last), double(n),
                    fmt("%.0f of %.0f pods failed", double(n), double(last - i + 1)), int64_t(i));
            i = last + 1;
        }
        flush(fails);
    }
    std::stable_sort(all.begin(), all.end(), [](const Incident& a, const Incident& b) { return a.startX < b.startX; });
    return all;
}

} // namespace schedlab::incident
