#include "run_args.h"

#include <cctype>
#include <cmath>
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

sim::RunMode suggestedMode(const trace::Trace& trace)
{
    std::size_t withTimes = 0;
    for (const trace::Job& j : trace.jobs)
        withTimes += j.submitTimeS >= 0 && j.runTimeS >= 0;
    return withTimes * 2 < trace.jobs.size() ? sim::RunMode::Fill : sim::RunMode::Timed;
}

} // namespace schedlab::workflow
