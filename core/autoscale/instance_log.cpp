// Logged replica counts from an instance log (instance_log.h).

#include "instance_log.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>
#include <tuple>

namespace schedlab::autoscale {

namespace {

constexpr std::string_view kHeaderStart = "instance_sn,role,app_name,";
constexpr double kMaxTimeS = 1e8; ///< a replay takes a step per second up to the log's end

std::vector<std::string_view> splitCommas(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t c = line.find(',', from);
        out.push_back(line.substr(from, c == std::string_view::npos ? std::string_view::npos : c - from));
        if (c == std::string_view::npos)
            return out;
        from = c + 1;
    }
}

/// An empty field is "outside the trace" (NaN in the origin's README): `empty` is set.
bool parseTime(std::string_view f, double& out, bool& empty)
{
    empty = f.empty();
    if (empty)
        return true;
    const std::string s(f);
    char* end = nullptr;
    errno = 0;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && errno == 0 && std::isfinite(out) && out >= 0;
}

} // namespace

int InstanceLog::appIndex(const std::string& app) const
{
    const auto it = std::find(apps.begin(), apps.end(), app);
    return it == apps.end() ? -1 : int(it - apps.begin());
}

int InstanceLog::roleIndex(const std::string& role) const
{
    const auto it = std::find(roles.begin(), roles.end(), role);
    return it == roles.end() ? -1 : int(it - roles.begin());
}

bool isInstanceLog(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    char buf[64] = {};
    const std::size_t n = std::fread(buf, 1, kHeaderStart.size(), f);
    std::fclose(f);
    return std::string_view(buf, n) == kHeaderStart;
}

Result<InstanceLog> readInstanceLog(const std::string& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    const std::string_view all(*text);
    InstanceLog log;
    log.name = path.substr(path.find_last_of('/') + 1);
    std::size_t pos = 0;
    int line = 0;
    int cRole = -1, cApp = -1, cCreate = -1, cDelete = -1;
    std::size_t columns = 0;
    std::map<std::string, int32_t, std::less<>> appIds;
    while (pos < all.size()) {
        std::size_t nl = all.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = all.size();
        std::string_view row = all.substr(pos, nl - pos);
        pos = nl + 1;
        ++line;
        if (!row.empty() && row.back() == '\r')
            row.remove_suffix(1);
        if (line == 1) {
            const auto names = splitCommas(row);
            columns = names.size();
            for (std::size_t i = 0; i < names.size(); ++i) {
                int* c = names[i] == "role" ? &cRole
                    : names[i] == "app_name"  ? &cApp
                    : names[i] == "creation_time" ? &cCreate
                    : names[i] == "deletion_time" ? &cDelete
                                                  : nullptr;
                if (c)
                    *c = int(i);
            }
            for (const auto& [c, name] : { std::pair(cRole, "role"), std::pair(cApp, "app_name"), std::pair(cCreate, "creation_time"),
                     std::pair(cDelete, "deletion_time") })
                if (c < 0)
                    return makeError(ErrorCode::Format, std::string("no ") + name + " column in the header (an instance log: instance_sn,role,app_name,...,creation_time,scheduled_time,deletion_time)", path, 1);
            continue;
        }
        if (row.empty())
            continue;
        const auto f = splitCommas(row);
        if (f.size() != columns)
            return makeError(ErrorCode::Parse, std::to_string(f.size()) + " fields where the header has " + std::to_string(columns), path, line);
        InstanceLog::Instance in;
        const std::string_view app = f[std::size_t(cApp)], role = f[std::size_t(cRole)];
        if (app.empty())
            return makeError(ErrorCode::Parse, "app_name: empty", path, line);
        const auto [it, added] = appIds.try_emplace(std::string(app), int32_t(log.apps.size()));
        if (added)
            log.apps.emplace_back(app);
        in.app = it->second;
        int r = log.roleIndex(std::string(role));
        if (r < 0) {
            if (log.roles.size() >= 100)
                return makeError(ErrorCode::Range, "role: more than 100 roles", path, line);
            r = int(log.roles.size());
            log.roles.emplace_back(role);
        }
        in.role = int8_t(r);
        bool noCreate = false, noDelete = false;
        for (const auto& [column, name, out, empty] : { std::tuple(cCreate, "creation_time", &in.createS, &noCreate),
                 std::tuple(cDelete, "deletion_time", &in.deleteS, &noDelete) }) {
            const std::string_view field = f[std::size_t(column)];
            if (!parseTime(field, *out, *empty))
                return makeError(ErrorCode::Parse, std::string(name) + ": '" + std::string(field) + "' is not seconds >= 0", path, line);
            if (!*empty && *out > kMaxTimeS)
                return makeError(ErrorCode::Range,
                    std::string(name) + ": " + std::string(field) + " s is more than 10^8 s (3 years) after the trace start (milliseconds?)", path, line);
        }
        if (noCreate) {
            in.createS = 0;
            in.before = true;
        }
        if (noDelete)
            in.deleteS = -1; // the log's end, known once read
        else if (in.deleteS < in.createS)
            return makeError(ErrorCode::Range, "deletion_time: before creation_time", path, line);
        log.endS = std::max({ log.endS, in.createS, in.deleteS });
        log.instances.push_back(in);
    }
    if (line == 0)
        return makeError(ErrorCode::Format, "empty file", path);
    if (log.instances.empty())
        return makeError(ErrorCode::Format, "no instances after the header", path);
    for (InstanceLog::Instance& in : log.instances)
        if (in.deleteS < 0)
            in.deleteS = log.endS;
    return log;
}

