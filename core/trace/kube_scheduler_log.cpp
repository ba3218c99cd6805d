#include "kube_scheduler_log.h"

#include "fields.h"
#include "import_context.h"
#include "klog.h"
#include "kube_scheduler_wording.h"
#include "line_reader.h"
#include "slurm_fields.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>

namespace schedlab::trace {

namespace {
using wording::isDecisionMessage;
using wording::kBound;
using wording::kFinalScore;
using wording::kNodeNotFound;
using wording::kNoFit;
using wording::kNoNodes;
using wording::kPluginScore;

int64_t toInt(std::string_view s, int64_t fallback = -1)
{
    int64_t v = 0;
    return parseInt64(s, v) == ParseStatus::Ok ? v : fallback;
}
} // namespace

int32_t SchedulerLog::intern(std::vector<std::string>& table, std::unordered_map<std::string, int32_t>& index, std::string_view name)
{
    const auto [it, added] = index.try_emplace(std::string(name), int32_t(table.size()));
    if (added)
        table.emplace_back(name);
    return it->second;
}

int32_t SchedulerLog::slotOf(int32_t pod, Attempt& a, int32_t node)
{
    (void)pod;
    if (m_slot.size() < nodes.size())
        m_slot.resize(nodes.size(), { 0, -1 });
    if (m_indexed != a.id) { // another attempt's lines came in between: index this one again
        for (std::size_t i = 0; i < a.candidates.size(); ++i)
            m_slot[std::size_t(a.candidates[i].node)] = { a.id, int32_t(i) };
        m_indexed = a.id;
    }
    auto& s = m_slot[std::size_t(node)];
    if (s.first != a.id) {
        s = { a.id, int32_t(a.candidates.size()) };
        Candidate c;
        c.node = node;
        a.candidates.push_back(c);
    }
    return s.second;
}

void SchedulerLog::close(int32_t pod, Decision d)
{
    d.pod = pod;
    d.firstCandidate = uint32_t(candidates.size());
    if (const auto it = m_attempts.find(pod); it != m_attempts.end()) {
        Attempt& a = it->second;
        // Terms arrive plugin by plugin or node by node: grouped per candidate, in plugin order seen.
        std::stable_sort(a.terms.begin(), a.terms.end(), [](const PendingTerm& x, const PendingTerm& y) { return x.slot < y.slot; });
        std::size_t t = 0;
        for (std::size_t i = 0; i < a.candidates.size(); ++i) {
            Candidate c = a.candidates[i];
            c.firstTerm = uint32_t(terms.size());
            for (; t < a.terms.size() && a.terms[t].slot == int32_t(i); ++t)
                terms.push_back(Term { a.terms[t].plugin, a.terms[t].score });
            c.termCount = uint32_t(terms.size() - c.firstTerm);
            candidates.push_back(c);
        }
        d.candidateCount = uint32_t(a.candidates.size());
        if (m_indexed == a.id)
            m_indexed = 0;
        m_attempts.erase(it);
    }
    decisions.push_back(std::move(d));
}

void SchedulerLog::record(double unixS, std::string_view message, std::string_view podName, std::string_view node,
    std::string_view plugin, std::string_view score, std::string_view err, std::string_view evaluated, std::string_view feasible,
    const std::string& file, int64_t line, ImportContext& ctx)
{
    ++records;
    if (podName.empty()) {
        ctx.diagnostics.warn("bad-log-line", file, line, "pod", std::string(message) + " without a pod");
        return;
    }
    const int32_t pod = intern(pods, m_podIndex, podName);
    if (message == kPluginScore || message == kFinalScore) {
        ++scoreLines;
        const int64_t value = toInt(score, INT64_MIN); // kube-scheduler's scores are integers
        if (node.empty() || value == INT64_MIN) {
            ctx.diagnostics.warn("bad-log-line", file, line, node.empty() ? "node" : "score",
                std::string(message) + ": " + (node.empty() ? "no node" : "score " + quoted(score) + " is not an integer"));
            return;
        }
        Attempt& a = m_attempts[pod];
        if (a.id == 0 || (message == kPluginScore && a.finals)) { // a new scheduling cycle of this pod
            a = Attempt {};
            a.id = m_nextId++;
        }
        const int32_t slot = slotOf(pod, a, intern(nodes, m_nodeIndex, node));
        if (message == kPluginScore) {
            a.terms.push_back(PendingTerm { slot, intern(plugins, m_pluginIndex, plugin.empty() ? "(unnamed)" : plugin), double(value) });
        } else {
            a.finals = true;
            a.candidates[std::size_t(slot)].hasTotal = true;
            a.candidates[std::size_t(slot)].total = double(value);
        }
        return;
    }
    // A decision needs a time the rest of the trace can hold (0 to the year 9999 in seconds).
    if (!(unixS >= 0 && unixS <= 253402300799.0)) {
        ctx.diagnostics.warn("bad-log-line", file, line, "time", std::string(message) + " without a usable time; ignored");
        return;
    }
    Decision d;
    d.unixS = unixS;
    d.file = file;
    d.line = line;
    if (message == kBound) {
        if (node.empty()) {
            ctx.diagnostics.warn("bad-log-line", file, line, "node", std::string(kBound) + " without a node");
            return;
        }
        d.node = intern(nodes, m_nodeIndex, node);
        d.evaluated = int32_t(toInt(evaluated));
        d.feasible = int32_t(toInt(feasible));
    } else {
        d.outcome = LoggedOutcome::Unschedulable;
        d.reason = err.empty() ? std::string(message == kNoNodes ? "no nodes are registered to the cluster" : message) : std::string(err);
    }
    close(pod, std::move(d));
}

Status SchedulerLog::addText(LineReader& reader, ImportContext& ctx, const LocalTimeZone& zone, int year)
{
    const std::string& file = reader.displayName();
    std::string_view line;
    KlogRecord r;
    std::string scratch;
    int lastMonth = 0;
    int64_t truncated = 0, continuation = 0, legacy = 0;
    std::string unwrapped; // a Docker JSON line's text
    // A record's time: a prefix's full timestamp, else the header's in `year` (moved on when the
    // months go from December to January) and the zone.
    auto timeOf = [&](const KlogRecord& k) {
        if (k.prefixUnixS >= 0) {
            ++prefixTimed;
            return k.prefixUnixS;
        }
        ++headerTimed;
        if (lastMonth == 12 && k.month == 1)
            ++year;
        lastMonth = k.month;
        const int64_t civil = civilSeconds(year, k.month, k.day, 0, 0, 0);
        return double(zone.toUnix(civil + int64_t(k.secondOfDay))) + (k.secondOfDay - std::floor(k.secondOfDay));
    };
    while (reader.next(line)) {
        if ((reader.lineNumber() & 8191) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        // Cheap test first: most lines of a verbose log are other messages.
        if (line.find("pod") == std::string_view::npos && line.find("schedule") == std::string_view::npos)
            continue;
        if (!line.empty() && line.front() == '{' && unwrapDockerJsonLine(line, unwrapped))
            line = unwrapped;
        const KlogLine kind = parseKlogLine(line, r, scratch);
        if (kind == KlogLine::NotKlog) {
            ++continuation;
            continue;
        }
        if (kind == KlogLine::Truncated) {
            if (line.find("for pod") != std::string_view::npos || line.find(kBound) != std::string_view::npos
                || line.find("Unable to schedule pod") != std::string_view::npos) {
                ++truncated;
                ctx.diagnostics.warn("truncated-log-line", file, reader.lineNumber(), "", "a scheduling line cut mid-way; ignored");
            }
            continue;
        }
        wording::Legacy old;
        if (kind == KlogLine::Unstructured && wording::parseLegacy(r.message, old)) { // kube-scheduler 1.14-1.18
            ++legacy;
            record(timeOf(r), old.message, old.pod, old.node, {}, {}, old.err, old.evaluated, old.feasible, file, reader.lineNumber(), ctx);
            continue;
        }
        if (kind != KlogLine::Record || !isDecisionMessage(r.message)) {
            if (wording::looksLikeDecision(r.message)) // never a silent 0 decisions for a wording we lack
                ctx.diagnostics.warn("unread-scheduling-line", file, reader.lineNumber(), "",
                    "looks like a scheduling decision in a wording this reader does not know; ignored: "
                        + sanitizeUtf8(r.message.substr(0, 100)));
            continue;
        }
        record(timeOf(r), r.message, r.value("pod"), r.value("node"), r.value("plugin"), r.value("score"), r.value("err"),
            r.value("evaluatedNodes"), r.value("feasibleNodes"), file, reader.lineNumber(), ctx);
    }
    if (reader.error())
        return *reader.error();
    if (truncated)
        ctx.diagnostics.note("kube-scheduler-log truncated lines", truncated);
    if (continuation)
        ctx.diagnostics.note("kube-scheduler-log continuation lines", continuation);
    if (legacy)
        ctx.diagnostics.note("kube-scheduler-log decisions in the printf wording of 1.14-1.18", legacy);
    return {};
}

Status SchedulerLog::addJson(LineReader& reader, ImportContext& ctx)
{
    namespace od = simdjson::ondemand;
    const std::string& file = reader.displayName();
    od::parser parser;
    std::string padded;
    std::string_view line;
    while (reader.next(line)) {
        if ((reader.lineNumber() & 8191) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (line.find("pod") == std::string_view::npos || trimmed(line).empty())
            continue;
        padded.assign(line);
        padded.append(simdjson::SIMDJSON_PADDING, ' ');
        od::document doc;
        od::object obj;
        if (parser.iterate(padded.data(), line.size(), padded.size()).get(doc) || doc.get_object().get(obj)) {
            ctx.diagnostics.warn("bad-log-line", file, reader.lineNumber(), "", "not a JSON object (cut mid-way?); ignored");
            continue;
        }
        double ts = -1;
        std::string msg, pod, node, plugin, score, err, evaluated, feasible;
        bool bad = false;
        for (auto f : obj) {
            od::field field;
            std::string_view key;
            if (std::move(f).get(field) || field.unescaped_key().get(key)) {
                bad = true;
                break;
            }
            od::value v = field.value();
            auto text = [&](std::string& out) {
                std::string_view sv;
                if (!v.get_string().get(sv)) {
                    out.assign(sv);
                    return;
                }
                int64_t i = 0;
                if (!v.get_int64().get(i))
                    out = std::to_string(i);
            };
            if (key == "ts") {
                if (v.get_double().get(ts))
                    ts = -1;
            } else if (key == "msg") {
                text(msg);
            } else if (key == "pod") {
                od::object po;
                if (!v.get_object().get(po)) { // KObj: {"name":..,"namespace":..}
                    std::string name, ns;
                    for (auto pf : po) {
                        od::field pfield;
                        std::string_view pk, pv;
                        if (std::move(pf).get(pfield) || pfield.unescaped_key().get(pk) || pfield.value().get_string().get(pv))
                            continue;
                        if (pk == "name")
                            name.assign(pv);
                        else if (pk == "namespace")
                            ns.assign(pv);
                    }
                    pod = ns.empty() ? name : ns + "/" + name;
                } else {
                    text(pod);
                }
            } else if (key == "node") {
                text(node);
            } else if (key == "plugin") {
                text(plugin);
            } else if (key == "score") {
                text(score);
            } else if (key == "err") {
                text(err);
            } else if (key == "evaluatedNodes") {
                text(evaluated);
            } else if (key == "feasibleNodes") {
                text(feasible);
            }
        }
        if (bad) {
            ctx.diagnostics.warn("bad-log-line", file, reader.lineNumber(), "", "not a JSON object (cut mid-way?); ignored");
            continue;
        }
        if (!isDecisionMessage(msg))
            continue;
        if (ts > 1e11) // milliseconds
            ts /= 1000;
        record(ts, msg, pod, node, plugin, score, err, evaluated, feasible, file, reader.lineNumber(), ctx);
    }
    if (reader.error())
        return *reader.error();
    return {};
}

} // namespace schedlab::trace
