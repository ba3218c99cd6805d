// Reads a schedlab decision log (decision_log_format.h, docs/decision-log.md): node and pod records into
// K8sObjects (the cluster), decision records into the SchedulerLog with their candidates, per-term
// scores, reasons and rewards. A record that cannot be read is a warning naming the line and the
// field (the record is skipped, nothing else); a file that is not a decision log, or of a newer
// major version, is an error.

#include "decision_log_format.h"
#include "k8s_objects.h"
#include "kube_scheduler_log.h"

#include "fields.h"
#include "import_context.h"
#include "json_error_location.h"
#include "k8s_quantity.h"
#include "line_reader.h"
#include "rfc3339.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <cmath>
#include <unordered_map>

namespace schedlab::trace {

namespace {

namespace dom = simdjson::dom;

constexpr double kLatestUnixS = 253402300799.0; // 9999-12-31T23:59:59Z

/// A bad field: where (a JSON pointer in the record) and what.
struct Bad {
    std::string field, message;
};

/// The text of a JSON string or number (numbers as their shortest decimal form).
std::optional<std::string> scalarText(dom::element v)
{
    switch (v.type()) {
    case dom::element_type::STRING:
        return std::string(std::string_view(v.get_string().value_unsafe()));
    case dom::element_type::INT64:
        return std::to_string(int64_t(v.get_int64().value_unsafe()));
    case dom::element_type::UINT64:
        return std::to_string(uint64_t(v.get_uint64().value_unsafe()));
    case dom::element_type::DOUBLE: {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, double(v.get_double().value_unsafe()));
        return std::string(buf, r.ptr);
    }
    default:
        return std::nullopt;
    }
}

std::optional<double> number(dom::element v)
{
    double d = 0;
    if (v.get_double().get(d)) // also takes integers
        return std::nullopt;
    if (!std::isfinite(d))
        return std::nullopt;
    return d;
}

/// A time: Unix seconds (a number) or an RFC 3339 string; in 0 .. year 9999.
std::optional<double> timeOf(dom::element v, const std::string& field, Bad& bad)
{
    std::optional<double> t;
    if (v.is_string())
        t = parseRfc3339(std::string_view(v.get_string().value_unsafe()));
    else
        t = number(v);
    if (!t || *t < 0 || *t > kLatestUnixS) {
        bad = { field, "not a time (Unix seconds, or RFC 3339 like \"2026-11-28T10:00:00Z\")" };
        return std::nullopt;
    }
    return t;
}

std::optional<std::string> stringOf(dom::element v, const std::string& field, Bad& bad)
{
    std::string_view s;
    if (v.get_string().get(s) || s.empty()) {
        bad = { field, "expected a non-empty string" };
        return std::nullopt;
    }
    return std::string(s);
}

std::optional<int64_t> integerOf(dom::element v, const std::string& field, Bad& bad, int64_t lo, int64_t hi)
{
    int64_t i = 0;
    if (v.get_int64().get(i) || i < lo || i > hi) {
        bad = { field, "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi) };
        return std::nullopt;
    }
    return i;
}

/// cpu (cores or "500m") to milli-cores, memory (bytes or "16Gi") to MiB, rounded as `round`.
std::optional<int64_t> quantityOf(dom::element v, const std::string& field, Bad& bad, bool cpu, Round round)
{
    const auto text = scalarText(v);
    const auto q = text ? parseQuantity(*text) : std::nullopt;
    std::optional<int64_t> out;
    if (q && !q->isNegative())
        out = cpu ? scaledQuantity(*q, -3, 0, round) : mebibytes(*q, round);
    if (!out) {
        bad = { field, (text ? trace::quoted(*text) + " is not a" : std::string("not a")) + " non-negative Kubernetes quantity" };
        return std::nullopt;
    }
    return out;
}

/// "ns/name" split at the first '/'; a name without one has no namespace.
void splitPodName(const std::string& full, std::string& ns, std::string& name)
{
    const std::size_t slash = full.find('/');
    if (slash == std::string::npos) {
        ns.clear();
        name = full;
    } else {
        ns = full.substr(0, slash);
        name = full.substr(slash + 1);
    }
}

/// The header line: checks the schema and version; the default scheduler name goes to `source`.
Status readHeader(bool parsed, dom::object obj, const std::string& file, int64_t lineNo, std::string& source)
{
    std::string_view schema;
    dom::element kindOfHeader;
    if (!parsed || obj["schema"].get_string().get(schema) || !obj["kind"].get(kindOfHeader))
        return Error { ErrorCode::Parse,
            "not a schedlab decision log: the first line must be the header {\"schema\":\"" + std::string(kDecisionLogSchema) + "\", ...}",
            file, lineNo, -1 };
    const std::string_view family = kDecisionLogSchema.substr(0, kDecisionLogSchema.size() - 1); // "schedlab.decision-log/"
    const std::string_view version = schema.substr(std::min(schema.size(), family.size()));
    if (schema.substr(0, family.size()) != family || !(version == "1" || version.substr(0, 2) == "1."))
        return Error { ErrorCode::Parse,
            "field schema: " + trace::quoted(schema) + " is not a version this schedlab reads (" + std::string(kDecisionLogSchema)
                + " and 1.x)",
            file, lineNo, -1 };
    std::string_view scheduler;
    if (!obj["scheduler"].get_string().get(scheduler) && !scheduler.empty())
        source.assign(scheduler);
    return {};
}

/// A node record; the first bad field goes to `bad`.
K8sNode readNode(dom::object obj, const std::string& file, int64_t lineNo, Bad& bad)
{
    K8sNode n;
    n.file = file;
    n.line = lineNo;
    for (auto [key, v] : obj) {
        if (key == "name") {
            if (auto s = stringOf(v, "name", bad))
                n.name = *s;
        } else if (key == "cpu") {
            if (auto q = quantityOf(v, "cpu", bad, true, Round::Down))
                n.cpuMilli = *q;
        } else if (key == "memory") {
            if (auto q = quantityOf(v, "memory", bad, false, Round::Down))
                n.memMiB = *q;
        } else if (key == "gpu") {
            if (auto g = integerOf(v, "gpu", bad, 0, 1024))
                n.gpus = int32_t(*g);
        } else if (key == "gpuModel") {
            if (auto s = stringOf(v, "gpuModel", bad))
                n.gpuModel = *s;
        } else if (key == "time") {
            if (auto t = timeOf(v, "time", bad))
                n.createdS = *t;
        }
        if (!bad.field.empty())
            break;
    }
    if (bad.field.empty() && n.name.empty())
        bad = { "name", "a node needs a name" };
    return n;
}

/// A pod's "gpu": whole GPUs, or a share of one (0.5).
void readPodGpu(dom::element v, K8sPod& p, Bad& bad)
{
    const auto g = number(v);
    if (!g || *g < 0 || *g > 1024 || (*g > 1 && *g != std::floor(*g))) {
        bad = { "gpu", "expected a whole number of GPUs or a share of one (0 < gpu < 1)" };
    } else if (*g >= 1) {
        p.request.numGpu = int32_t(*g);
        p.request.gpuMilli = 1000;
    } else if (*g > 0) {
        p.request.numGpu = 1;
        p.request.gpuMilli = std::max(1, int32_t(std::lround(*g * 1000)));
    }
}

/// One field of a pod record.
void readPodField(std::string_view key, dom::element v, K8sPod& p, Bad& bad)
{
    if (key == "name") {
        if (auto s = stringOf(v, "name", bad))
            splitPodName(*s, p.ns, p.name);
    } else if (key == "time") {
        if (auto t = timeOf(v, "time", bad))
            p.createdS = *t;
    } else if (key == "cpu") {
        if (auto q = quantityOf(v, "cpu", bad, true, Round::Up))
            p.request.cpuMilli = *q;
    } else if (key == "memory") {
        if (auto q = quantityOf(v, "memory", bad, false, Round::Up))
            p.request.memMiB = *q;
    } else if (key == "gpu") {
        readPodGpu(v, p, bad);
    } else if (key == "gpuModels") {
        dom::array models;
        if (v.get_array().get(models))
            bad = { "gpuModels", "expected a list of GPU model names" };
        else
            for (dom::element m : models)
                if (auto s = stringOf(m, "gpuModels", bad))
                    p.gpuModels.push_back(*s);
    } else if (key == "priority") {
        if (auto i = integerOf(v, "priority", bad, INT32_MIN, INT32_MAX))
            p.priority = int32_t(*i);
    } else if (key == "runtime") {
        const auto r = number(v);
        if (!r || *r < 0)
            bad = { "runtime", "expected seconds (a non-negative number)" };
        else
            p.runS = *r;
    } else if (key == "end") {
        if (auto t = timeOf(v, "end", bad))
            p.endS = *t;
    } else if (key == "node") {
        if (auto s = stringOf(v, "node", bad))
            p.nodeName = *s;
    } else if (key == "start") {
        if (auto t = timeOf(v, "start", bad))
            p.scheduledS = *t;
    } else if (key == "phase") {
        if (auto s = stringOf(v, "phase", bad))
            p.phase = *s;
    }
}

/// A pod record; the first bad field goes to `bad`.
K8sPod readPod(dom::object obj, const std::string& file, int64_t lineNo, Bad& bad)
{
    K8sPod p;
    p.file = file;
    p.line = lineNo;
    for (auto [key, v] : obj) {
        readPodField(key, v, p, bad);
        if (!bad.field.empty())
            break;
    }
    if (bad.field.empty() && p.name.empty())
        bad = { "name", "a pod needs a name" };
    p.qos = "Burstable";
    p.qosDerived = true;
    return p;
}

} // namespace

/// Decision records go straight to the log's shared arrays (candidates, terms); a bad record
/// takes them back.
struct SchedulerLog::DecisionRecords {
    SchedulerLog& log;