int32_t ReplicaRecord::at(double t) const
{
    const auto it = std::upper_bound(changes.begin(), changes.end(), t,
        [](double x, const std::pair<double, int32_t>& c) { return x < c.first; });
    return it == changes.begin() ? 0 : std::prev(it)->second;
}

double ReplicaRecord::replicaHours() const
{
    double s = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const double to = i + 1 < changes.size() ? changes[i + 1].first : endS;
        s += double(changes[i].second) * std::max(0.0, to - changes[i].first);
    }
    return s / 3600.0;
}

ReplicaRecord replicaRecord(const InstanceLog& log, int app, int role, double servingAfterS)
{
    ReplicaRecord r;
    r.app = log.apps[std::size_t(app)] + (role >= 0 ? "/" + log.roles[std::size_t(role)] : std::string());
    r.endS = log.endS;
    std::vector<std::pair<double, int32_t>> deltas;
    for (const InstanceLog::Instance& in : log.instances)
        if (in.app == app && (role < 0 || in.role == role)) {
            ++r.instances;
            const double from = in.before ? 0.0 : in.createS + servingAfterS;
            if (in.deleteS > from) {
                deltas.emplace_back(from, +1);
                deltas.emplace_back(in.deleteS, -1);
            }
        }
    std::sort(deltas.begin(), deltas.end());
    int32_t n = 0;
    r.changes.emplace_back(0.0, 0);
    for (std::size_t i = 0; i < deltas.size();) {
        const double t = deltas[i].first;
        for (; i < deltas.size() && deltas[i].first == t; ++i)
            n += deltas[i].second;
        if (r.changes.back().first == t)
            r.changes.back().second = n;
        else if (r.changes.back().second != n)
            r.changes.emplace_back(t, n);
    }
    return r;
}

LoadSeries demandOf(const ReplicaRecord& record, double capacityRps)
{
    LoadSeries s;
    s.name = record.app;
    s.source = "demand served by " + record.app + "'s logged instances at the target utilisation";
    const std::size_t steps = std::size_t(std::ceil(record.endS));
    s.requests.assign(steps, 0.0f);
    for (std::size_t i = 0; i < record.changes.size(); ++i) {
        const std::size_t from = std::size_t(std::ceil(record.changes[i].first));
        const std::size_t to = i + 1 < record.changes.size() ? std::size_t(std::ceil(record.changes[i + 1].first)) : steps;
        std::fill(s.requests.begin() + long(std::min(from, steps)), s.requests.begin() + long(std::min(to, steps)),
            float(double(record.changes[i].second) * capacityRps));
    }
    return s;
}

} // namespace schedlab::autoscale
