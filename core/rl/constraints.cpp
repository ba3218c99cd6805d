#include "constraints.h"

#include "sim/timed_replay.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace schedlab::rl {

const char* constraintName(ConstraintKind k)
{
    switch (k) {
    case ConstraintKind::Sla:
        return "sla";
    case ConstraintKind::Migrations:
        return "migrations";
    case ConstraintKind::Evictions:
        return "evictions";
    }
    return "?";
}

const char* constraintMetric(ConstraintKind k)
{
    switch (k) {
    case ConstraintKind::Sla:
        return "slaViolationPct";
    case ConstraintKind::Migrations:
        return "migrationsPerHour";
    case ConstraintKind::Evictions:
        return "evictionsPerHour";
    }
    return "?";
}

std::string Constraints::toString() const
{
    std::ostringstream s;
    for (int i = 0; i < kConstraintKinds; ++i)
        if (budget[std::size_t(i)] >= 0)
            s << constraintName(ConstraintKind(i)) << '=' << budget[std::size_t(i)] << ',';
    s << "slaS=" << slaS << ",rate=" << rate;
    return s.str();
}

Result<Constraints> Constraints::parse(const std::string& text)
{
    Constraints c;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            return makeError(ErrorCode::Invalid, "constraints: '" + item + "' is not KEY=VALUE (keys: sla, migrations, evictions, slaS, rate)");
        const std::string key = item.substr(0, eq), val = item.substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(val.c_str(), &end);
        if (val.empty() || *end != '\0' || !std::isfinite(v))
            return makeError(ErrorCode::Invalid, "constraints: " + key + ": '" + val + "' is not a number");
        bool found = false;
        for (int i = 0; i < kConstraintKinds; ++i)
            if (key == constraintName(ConstraintKind(i))) {
                if (v < 0)
                    return makeError(ErrorCode::Invalid, "constraints: the " + key + " budget must be >= 0, got " + val);
                c.budget[std::size_t(i)] = v;
                found = true;
            }
        if (found)
            continue;
        if (key == "slaS" || key == "rate") {
            if (!(v > 0))
                return makeError(ErrorCode::Invalid, "constraints: " + key + " must be > 0, got " + val);
            (key == "slaS" ? c.slaS : c.rate) = v;
            continue;
        }
        return makeError(ErrorCode::Invalid, "constraints: unknown key '" + key + "' (sla, migrations, evictions, slaS, rate)");
    }
    return c;
}

double constraintValue(ConstraintKind k, const sim::TimedResult& r)
{
    if (k == ConstraintKind::Sla) {
        if (r.units <= 0)
            return -1;
        int64_t late = 0;
        for (const auto& [cls, n] : r.slaViolations)
            late += n;
        return 100.0 * double(late) / double(r.units);
    }
    const double hours = r.makespanS / 3600.0;
    if (!(hours > 0))
        return -1;
    return double(k == ConstraintKind::Migrations ? r.migrations : r.preemptions) / hours;
}

double nextMultiplier(double lambda, double value, double budget, double rate)
{
    if (budget < 0 || value < 0)
        return lambda;
    return std::max(0.0, lambda + rate * (value - budget) / std::max(budget, 1.0));
}

} // namespace schedlab::rl