    /// "reasons": {"reason": nodes or null, ...}.
    void readReasons(dom::element v, Decision& d, Bad& bad)
    {
        dom::object reasons;
        if (v.get_object().get(reasons)) {
            bad = { "reasons", "expected an object {\"reason\": nodes, ...}" };
            return;
        }
        for (auto [reason, nodes] : reasons) {
            auto n = nodes.is_null() ? std::optional<int64_t>(-1)
                                     : integerOf(nodes, "reasons/" + pointerKey(reason), bad, 0, INT32_MAX);
            if (!n)
                break;
            d.reasons.emplace_back(std::string(reason), int32_t(*n));
        }
    }

    /// {"name": number, ...} appended to the log's terms; `at` + `sub` is the object's JSON pointer.
    void readTerms(dom::object to, const std::string& at, const char* sub, Bad& bad)
    {
        for (auto [tname, tv] : to) {
            const auto x = number(tv);
            if (!x) {
                bad = { at + sub + pointerKey(tname), "expected a number" };
                break;
            }
            log.terms.push_back(Term { log.internPlugin(tname), *x });
        }
    }

    /// "reward": {"term": value, ...}.
    void readReward(dom::element v, Decision& d, Bad& bad)
    {
        dom::object reward;
        d.firstReward = uint32_t(log.terms.size());
        if (v.get_object().get(reward))
            bad = { "reward", "expected an object {\"term\": value, ...}" };
        else
            readTerms(reward, "reward", "/", bad);
        d.rewardCount = uint32_t(log.terms.size() - d.firstReward);
    }

