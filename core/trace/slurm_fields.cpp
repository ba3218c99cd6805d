#include "slurm_fields.h"

#include "fields.h"

#include <QDateTime>
#include <QTimeZone>

#include <cmath>

namespace schedlab::trace {

namespace {

bool allDigits(std::string_view s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

int digitsValue(std::string_view s)
{
    int v = 0;
    for (char c : s)
        v = v * 10 + (c - '0');
    return v;
}

bool leapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(int y, int m)
{
    static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return m == 2 && leapYear(y) ? 29 : days[m - 1];
}

bool iequals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20))
            return false;
    return true;
}

} // namespace

int64_t civilSeconds(int year, int month, int day, int hour, int minute, int second)
{
    // Days from 1970-01-01 by the usual era arithmetic (400-year cycles of 146097 days).
    const int64_t y = int64_t(year) - (month <= 2 ? 1 : 0);
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t mp = (month + 9) % 12; // March = 0
    const int64_t doy = (153 * mp + 2) / 5 + day - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const int64_t days = era * 146097 + doe - 719468;
    return days * 86400 + int64_t(hour) * 3600 + int64_t(minute) * 60 + second;
}

bool isSlurmNoTime(std::string_view text)
{
    text = trimmed(text);
    return text.empty() || iequals(text, "Unknown") || iequals(text, "None") || iequals(text, "N/A") || iequals(text, "INVALID");
}

std::optional<int64_t> parseSlurmDateTime(std::string_view text, std::string& error)
{
    const std::string_view t = trimmed(text);
    auto part = [&](std::size_t at, std::size_t n) { return t.substr(at, n); };
    if (t.size() != 19 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') || t[13] != ':' || t[16] != ':'
        || !allDigits(part(0, 4)) || !allDigits(part(5, 2)) || !allDigits(part(8, 2)) || !allDigits(part(11, 2))
        || !allDigits(part(14, 2)) || !allDigits(part(17, 2))) {
        error = quoted(text) + " is not a YYYY-MM-DDTHH:MM:SS time";
        return std::nullopt;
    }
    const int y = digitsValue(part(0, 4)), mo = digitsValue(part(5, 2)), d = digitsValue(part(8, 2));
    const int h = digitsValue(part(11, 2)), mi = digitsValue(part(14, 2)), s = digitsValue(part(17, 2));
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60) {
        error = quoted(text) + " is not a valid date and time";
        return std::nullopt;
    }
    return civilSeconds(y, mo, d, h, mi, s);
}

std::optional<double> parseSlurmDuration(std::string_view text, std::string& error)
{
    const std::string_view t = trimmed(text);
    if (isSlurmNoTime(t) || iequals(t, "UNLIMITED") || iequals(t, "Partition_Limit"))
        return std::nullopt;
    auto bad = [&]() -> std::optional<double> {
        error = quoted(text) + " is not a [D-]HH:MM:SS duration";
        return std::nullopt;
    };
    std::string_view rest = t;
    int64_t days = 0;
    const bool hasDays = rest.find('-') != std::string_view::npos;
    if (hasDays) {
        const auto dash = rest.find('-');
        if (!allDigits(rest.substr(0, dash)) || dash > 6)
            return bad();
        days = digitsValue(rest.substr(0, dash));
        rest = rest.substr(dash + 1);
    }
    std::string_view parts[3];
    int n = 0;
    while (true) {
        if (n == 3)
            return bad();
        const auto colon = rest.find(':');
        parts[n++] = rest.substr(0, colon);
        if (colon == std::string_view::npos)
            break;
        rest = rest.substr(colon + 1);
    }
    if (!hasDays && n == 1)
        return bad(); // a bare number: minutes for sbatch, seconds for *Raw columns; never guess
    // With days: HH, HH:MM or HH:MM:SS. Without: MM:SS or HH:MM:SS.
    double unit[3];
    if (hasDays) {
        unit[0] = 3600, unit[1] = 60, unit[2] = 1;
    } else if (n == 2) {
        unit[0] = 60, unit[1] = 1;
    } else {
        unit[0] = 3600, unit[1] = 60, unit[2] = 1;
    }
    double total = double(days) * 86400;
    const bool lastIsSeconds = (hasDays && n == 3) || !hasDays;
    for (int i = 0; i < n; ++i) {
        std::string_view p = parts[i];
        double v = 0;
        if (i == n - 1 && lastIsSeconds && p.find('.') != std::string_view::npos) {
            if (parseDouble(p, v) != ParseStatus::Ok || v < 0 || v >= 61)
                return bad();
        } else {
            if (!allDigits(p) || p.size() > 6)
                return bad();
            v = digitsValue(p);
            if (i > 0 && v > 60)
                return bad();
        }
        total += v * unit[i];
    }
    return total;
}

