// Writes a trace as a schedlab decision log (decision_log_format.h): header, nodes, pods, then decisions
// in the trace's order. Reading the result back gives the same cluster, pods and decisions.

#include "decision_log_format.h"
#include "json_out.h"
#include "trace.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace schedlab::trace {

std::string decisionLogPodName(const Trace& trace, uint32_t jobIndex, uint32_t k)
{
    const Job& j = trace.jobs[jobIndex];
    std::string name = j.nameLength ? std::string(trace.jobNameView(j)) : "job-" + std::to_string(j.id.value);
    if (j.taskCount > 1)
        name += "-" + std::to_string(k);
    return name;
}

namespace {

/// The names and times a decision log's records use, computed once.
struct LogNames {
    double epoch = 0;
    std::vector<std::string> nodeName; ///< by node
    std::vector<std::string> podName; ///< by task, as JSON strings

    std::string at(double t) const { return jsNumber(epoch + t); }
    std::string nodeOf(int32_t n) const
    {
        return js(n >= 0 && std::size_t(n) < nodeName.size() ? nodeName[std::size_t(n)] : "(unknown node)");
    }
};

void writeNodes(const Trace& trace, const LogNames& names, JsonFile& out)
{
    for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
        const Node& n = trace.nodes[i];
        std::string s = "{\"kind\":\"node\",\"name\":" + js(names.nodeName[i]) + ",\"cpu\":\"" + std::to_string(n.cpuMilli) + "m\",\"memory\":\""
            + std::to_string(n.memMiB) + "Mi\"";
        if (n.numGpu > 0)
            s += ",\"gpu\":" + std::to_string(n.numGpu);
        if (n.gpuModel >= 0 && std::size_t(n.gpuModel) < trace.gpuModels.size())
            s += ",\"gpuModel\":" + js(trace.gpuModels[std::size_t(n.gpuModel)]);
        out.put(s + "}\n");
    }
}

std::string podRecord(const Trace& trace, const Job& j, uint32_t k, const LogNames& names)
{
    const Task& t = trace.tasks[j.firstTask + k];
    std::string s = "{\"kind\":\"pod\",\"name\":" + names.podName[j.firstTask + k];
    if (j.submitTimeS >= 0)
        s += ",\"time\":" + names.at(j.submitTimeS);
    s += ",\"cpu\":\"" + std::to_string(t.request.cpuMilli) + "m\",\"memory\":\"" + std::to_string(t.request.memMiB) + "Mi\"";
    if (t.request.isGpuShare())
        s += ",\"gpu\":" + jsNumber(t.request.gpuMilli / 1000.0);
    else if (t.request.needsGpu())
        s += ",\"gpu\":" + std::to_string(t.request.numGpu);
    if (t.request.gpuModelMask) {
        s += ",\"gpuModels\":[";
        bool first = true;
        for (std::size_t m = 0; m < trace.gpuModels.size() && m < 32; ++m)
            if (t.request.gpuModelMask & (1u << m)) {
                s += (first ? "" : ",") + js(trace.gpuModels[m]);
                first = false;
            }
        s += "]";
    }
    if (j.priority != 0)
        s += ",\"priority\":" + std::to_string(j.priority);
    if (j.runTimeS >= 0)
        s += ",\"runtime\":" + jsNumber(j.runTimeS);
    if (t.logged.node.valid()) // where it ran, whether or not a decision below says so
        s += ",\"node\":" + names.nodeOf(t.logged.node.value);
    if (t.logged.startTimeS >= 0)
        s += ",\"start\":" + names.at(t.logged.startTimeS);
    if (t.logged.endTimeS >= 0)
        s += ",\"end\":" + names.at(t.logged.endTimeS);
    if (j.status == 1 || j.status == 0)
        s += std::string(",\"phase\":") + (j.status == 1 ? "\"Succeeded\"" : "\"Failed\"");
    return s + "}\n";
}

/// Without logged decisions: the logged placements, in start order.
void writePlacements(const Trace& trace, const LogNames& names, JsonFile& out)
{
    std::vector<uint32_t> placed;
    for (uint32_t i = 0; i < trace.tasks.size(); ++i)
        if (trace.tasks[i].logged.node.valid() && trace.tasks[i].logged.startTimeS >= 0)
            placed.push_back(i);
    std::stable_sort(placed.begin(), placed.end(),
        [&](uint32_t a, uint32_t b) { return trace.tasks[a].logged.startTimeS < trace.tasks[b].logged.startTimeS; });
    for (uint32_t i : placed) {
        const LoggedPlacement& p = trace.tasks[i].logged;
        out.put("{\"kind\":\"decision\",\"time\":" + names.at(p.startTimeS) + ",\"pod\":" + names.podName[i] + ",\"outcome\":\"placed\",\"node\":"
            + names.nodeOf(p.node.value) + "}\n");
    }
}

std::string termsObject(const LoggedDecisions& l, uint32_t first, uint32_t count)
{
    std::string s = "{";
    for (uint32_t k = 0; k < count; ++k) {
        const LoggedTerm& term = l.terms[first + k];
        s += (k ? "," : "") + js(term.name >= 0 ? l.names[std::size_t(term.name)] : "(unnamed)") + ":" + jsNumber(term.value);
    }
    return s + "}";
}

