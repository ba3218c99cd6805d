// Reading request load series (load_series.h).

#include "load_series.h"

#include <cctype>

#include <bzlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace schedlab::autoscale {

double LoadSeries::total() const
{
    double s = 0;
    for (float v : requests)
        s += v;
    return s;
}

Result<std::string> readFile(const std::string& path)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), path);
    std::string out;
    char buf[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0)
        out.append(buf, n);
    if (std::ferror(f.get()))
        return makeError(ErrorCode::Io, "read error", path);
    return out;
}

namespace {

/// bzip2 -> tar -> the first regular member's bytes.
Result<std::string> unpackTbz2(const std::string& packed, const std::string& path)
{
    bz_stream s {};
    if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK)
        return makeError(ErrorCode::Internal, "bzip2 init failed", path);
    std::string tar;
    std::vector<char> out(1 << 20);
    s.next_in = const_cast<char*>(packed.data());
    s.avail_in = unsigned(packed.size());
    int rc = BZ_OK;
    while (rc == BZ_OK) {
        s.next_out = out.data();
        s.avail_out = unsigned(out.size());
        rc = BZ2_bzDecompress(&s);
        tar.append(out.data(), out.size() - s.avail_out);
        if (tar.size() > (std::size_t(4) << 30))
            rc = BZ_MEM_ERROR;
        else if (rc == BZ_OK && s.avail_in == 0 && s.avail_out != 0)
            rc = BZ_UNEXPECTED_EOF;
    }
    BZ2_bzDecompressEnd(&s);
    if (rc != BZ_STREAM_END)
        return makeError(ErrorCode::Format, "not a complete bzip2 stream (error " + std::to_string(rc) + ")", path);
    // tar: 512-byte headers; size in octal at offset 124 (12 bytes); type flag at 156.
    for (std::size_t at = 0; at + 512 <= tar.size();) {
        const char* h = tar.data() + at;
        if (h[0] == '\0')
            break;
        const unsigned long long size = std::strtoull(std::string(h + 124, 12).c_str(), nullptr, 8);
        const char type = h[156];
        if (at + 512 + size > tar.size())
            return makeError(ErrorCode::Format, "tar member '" + std::string(h, strnlen(h, 100)) + "' is truncated", path);
        if (type == '0' || type == '\0')
            return tar.substr(at + 512, size);
        at += 512 + (size + 511) / 512 * 512;
    }
    return makeError(ErrorCode::Format, "the tar archive has no file", path);
}

int daysFromCivil(int y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int(doe) - 719468;
}

/// Lines of `text` (without the end of line), calling f(line number, begin, length); stops on false.
template <class F>
void forEachLine(const std::string& text, F f)
{
    std::size_t at = 0;
    int64_t line = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos)
            end = text.size();
        std::size_t len = end - at;
        if (len > 0 && text[at + len - 1] == '\r')
            --len;
        if (!f(++line, text.data() + at, len))
            return;
        at = end + 1;
    }
}

Result<LoadSeries> perSecondCounts(const std::string& text, const std::string& path)
{
    LoadSeries s;
    s.source = "per-second counts";
    const char* p = text.data();
    const char* end = p + text.size();
    int64_t line = 1;
    while (p < end) {
        if (*p == '\n') {
            ++line;
            ++p;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            ++p;
            continue;
        }
        if (*p < '0' || *p > '9')
            return makeError(ErrorCode::Parse, "count " + std::to_string(s.requests.size() + 1) + ": '" + std::string(p, std::min<std::size_t>(12, std::size_t(end - p))) + "' is not a non-negative integer", path, line);
        uint64_t v = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            v = v * 10 + uint64_t(*p - '0');
            if (v > 1'000'000'000)
                return makeError(ErrorCode::Range, "count " + std::to_string(s.requests.size() + 1) + " is above 10^9 requests in a second", path, line);
            ++p;
        }
        s.requests.push_back(float(v));
    }
    return s;
}

/// A timestamp,value series in time order with one row per timestamp: rows out of order are
/// sorted, the values of rows sharing a timestamp added (no request is lost). What was done, with
/// the first line of each, for LoadSeries::warnings.
std::vector<std::string> inTimeOrder(std::vector<std::pair<double, double>>& rows, const std::vector<int64_t>& lines)
{
    std::vector<std::string> notes;
    int64_t backwards = 0, firstBackwards = -1;
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i].first < rows[i - 1].first && backwards++ == 0)
            firstBackwards = lines[i];
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a].first < rows[b].first; });
    std::vector<std::pair<double, double>> merged;
    int64_t repeats = 0, firstRepeat = -1;
    for (std::size_t i : order) {
        if (!merged.empty() && merged.back().first == rows[i].first) {
            merged.back().second += rows[i].second;
            if (repeats++ == 0)
                firstRepeat = lines[i];
        } else {
            merged.push_back(rows[i]);
        }
    }
    rows = std::move(merged);
    if (backwards > 0)
        notes.push_back(std::to_string(backwards) + " row(s) earlier than the row above (first at line " + std::to_string(firstBackwards)
            + "): read in time order");
    if (repeats > 0)
        notes.push_back(std::to_string(repeats) + " row(s) repeat an earlier row's timestamp (first at line " + std::to_string(firstRepeat)
            + "): their values are added to it");
    return notes;
}