std::optional<SlurmMemory> parseSlurmMemory(std::string_view text, std::string& error)
{
    std::string_view t = trimmed(text);
    SlurmMemory m;
    if (!t.empty() && (t.back() == 'n' || t.back() == 'c')) {
        m.perCpu = t.back() == 'c';
        t.remove_suffix(1);
    }
    double scale = 1; // to MiB
    char unit = 'M';
    if (!t.empty() && std::string_view("KMGTPkmgtp").find(t.back()) != std::string_view::npos) {
        unit = char(t.back() & ~0x20);
        t.remove_suffix(1);
    }
    switch (unit) {
    case 'K': scale = 1.0 / 1024; break;
    case 'M': scale = 1; break;
    case 'G': scale = 1024; break;
    case 'T': scale = 1024.0 * 1024; break;
    case 'P': scale = 1024.0 * 1024 * 1024; break;
    }
    double v = 0;
    if (parseDouble(t, v) != ParseStatus::Ok || v < 0 || !std::isfinite(v) || v > 1e15) {
        error = quoted(text) + " is not a memory size (number with K/M/G/T, optionally n or c)";
        return std::nullopt;
    }
    constexpr double kPerCpuFlag = 2147483648.0; // 2^31, the old 32-bit MEM_PER_CPU bit
    if (unit == 'M' && !m.perCpu && v >= kPerCpuFlag && v == std::floor(v)) {
        v -= kPerCpuFlag;
        m.perCpu = true;
        m.flagInNumber = true;
    }
    m.mib = v * scale;
    return m;
}

std::optional<SlurmTres> parseSlurmTres(std::string_view text, std::string& error)
{
    SlurmTres r;
    int64_t untypedGpus = -1, typedGpus = -1;
    std::vector<std::string_view> items;
    splitChar(trimmed(text), ',', items);
    for (std::string_view item : items) {
        item = trimmed(item);
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            error = quoted(item) + " is not a TRES entry (name=count)";
            return std::nullopt;
        }
        const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
        auto count = [&](int64_t& out) {
            int64_t v = 0;
            if (parseInt64(value, v) != ParseStatus::Ok || v < 0) {
                error = "TRES " + std::string(key) + "=" + quoted(value) + " is not a count";
                return false;
            }
            out = (out < 0 ? 0 : out) + v;
            return true;
        };
        if (key == "cpu") {
            if (!count(r.cpu))
                return std::nullopt;
        } else if (key == "node") {
            if (!count(r.nodes))
                return std::nullopt;
        } else if (key == "mem") {
            auto m = parseSlurmMemory(value, error);
            if (!m)
                return std::nullopt;
            r.memMiB = m->mib;
        } else if (key == "gres/gpu") {
            if (!count(untypedGpus))
                return std::nullopt;
        } else if (key.starts_with("gres/gpu:")) { // typed, e.g. gres/gpu:a100=2 (repeats the total when both are given)
            if (r.gpuModel.empty())
                r.gpuModel = std::string(key.substr(9));
            if (!count(typedGpus))
                return std::nullopt;
        }
        // billing, energy, fs/disk, license/..., other gres: not modelled
    }
    r.gpus = untypedGpus >= 0 ? untypedGpus : typedGpus;
    return r;
}

