#include "rfc3339.h"

#include "slurm_fields.h"

#include <cmath>
#include <cstdio>

namespace schedlab::trace {

std::optional<double> parseRfc3339(std::string_view s)
{
    auto digits = [&](std::size_t at, std::size_t n, int& out) {
        if (at + n > s.size())
            return false;
        out = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            out = out * 10 + (s[i] - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (s.size() < 20 || !digits(0, 4, y) || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' || !digits(8, 2, d)
        || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(11, 2, h) || s[13] != ':' || !digits(14, 2, mi)
        || s[16] != ':' || !digits(17, 2, sec))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return std::nullopt;
    std::size_t i = 19;
    double fraction = 0;
    if (i < s.size() && s[i] == '.') {
        double scale = 0.1;
        std::size_t start = ++i;
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
            fraction += (s[i] - '0') * scale;
        if (i == start)
            return std::nullopt;
    }
    int offsetS = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
        ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        int oh = 0, om = 0;
        if (!digits(i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(i + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offsetS = (s[i] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        i += 6;
    } else {
        return std::nullopt;
    }
    if (i != s.size())
        return std::nullopt;
    return double(civilSeconds(y, mo, d, h, mi, sec) - offsetS) + fraction;
}

std::string formatRfc3339(double unixS, bool micro)
{
    const double whole = std::floor(unixS);
    int64_t secs = int64_t(whole);
    int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    int64_t rest = secs - days * 86400;
    // Civil from days (Howard Hinnant's algorithm).
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const int64_t doe = days - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    char buf[160]; // room for any int64 in every field (GCC's format-truncation check)
    if (micro)
        std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%06lldZ", (long long)y, (long long)m, (long long)d,
            (long long)(rest / 3600), (long long)(rest / 60 % 60), (long long)(rest % 60),
            (long long)std::llround((unixS - whole) * 1e6) % 1000000);
    else
        std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y, (long long)m, (long long)d,
            (long long)(rest / 3600), (long long)(rest / 60 % 60), (long long)(rest % 60));
    return buf;
}

} // namespace schedlab::trace