/// A timestamp,value series (rows in time order, one per timestamp) as 1-s steps: the step is the
/// most common gap between rows; each row's value is spread over its step, stepped or
/// interpolated between the intervals' midpoints.
Result<LoadSeries> spreadOverSteps(const std::vector<std::pair<double, double>>& rows, LoadSeries s, const std::string& path,
    Resample resample)
{
    // A coarser series: the step is the most common gap between rows.
    std::vector<double> gaps;
    for (std::size_t i = 1; i < rows.size(); ++i)
        gaps.push_back(rows[i].first - rows[i - 1].first);
    std::sort(gaps.begin(), gaps.end());
    const double step = gaps.empty() ? 1.0 : std::max(1.0, std::round(gaps[gaps.size() / 2]));
    const double span = rows.back().first - s.startEpochS + step;
    if (span > 400 * 86400.0)
        return makeError(ErrorCode::Range, "the series spans more than 400 days", path);
    s.requests.assign(std::size_t(span), 0.0f);
    char what[96];
    std::snprintf(what, sizeof what, "%g-s intervals, %s to 1 s", step, resample == Resample::Stepped ? "stepped" : "interpolated");
    s.source = what;
    for (const std::string& w : s.warnings) // shown wherever the load is described (CLI, workbench)
        s.source += "; " + w;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t from = std::size_t(rows[i].first - s.startEpochS);
        const double rate = rows[i].second / step;
        for (std::size_t k = 0; k < std::size_t(step) && from + k < s.requests.size(); ++k) {
            double r = rate;
            if (resample == Resample::Interpolated) {
                // Between this interval's midpoint and the next (or previous) one's.
                const double x = (double(k) + 0.5) / step - 0.5; // -0.5 .. 0.5 around the midpoint
                const std::size_t j = x >= 0 ? std::min(i + 1, rows.size() - 1) : (i == 0 ? 0 : i - 1);
                r = rate + (rows[j].second / step - rate) * std::abs(x);
            }
            s.requests[from + k] = float(r);
        }
    }
    return s;
}

/// The most requests one timestamp,value row may hold (10^12; a second of counts holds 10^9).
constexpr double kMaxRowValue = 1e12;