std::optional<std::vector<std::string>> expandHostlist(std::string_view text, std::size_t limit, std::string& error)
{
    std::vector<std::string> out;
    const std::string_view t = trimmed(text);
    if (t.empty() || iequals(t, "None assigned") || t == "(null)")
        return out;
    // Top-level comma split (commas inside brackets are range separators).
    std::vector<std::string_view> exprs;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= t.size(); ++i) {
        if (i == t.size() || (t[i] == ',' && depth == 0)) {
            exprs.push_back(t.substr(start, i - start));
            start = i + 1;
        } else if (t[i] == '[') {
            if (++depth > 1) {
                error = "hostlist " + quoted(text) + " has nested brackets";
                return std::nullopt;
            }
        } else if (t[i] == ']') {
            if (--depth < 0) {
                error = "hostlist " + quoted(text) + " has an unmatched ']'";
                return std::nullopt;
            }
        }
    }
    if (depth != 0) {
        error = "hostlist " + quoted(text) + " has an unclosed '['";
        return std::nullopt;
    }
    for (std::string_view e : exprs) {
        if (e.empty()) {
            error = "hostlist " + quoted(text) + " has an empty name";
            return std::nullopt;
        }
        // Names of this expression so far; each bracket group multiplies them.
        std::vector<std::string> names { std::string() };
        std::size_t i = 0;
        while (i < e.size()) {
            if (e[i] != '[') {
                const auto next = e.find('[', i);
                const std::string_view lit = e.substr(i, next - i);
                for (std::string& n : names)
                    n += lit;
                i = next == std::string_view::npos ? e.size() : next;
                continue;
            }
            const auto close = e.find(']', i);
            std::vector<std::string_view> ranges;
            splitChar(e.substr(i + 1, close - i - 1), ',', ranges);
            std::vector<std::string> suffixes;
            for (std::string_view r : ranges) {
                const auto dash = r.find('-');
                const std::string_view lo = r.substr(0, dash), hi = dash == std::string_view::npos ? lo : r.substr(dash + 1);
                if (!allDigits(lo) || !allDigits(hi) || lo.size() > 9 || hi.size() > 9 || digitsValue(hi) < digitsValue(lo)) {
                    error = "hostlist " + quoted(text) + ": " + quoted(r) + " is not a number or range a-b";
                    return std::nullopt;
                }
                const std::size_t width = lo.size();
                for (int v = digitsValue(lo); v <= digitsValue(hi); ++v) {
                    std::string s = std::to_string(v);
                    if (s.size() < width)
                        s.insert(0, width - s.size(), '0');
                    suffixes.push_back(std::move(s));
                    if (suffixes.size() * names.size() + out.size() > limit) {
                        error = "hostlist " + quoted(text) + " names more than " + std::to_string(limit) + " hosts";
                        return std::nullopt;
                    }
                }
            }
            std::vector<std::string> product;
            product.reserve(names.size() * suffixes.size());
            for (const std::string& n : names)
                for (const std::string& s : suffixes)
                    product.push_back(n + s);
            names = std::move(product);
            i = close + 1;
        }
        for (std::string& n : names)
            out.push_back(std::move(n));
        if (out.size() > limit) {
            error = "hostlist " + quoted(text) + " names more than " + std::to_string(limit) + " hosts";
            return std::nullopt;
        }
    }
    return out;
}

std::optional<LocalTimeZone> LocalTimeZone::make(const std::string& name, std::string& error)
{
    LocalTimeZone z;
    z.m_name = name.empty() ? "UTC" : name;
    std::string_view n = trimmed(name);
    if (n.empty() || iequals(n, "UTC") || iequals(n, "Z") || iequals(n, "GMT"))
        return z;
    std::string_view off = n;
    if (off.size() > 3 && (iequals(off.substr(0, 3), "UTC") || iequals(off.substr(0, 3), "GMT")))
        off.remove_prefix(3);
    if (!off.empty() && (off[0] == '+' || off[0] == '-')) {
        const int sign = off[0] == '-' ? -1 : 1;
        std::string_view hh = off.substr(1), mm;
        if (const auto colon = hh.find(':'); colon != std::string_view::npos) {
            mm = hh.substr(colon + 1);
            hh = hh.substr(0, colon);
        } else if (hh.size() == 4) {
            mm = hh.substr(2);
            hh = hh.substr(0, 2);
        }
        if (allDigits(hh) && hh.size() <= 2 && (mm.empty() || (allDigits(mm) && mm.size() == 2)) && digitsValue(hh) <= 14
            && (mm.empty() || digitsValue(mm) < 60)) {
            z.m_fixedOffsetS = sign * (digitsValue(hh) * 3600 + (mm.empty() ? 0 : digitsValue(mm) * 60));
            z.m_utc = z.m_fixedOffsetS == 0;
            return z;
        }
        error = "time zone " + quoted(name) + " is not an offset like UTC-06:00 or +05:30";
        return std::nullopt;
    }
    if (!QTimeZone::isTimeZoneIdAvailable(QByteArray(name.data(), qsizetype(name.size())))) { // isValid() takes any POSIX TZ word
        error = "unknown time zone " + quoted(name) + " (an IANA name like America/New_York, or UTC-06:00)";
        return std::nullopt;
    }
    z.m_utc = false;
    z.m_iana = name;
    return z;
}

int64_t LocalTimeZone::toUnix(int64_t civil) const
{
    if (m_iana.empty())
        return civil - m_fixedOffsetS;
    const int64_t hour = civil >= 0 ? civil / 3600 : (civil - 3599) / 3600;
    auto it = m_offsetByHour.find(hour);
    if (it == m_offsetByHour.end()) {
        const QDateTime asUtc = QDateTime::fromSecsSinceEpoch(hour * 3600, QTimeZone::utc());
        const QDateTime local(asUtc.date(), asUtc.time(), QTimeZone(QByteArray::fromStdString(m_iana)));
        it = m_offsetByHour.emplace(hour, local.offsetFromUtc()).first;
    }
    return civil - it->second;
}

} // namespace schedlab::trace