    /// One candidate {"node":..., "score":..., "terms":{...}} at JSON pointer `at`.
    void readCandidate(dom::element ce, const std::string& at, Bad& bad)
    {
        dom::object co;
        if (ce.get_object().get(co)) {
            bad = { at, "expected an object" };
            return;
        }
        Candidate c;
        c.firstTerm = uint32_t(log.terms.size());
        for (auto [ckey, cv] : co) {
            if (ckey == "node") {
                if (auto s = stringOf(cv, at + "/node", bad))
                    c.node = log.internNode(*s);
            } else if (ckey == "score") {
                if (cv.is_null())
                    continue;
                const auto x = number(cv);
                if (!x)
                    bad = { at + "/score", "expected a number" };
                c.hasTotal = bool(x);
                c.total = x.value_or(0);
            } else if (ckey == "terms") {
                dom::object to;
                if (cv.get_object().get(to))
                    bad = { at + "/terms", "expected an object {\"plugin\": score, ...}" };
                else
                    readTerms(to, at, "/terms/", bad);
            }
            if (!bad.field.empty())
                break;
        }
        if (bad.field.empty() && c.node < 0)
            bad = { at + "/node", "a candidate needs its node" };
        if (!bad.field.empty())
            return;
        c.termCount = uint32_t(log.terms.size() - c.firstTerm);
        log.candidates.push_back(c);
    }