/// Reasons, reward and candidates of a decision record.
void appendDetails(const LoggedDecisions& l, const LoggedDecision& d, const LogNames& names, std::string& s)
{
    if (d.reasonCount) {
        s += ",\"reasons\":{";
        for (uint32_t k = 0; k < d.reasonCount; ++k) {
            const LoggedReason& r = l.reasons[d.firstReason + k];
            s += (k ? "," : "") + js(l.names[std::size_t(r.name)]) + ":" + (r.nodes >= 0 ? std::to_string(r.nodes) : "null");
        }
        s += "}";
    }
    if (d.rewardCount)
        s += ",\"reward\":" + termsObject(l, d.firstReward, d.rewardCount);
    if (d.candidateCount) {
        s += ",\"candidates\":[";
        for (uint32_t k = 0; k < d.candidateCount; ++k) {
            const LoggedCandidate& c = l.candidates[d.firstCandidate + k];
            s += std::string(k ? "," : "") + "{\"node\":" + names.nodeOf(c.node);
            if (c.hasScore)
                s += ",\"score\":" + jsNumber(c.score);
            if (c.termCount)
                s += ",\"terms\":" + termsObject(l, c.firstTerm, c.termCount);
            s += "}";
        }
        s += "]";
    }
}

std::string decisionRecord(const LoggedDecisions& l, const LoggedDecision& d, const LogNames& names, const std::string& scheduler)
{
    static constexpr const char* kOutcome[] = { "placed", "unschedulable", "waited" };
    std::string s = "{\"kind\":\"decision\",\"time\":" + names.at(d.timeS);
    if (d.lastTimeS >= 0)
        s += ",\"lastTime\":" + names.at(d.lastTimeS);
    s += ",\"pod\":" + (d.task < names.podName.size() ? names.podName[d.task] : js("(unknown pod)"));
    s += std::string(",\"outcome\":\"") + kOutcome[int(d.outcome)] + "\"";
    if (d.outcome == LoggedOutcome::Placed)
        s += ",\"node\":" + names.nodeOf(d.node);
    if (d.source >= 0 && l.names[std::size_t(d.source)] != scheduler)
        s += ",\"scheduler\":" + js(l.names[std::size_t(d.source)]);
    if (d.count > 1)
        s += ",\"count\":" + std::to_string(d.count);
    if (d.evaluatedNodes >= 0)
        s += ",\"evaluated\":" + std::to_string(d.evaluatedNodes);
    if (d.feasibleNodes >= 0)
        s += ",\"feasible\":" + std::to_string(d.feasibleNodes);
    appendDetails(l, d, names, s);
    return s + "}\n";
}

LogNames logNames(const Trace& trace, const DecisionLogOptions& options)
{
    LogNames names;
    names.epoch = options.epochUnixS;
    if (names.epoch < 0) {
        const auto it = trace.metadata.find("epoch.unixS");
        names.epoch = it == trace.metadata.end() ? 0.0 : std::strtod(it->second.c_str(), nullptr);
    }
    names.nodeName.resize(trace.nodes.size());
    for (std::size_t i = 0; i < trace.nodes.size(); ++i)
        names.nodeName[i] = trace.nodes[i].name.empty() ? "node-" + std::to_string(i) : trace.nodes[i].name;
    names.podName.resize(trace.tasks.size());
    for (uint32_t j = 0; j < trace.jobs.size(); ++j)
        for (uint32_t k = 0; k < trace.jobs[j].taskCount; ++k)
            names.podName[trace.jobs[j].firstTask + k] = js(decisionLogPodName(trace, j, k));
    return names;
}

} // namespace

Status writeDecisionLog(const Trace& trace, const std::string& path, const DecisionLogOptions& options)
{
    if (trace.cpuUnit != ResourceUnit::Absolute)
        return makeError(ErrorCode::Invalid,
            "this trace's resources are normalized (" + trace.sourceFormat + "): a decision log needs cores and bytes", path);
    const LogNames names = logNames(trace, options);
    const LoggedDecisions& l = trace.logged;
    std::string scheduler = options.scheduler;
    if (scheduler.empty() && !l.decisions.empty() && l.decisions.front().source >= 0)
        scheduler = l.names[std::size_t(l.decisions.front().source)];
    if (scheduler.empty())
        scheduler = trace.sourceFormat.empty() ? "as logged" : trace.sourceFormat + " log";

    JsonFile out(path);
    if (!out.ok())
        return out.close();
    out.put("{\"schema\":" + js(kDecisionLogSchema) + ",\"scheduler\":" + js(scheduler) + ",\"writer\":\"schedlab\"}\n");
    writeNodes(trace, names, out);
    for (const Job& j : trace.jobs)
        for (uint32_t k = 0; k < j.taskCount; ++k)
            out.put(podRecord(trace, j, k, names));
    if (l.decisions.empty())
        writePlacements(trace, names, out);
    else
        for (const LoggedDecision& d : l.decisions)
            out.put(decisionRecord(l, d, names, scheduler));
    return out.close();
}

} // namespace schedlab::trace
