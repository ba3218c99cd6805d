#include "run_args.h"


#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace schedlab::workflow {

namespace {

std::string trimmed(const std::string& s)
{
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

bool parseUnsigned(const std::string& s, uint64_t& v)
{
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    v = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

Error seedError(const std::string& text, const std::string& why)
{
    return makeError(ErrorCode::Invalid, "seeds '" + text + "': " + why + " (give N, A-B or a comma list)");
}

} // namespace

Result<std::vector<uint64_t>> parseSeeds(const std::string& text)
{
    std::vector<uint64_t> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string part = trimmed(text.substr(start, comma - start));
        start = comma + 1;
        if (part.empty())
            continue;
        const auto dash = part.find('-');
        uint64_t a = 0, b = 0;
        if (dash == std::string::npos) {
            if (!parseUnsigned(part, a))
                return seedError(text, "'" + part + "' is not a seed");
            b = a;
        } else if (!parseUnsigned(trimmed(part.substr(0, dash)), a) || !parseUnsigned(trimmed(part.substr(dash + 1)), b)) {
            return seedError(text, "'" + part + "' is not a range");
        } else if (b < a) {
            return seedError(text, "range '" + part + "' runs backwards");
        }
        if (b - a >= kMaxSeeds || out.size() + (b - a + 1) > kMaxSeeds)
            return seedError(text, "more than " + std::to_string(kMaxSeeds) + " seeds");
        for (uint64_t v = a;; ++v) {
            out.push_back(v);
            if (v == b)
                break;
        }
    }
    if (out.empty())
        return seedError(text, "no seed");
    return out;
}

Result<double> parseDuration(const std::string& text)
{
    if (text.empty())
        return makeError(ErrorCode::Invalid, "empty duration");
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    const std::string unit(end);
    double scale = 0;
    if (unit.empty() || unit == "s")
        scale = 1;
    else if (unit == "m" || unit == "min")
        scale = 60;
    else if (unit == "h")
        scale = 3600;
    else if (unit == "d")
        scale = 86400;
    if (end == text.c_str() || scale == 0 || !std::isfinite(v) || v <= 0)
        return makeError(ErrorCode::Invalid, "duration '" + text + "' is not a positive number with s, m, h or d");
    return v * scale;
}

Result<double> parseRunTime(const std::string& text, sim::RunMode mode)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && *end == '\0' && std::isfinite(v) && v >= 0)
        return v; // a plain number: seconds, or a pod number
    if (mode == sim::RunMode::Fill)
        return makeError(ErrorCode::Invalid, "'" + text + "' is not a pod number (fill runs count pods)");
    return parseDuration(text);
}

ModeChoice chooseMode(const trace::Trace& trace) { return chooseMode(trace::loadProfile(trace)); }

ModeChoice chooseMode(const trace::LoadProfile& profile)
{
    auto pct = [](double share) {
        char text[32];
        std::snprintf(text, sizeof text, share < 0.1 ? "%.1f %%" : "%.0f %%", 100 * share);
        return std::string(text);
    };
    if (profile.resource != "GPU" && profile.gpuTasks > 0)
        return { sim::RunMode::Timed, "timed replay: only " + std::to_string(profile.gpuTasks) + " of " + std::to_string(profile.tasks)
                + " tasks ask for GPUs (under " + pct(trace::kGpuPrimaryTaskShare) + "): a CPU workload" };
    if (profile.resource != "GPU")
        return { sim::RunMode::Timed, "timed replay: the workload asks for no GPUs (the fill experiment measures GPU allocation)" };
    if (profile.jobsWithTimes * 2 < profile.jobs)
        return { sim::RunMode::Fill,
            "fill experiment: " + std::to_string(profile.jobs - profile.jobsWithTimes) + " of " + std::to_string(profile.jobs)
                + " jobs have no submit or run time (a pod list)" };
    const double peak = profile.peakShare();
    if (peak < kAutoFillBelowShare)
        return { sim::RunMode::Fill,
            "fill experiment: arrivals ask for at most " + pct(peak) + " of the cluster's GPUs (below " + pct(kAutoFillBelowShare)
                + "), a timed replay would leave it nearly idle" };
    return { sim::RunMode::Timed, "timed replay: arrivals ask for up to " + pct(peak) + " of the cluster's GPUs" };
}

std::string formatDuration(double seconds)
{
    if (seconds == 0)
        return "0";
    char text[48];
    const double whole = std::round(seconds);
    if (std::abs(seconds - whole) > 1e-9 * std::max(1.0, std::abs(seconds))) {
        std::snprintf(text, sizeof text, "%.17gs", seconds);
        return text;
    }
    const auto s = static_cast<long long>(whole);
    if (s % 86400 == 0)
        std::snprintf(text, sizeof text, "%lldd", s / 86400);
    else if (s % 3600 == 0)
        std::snprintf(text, sizeof text, "%lldh", s / 3600);
    else if (s % 60 == 0)
        std::snprintf(text, sizeof text, "%lldm", s / 60);
    else
        std::snprintf(text, sizeof text, "%llds", s);
    return text;
}

std::optional<trace::TimeSpan> defaultReplayWindow(const trace::Trace& trace)
{
    return defaultReplayWindow(trace::loadProfile(trace));
}

std::optional<trace::TimeSpan> defaultReplayWindow(const trace::LoadProfile& profile)
{
    if (profile.empty())
        return std::nullopt;
    const double length = trace::defaultWindowLengthS(profile);
    if (length >= profile.spanS())
        return std::nullopt;
    const trace::TimeSpan busy = trace::busiestStretch(profile, length, 3600); // its start is rounded to the hour below
    const double from = std::floor((busy.fromS - profile.startS) / 3600) * 3600;
    const double to = std::ceil((busy.toS - profile.startS) / 3600) * 3600;
    return trace::TimeSpan { profile.startS + from, profile.startS + to };
}

} // namespace schedlab::workflow