Result<LoadSeries> csvSeries(const std::string& text, const std::string& path, Resample resample)
{
    // Header: the timestamp column ("TIMESTAMP" / "timestamp") and an optional "value" column.
    const std::size_t eol = text.find('\n');
    std::string header = text.substr(0, eol == std::string::npos ? text.size() : eol);
    if (!header.empty() && header.back() == '\r')
        header.pop_back();
    std::vector<std::string> cols;
    for (std::size_t a = 0;;) {
        const std::size_t b = header.find(',', a);
        cols.push_back(header.substr(a, b == std::string::npos ? std::string::npos : b - a));
        if (b == std::string::npos)
            break;
        a = b + 1;
    }
    int tcol = -1, vcol = -1;
    for (std::size_t i = 0; i < cols.size(); ++i) {
        std::string c = cols[i];
        std::transform(c.begin(), c.end(), c.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
        if (c == "timestamp")
            tcol = int(i);
        else if (c == "value")
            vcol = int(i);
    }
    if (tcol < 0 && header.rfind("instance_sn,role,app_name,", 0) == 0)
        return makeError(ErrorCode::Format,
            "an instance log (replica counts per app, no requests): replay an app's record with `schedlab-cli autoscale "
            "FILE --app APP --policy logged,hpa` (instance_log.h)",
            path, 1);
    if (tcol < 0)
        return makeError(ErrorCode::Format, "no TIMESTAMP / timestamp column in the header (a load file is per-second counts, arrivals or timestamp,value)", path, 1);
    std::vector<std::pair<double, double>> rows; // time, value (1 per arrival)
    std::vector<int64_t> rowLines; // each row's line, for the notes on the order
    Error bad;
    bool failed = false;
    forEachLine(text, [&](int64_t line, const char* b, std::size_t n) {
        if (line == 1 || n == 0)
            return true;
        std::size_t field = 0, a = 0;
        double t = 0, v = 1;
        bool haveT = false, haveV = vcol < 0;
        for (std::size_t i = 0; i <= n; ++i)
            if (i == n || b[i] == ',') {
                if (int(field) == tcol) {
                    haveT = parseTimestamp(b + a, i - a, t);
                    if (!haveT) {
                        bad = makeError(ErrorCode::Parse, cols[std::size_t(tcol)] + ": '" + std::string(b + a, i - a) + "' is not a date and time", path, line);
                        return failed = true, false;
                    }
                } else if (int(field) == vcol) {
                    const std::string s(b + a, i - a);
                    char* e = nullptr;
                    v = std::strtod(s.c_str(), &e);
                    haveV = e && *e == '\0' && !s.empty() && std::isfinite(v) && v >= 0;
                    if (!haveV) {
                        bad = makeError(ErrorCode::Parse, "value: '" + s + "' is not a non-negative number", path, line);
                        return failed = true, false;
                    }
                    if (v > kMaxRowValue) { // steps are floats: a sum of such rows stays finite
                        bad = makeError(ErrorCode::Range, "value: '" + s + "' is above 10^12 requests in a row", path, line);
                        return failed = true, false;
                    }
                }
                ++field;
                a = i + 1;
            }
        if (!haveT || !haveV) {
            bad = makeError(ErrorCode::Format, "missing " + std::string(!haveT ? "timestamp" : "value") + " field", path, line);
            return failed = true, false;
        }
        rows.emplace_back(t, v);
        rowLines.push_back(line);
        return true;
    });
    if (failed)
        return bad;
    if (rows.empty())
        return makeError(ErrorCode::Empty, "no rows after the header", path);
    LoadSeries s;
    if (vcol >= 0)
        s.warnings = inTimeOrder(rows, rowLines);
    else
        std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    s.startEpochS = std::floor(rows.front().first);
    if (vcol < 0) {
        // Arrivals: one request per row, binned to the second.
        s.source = "arrivals binned to 1 s";
        const double span = rows.back().first - s.startEpochS;
        if (span > 400 * 86400.0)
            return makeError(ErrorCode::Range, "arrivals span more than 400 days", path);
        s.requests.assign(std::size_t(span) + 1, 0.0f);
        for (const auto& [t, v] : rows)
            s.requests[std::size_t(t - s.startEpochS)] += 1.0f;
        return s;
    }
    return spreadOverSteps(rows, std::move(s), path, resample);
}

} // namespace

bool parseTimestamp(const char* s, std::size_t n, double& out)
{
    // YYYY-MM-DD[ T]HH:MM:SS[.frac]
    if (n < 19)
        return false;
    auto digits = [&](std::size_t at, std::size_t len, int& v) {
        v = 0;
        for (std::size_t i = at; i < at + len; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            v = v * 10 + (s[i] - '0');
        }
        return true;
    };
    int y, mo, d, h, mi, se;
    if (!digits(0, 4, y) || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' || !digits(8, 2, d) || (s[10] != ' ' && s[10] != 'T')
        || !digits(11, 2, h) || s[13] != ':' || !digits(14, 2, mi) || s[16] != ':' || !digits(17, 2, se))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return false;
    double frac = 0;
    if (n > 19) {
        if (s[19] != '.')
            return false;
        double scale = 0.1;
        for (std::size_t i = 20; i < n; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            frac += (s[i] - '0') * scale;
            scale /= 10;
        }
    }
    out = double(daysFromCivil(y, unsigned(mo), unsigned(d))) * 86400.0 + h * 3600.0 + mi * 60.0 + se + frac;
    return true;
}

Result<LoadSeries> readLoadSeries(const std::string& path, Resample resample)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.ends_with(".tbz2") || name.ends_with(".tar.bz2")) {
        auto unpacked = unpackTbz2(*text, path);
        if (!unpacked)
            return unpacked.error();
        *text = std::move(unpacked).value();
    }
    if (text->find_first_not_of(" \t\r\n") == std::string::npos)
        return makeError(ErrorCode::Empty, "empty load file", path);
    // Per-second counts: a first line of numbers (no comma, a digit first); a bad one among them is
    // reported as a bad count, not as a CSV without its header.
    const std::string first = text->substr(0, std::min(text->find('\n'), std::size_t(4096)));
    const std::size_t lead = first.find_first_not_of(" \t\r");
    const bool counts = first.find(',') == std::string::npos && (lead == std::string::npos || std::isdigit(static_cast<unsigned char>(first[lead])));
    auto series = counts ? perSecondCounts(*text, path) : csvSeries(*text, path, resample);
    if (!series)
        return series.error();
    series->name = name;
    if (series->requests.empty())
        return makeError(ErrorCode::Empty, "no load steps", path);
    return series;
}

} // namespace schedlab::autoscale