    /// "candidates": [...].
    void readCandidates(dom::element v, Bad& bad)
    {
        dom::array list;
        if (v.get_array().get(list)) {
            bad = { "candidates", "expected a list of {\"node\":..., \"score\":..., \"terms\":{...}}" };
            return;
        }
        std::size_t k = 0;
        for (dom::element ce : list) {
            readCandidate(ce, "candidates/" + std::to_string(k++), bad);
            if (!bad.field.empty())
                break;
        }
    }

    /// One field of a decision record; the outcome and node are checked once all are read.
    void readField(std::string_view key, dom::element v, Decision& d, std::string& outcome, std::string& node, Bad& bad)
    {
        if (key == "time") {
            if (auto t = timeOf(v, "time", bad))
                d.unixS = *t;
        } else if (key == "lastTime") {
            if (auto t = timeOf(v, "lastTime", bad))
                d.lastUnixS = *t;
        } else if (key == "pod") {
            if (auto s = stringOf(v, "pod", bad))
                d.pod = log.internPod(*s);
        } else if (key == "outcome") {
            if (auto s = stringOf(v, "outcome", bad))
                outcome = *s;
        } else if (key == "node") {
            if (auto s = stringOf(v, "node", bad))
                node = *s;
        } else if (key == "evaluated" || key == "feasible") {
            if (auto i = integerOf(v, std::string(key), bad, 0, INT32_MAX))
                (key == "evaluated" ? d.evaluated : d.feasible) = int32_t(*i);
        } else if (key == "count") {
            if (auto i = integerOf(v, "count", bad, 1, INT32_MAX))
                d.count = int32_t(*i);
        } else if (key == "scheduler") {
            if (auto s = stringOf(v, "scheduler", bad))
                d.source = *s;
        } else if (key == "message") { // the scheduler's own wording, FailedScheduling style
            if (auto s = stringOf(v, "message", bad))
                d.reason = *s;
        } else if (key == "reasons") {
            readReasons(v, d, bad);
        } else if (key == "reward") {
            readReward(v, d, bad);
        } else if (key == "candidates") {
            readCandidates(v, bad);
        }
    }

    /// The required fields and the outcome (a placed decision needs its node).
    void validate(Decision& d, const std::string& outcome, const std::string& node, Bad& bad)
    {
        if (d.unixS < 0)
            bad = { "time", "a decision needs its time" };
        else if (d.pod < 0)
            bad = { "pod", "a decision needs its pod" };
        else if (outcome == "placed") {
            d.outcome = LoggedOutcome::Placed;
            if (node.empty())
                bad = { "node", "a placed decision needs its node" };
            else
                d.node = log.internNode(node);
        } else if (outcome == "unschedulable") {
            d.outcome = LoggedOutcome::Unschedulable;
        } else if (outcome == "waited") {
            d.outcome = LoggedOutcome::Waited;
        } else {
            bad = { "outcome", trace::quoted(outcome) + " is not placed, unschedulable or waited" };
        }
    }

    /// A decision record: added to the log, or (bad) its candidates and terms taken back.
    void read(dom::object obj, const std::string& file, int64_t lineNo, const std::string& defaultSource, Bad& bad)
    {
        Decision d;
        d.file = file;
        d.line = lineNo;
        d.source = defaultSource;
        const std::size_t candidatesBefore = log.candidates.size(), termsBefore = log.terms.size();
        std::string outcome = "placed", node;
        d.firstCandidate = uint32_t(log.candidates.size());
        for (auto [key, v] : obj) {
            readField(key, v, d, outcome, node, bad);
            if (!bad.field.empty())
                break;
        }
        d.candidateCount = uint32_t(log.candidates.size() - d.firstCandidate);
        if (bad.field.empty())
            validate(d, outcome, node, bad);
        if (!bad.field.empty()) {
            log.candidates.resize(candidatesBefore);
            log.terms.resize(termsBefore);
            return;
        }
        log.decisions.push_back(std::move(d));
    }
};

namespace {

/// A pod's last placement in this log is where it ran: its logged node and start (unless its
/// record says a later one).
void placeLoggedPods(const SchedulerLog& log, K8sObjects& objects, std::size_t podsBefore, std::size_t decisionsBefore)
{
    std::unordered_map<std::string, std::size_t> podOf;
    for (std::size_t i = podsBefore; i < objects.pods.size(); ++i) {
        const K8sPod& p = objects.pods[i];
        podOf.emplace(p.ns.empty() ? p.name : p.ns + "/" + p.name, i);
    }
    for (std::size_t i = decisionsBefore; i < log.decisions.size(); ++i) {
        const SchedulerLog::Decision& d = log.decisions[i];
        if (d.outcome != LoggedOutcome::Placed)
            continue;
        const auto it = podOf.find(log.pods[std::size_t(d.pod)]);
        if (it == podOf.end())
            continue; // reported when the decisions are matched to pods
        K8sPod& p = objects.pods[it->second];
        if (p.scheduledS <= d.unixS) {
            p.scheduledS = d.unixS;
            p.nodeName = log.nodes[std::size_t(d.node)];
        }
    }
}

} // namespace

Status SchedulerLog::addDecisionLog(LineReader& reader, ImportContext& ctx, K8sObjects& objects)
{
    const std::string& file = reader.displayName();
    dom::parser parser;
    std::string padded;
    std::string_view line;
    bool headerSeen = false;
    std::string defaultSource = "decision log";
    std::map<std::string, int64_t> ignoredKinds;
    int64_t badRecords = 0;
    const std::size_t podsBefore = objects.pods.size(), decisionsBefore = decisions.size();
    DecisionRecords decisionRecords { *this };

    while (reader.next(line)) {
        if ((reader.lineNumber() & 8191) == 0 && !ctx.tick(reader))
            return ctx.cancelledError(reader);
        if (trimmed(line).empty())
            continue;
        padded.assign(line);
        padded.append(simdjson::SIMDJSON_PADDING, ' ');
        dom::element doc;
        dom::object obj;
        const simdjson::error_code jsonError = parser.parse(padded.data(), line.size(), false).get(doc);
        const bool parsed = !jsonError && !doc.get_object().get(obj);
        const int64_t lineNo = reader.lineNumber();
        auto warn = [&](const std::string& field, const std::string& message, const char* category = "bad-record") {
            ++badRecords;
            if (badRecords <= 50) // the field as a JSON pointer into the record
                ctx.diagnostics.warn(category, file, lineNo, field.empty() ? field : "/" + field, message + "; record skipped");
            else
                ctx.diagnostics.count(category);
        };

        if (!headerSeen) {
            if (Status s = readHeader(parsed, obj, file, lineNo, defaultSource); !s)
                return s;
            headerSeen = true;
            continue;
        }
        if (!parsed) {
            const auto [category, why] = whyNotJson(jsonError, line);
            warn("", why, category);
            continue;
        }
        std::string_view kind;
        if (obj["kind"].get_string().get(kind)) {
            warn("kind", "no \"kind\" (node, pod or decision)");
            continue;
        }
        Bad bad;
        if (kind == "node") {
            K8sNode n = readNode(obj, file, lineNo, bad);
            if (bad.field.empty())
                objects.nodes.push_back(std::move(n));
        } else if (kind == "pod") {
            K8sPod p = readPod(obj, file, lineNo, bad);
            if (bad.field.empty())
                objects.pods.push_back(std::move(p));
        } else if (kind == "decision") {
            decisionRecords.read(obj, file, lineNo, defaultSource, bad);
        } else {
            ++ignoredKinds[std::string(kind)];
        }
        if (!bad.field.empty())
            warn(bad.field, bad.message);
    }
    if (reader.error())
        return *reader.error();
    if (!headerSeen)
        return makeError(ErrorCode::Empty, "file is empty (a decision log starts with its header line)", file);
    if (badRecords > 50)
        ctx.diagnostics.count("bad-record", badRecords - 50);
    for (const auto& [kind, n] : ignoredKinds)
        ctx.diagnostics.note("decision-log-ignored kind " + kind, n);
    placeLoggedPods(*this, objects, podsBefore, decisionsBefore);
    return {};
}

} // namespace schedlab::trace
