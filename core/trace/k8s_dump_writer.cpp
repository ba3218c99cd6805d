#include "k8s_dump_writer.h"

#include "json_out.h"
#include "rfc3339.h"
#include "trace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace schedlab::trace {

namespace {

struct PodName {
    std::string ns, name;
};

PodName podName(const Trace& t, const Job& j, uint32_t k)
{
    std::string full = j.nameLength ? std::string(t.jobNameView(j)) : "pod-" + std::to_string(j.id.value);
    PodName p { "default", full };
    if (const auto slash = full.find('/'); slash != std::string::npos && slash > 0) {
        p.ns = full.substr(0, slash);
        p.name = full.substr(slash + 1);
    }
    if (j.taskCount > 1)
        p.name += "-" + std::to_string(k);
    for (char& c : p.name) // a DNS-1123 name
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.'))
            c = '-';
    return p;
}

/// Trace seconds as RFC 3339 JSON strings, from the dump's epoch.
struct Clock {
    double epochUnixS = 0;
    std::string at(double s) const { return js(formatRfc3339(epochUnixS + s)); }
};

const char* const kListEnd = "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n";

Status writeNodes(const Trace& t, const std::string& dir, const Clock& clock)
{
    JsonFile nodes(dir + "/nodes.json");
    if (!nodes.ok())
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), dir + "/nodes.json");
    nodes.put("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const Node& n = t.nodes[i];
        std::string labels = "\"kubernetes.io/hostname\": " + js(n.name) + ", \"kubernetes.io/os\": \"linux\", "
            + "\"node.kubernetes.io/instance-type\": \"schedlab-generated\"";
        if (n.numGpu > 0 && n.gpuModel >= 0)
            labels += ", \"nvidia.com/gpu.product\": " + js(t.gpuModels[std::size_t(n.gpuModel)]);
        std::string res = "\"cpu\": \"" + std::to_string(n.cpuMilli) + "m\", \"memory\": \"" + std::to_string(n.memMiB)
            + "Mi\", \"pods\": \"110\", \"ephemeral-storage\": \"95094775Ki\"";
        if (n.numGpu > 0)
            res += ", \"nvidia.com/gpu\": \"" + std::to_string(n.numGpu) + "\"";
        nodes.put(std::string(i ? ",\n" : "") + "        {\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": " + js(n.name)
            + ", \"uid\": \"node-uid-" + std::to_string(i) + "\", \"creationTimestamp\": " + clock.at(0) + ", \"labels\": {" + labels
            + "}}, \"spec\": {\"podCIDR\": \"10.244." + std::to_string(i % 256) + ".0/24\"}, \"status\": {\"capacity\": {" + res
            + "}, \"allocatable\": {" + res + "}, \"conditions\": [{\"type\": \"Ready\", \"status\": \"True\", \"reason\": "
            + "\"KubeletReady\", \"lastTransitionTime\": " + clock.at(0) + "}], \"nodeInfo\": {\"kubeletVersion\": \"v1.28.4\", "
            + "\"containerRuntimeVersion\": \"containerd://1.7.2\", \"architecture\": \"amd64\", \"operatingSystem\": \"linux\"}}}");
    }
    nodes.put(kListEnd);
    return nodes.close();
}

/// events.json, one event at a time.
class EventWriter {
public:
    EventWriter(JsonFile& file, const Clock& clock)
        : m_file(file)
        , m_clock(clock)
    {
    }
    void put(const PodName& p, const std::string& uid, const std::string& reason, const std::string& type, const std::string& message,
        double first, double last, int count)
    {
        m_file.put(std::string(m_first ? "" : ",\n") + "        {\"apiVersion\": \"v1\", \"kind\": \"Event\", \"metadata\": {\"name\": "
            + js(p.name + "." + std::to_string(m_eventId++)) + ", \"namespace\": " + js(p.ns) + ", \"creationTimestamp\": " + m_clock.at(first)
            + "}, \"involvedObject\": {\"kind\": \"Pod\", \"namespace\": " + js(p.ns) + ", \"name\": " + js(p.name) + ", \"uid\": "
            + js(uid) + ", \"apiVersion\": \"v1\"}, \"reason\": " + js(reason) + ", \"message\": " + js(message)
            + ", \"source\": {\"component\": \"default-scheduler\"}, \"firstTimestamp\": " + m_clock.at(first) + ", \"lastTimestamp\": "
            + m_clock.at(last) + ", \"count\": " + std::to_string(count) + ", \"type\": " + js(type) + ", \"reportingComponent\": "
            + "\"default-scheduler\"}");
        m_first = false;
    }

private:
    JsonFile& m_file;
    const Clock& m_clock;
    bool m_first = true;
    int64_t m_eventId = 0;
};

/// A pod's spec: one container requesting (and limited to) the task's request, GPU models as a
/// node selector or affinity, its node when bound.
std::string podSpec(const Trace& t, const Job& j, const Task& task, bool bound)
{
    const TaskRequest& r = task.request;
    std::string req = "\"cpu\": \"" + std::to_string(r.cpuMilli) + "m\", \"memory\": \"" + std::to_string(r.memMiB) + "Mi\"";
    if (r.needsGpu())
        req += ", \"nvidia.com/gpu\": \"" + std::to_string(r.numGpu) + "\"";
    std::string spec = "\"containers\": [{\"name\": \"main\", \"image\": \"registry.example.com/workload:1.4.2\", "
                       "\"imagePullPolicy\": \"IfNotPresent\", \"ports\": [{\"containerPort\": 8080, \"protocol\": \"TCP\"}], "
                       "\"env\": [{\"name\": \"LOG_LEVEL\", \"value\": \"info\"}, {\"name\": \"POD_NAME\", \"valueFrom\": "
                       "{\"fieldRef\": {\"apiVersion\": \"v1\", \"fieldPath\": \"metadata.name\"}}}], \"resources\": {\"requests\": {"
        + req + "}, \"limits\": {" + req + "}}, \"volumeMounts\": [{\"name\": \"kube-api-access\", \"readOnly\": true, "
        + "\"mountPath\": \"/var/run/secrets/kubernetes.io/serviceaccount\"}], \"terminationMessagePath\": \"/dev/termination-log\"}], "
        + "\"restartPolicy\": \"Always\", \"schedulerName\": \"default-scheduler\", \"priority\": " + std::to_string(j.priority)
        + ", \"serviceAccountName\": \"default\", \"tolerations\": [{\"key\": \"node.kubernetes.io/not-ready\", "
        + "\"operator\": \"Exists\", \"effect\": \"NoExecute\", \"tolerationSeconds\": 300}], \"volumes\": [{\"name\": "
        + "\"kube-api-access\", \"projected\": {\"defaultMode\": 420}}]";
    if (r.gpuModelMask != 0 && r.needsGpu()) {
        // One model: a node selector; several: a required node affinity "In" them.
        std::vector<std::string> models;
        for (int m = 0; m < int(t.gpuModels.size()); ++m)
            if (r.gpuModelMask & (1u << m))
                models.push_back(js(t.gpuModels[std::size_t(m)]));
        if (models.size() == 1)
            spec += ", \"nodeSelector\": {\"nvidia.com/gpu.product\": " + models[0] + "}";
        else if (!models.empty()) {
            std::string values;
            for (const std::string& v : models)
                values += (values.empty() ? "" : ", ") + v;
            spec += ", \"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": "
                    "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"nvidia.com/gpu.product\", "
                    "\"operator\": \"In\", \"values\": ["
                + values + "]}]}]}}}";
        }
    }
    if (bound)
        spec += ", \"nodeName\": " + js(t.nodes[std::size_t(task.logged.node.value)].name);
    return spec;
}

/// A pod's status: pending (unschedulable), running or succeeded, as its logged times say.
std::string podStatus(const Task& task, uint32_t ti, bool bound, double submit, const Clock& clock)
{
    const double start = task.logged.startTimeS, end = task.logged.endTimeS;
    std::string status;
    if (!bound) {
        status = "\"phase\": \"Pending\", \"conditions\": [{\"type\": \"PodScheduled\", \"status\": \"False\", "
                 "\"reason\": \"Unschedulable\", \"lastTransitionTime\": "
            + clock.at(submit) + "}]";
    } else {
        const bool done = end >= start;
        status = std::string("\"phase\": ") + (done ? "\"Succeeded\"" : "\"Running\"") + ", \"conditions\": [{\"type\": "
            + "\"Initialized\", \"status\": \"True\", \"lastTransitionTime\": " + clock.at(start) + "}, {\"type\": \"Ready\", "
            + "\"status\": \"" + (done ? "False" : "True") + "\", \"lastTransitionTime\": " + clock.at(done ? end : start)
            + "}, {\"type\": \"PodScheduled\", \"status\": \"True\", \"lastTransitionTime\": " + clock.at(start)
            + "}], \"hostIP\": \"10.0.0.1\", \"podIP\": \"10.244.0.2\", \"startTime\": " + clock.at(start)
            + ", \"containerStatuses\": [{\"name\": \"main\", \"state\": {"
            + (done ? "\"terminated\": {\"exitCode\": 0, \"reason\": \"Completed\", \"startedAt\": " + clock.at(start)
                        + ", \"finishedAt\": " + clock.at(end) + "}"
                    : "\"running\": {\"startedAt\": " + clock.at(start) + "}")
            + "}, \"ready\": " + (done ? "false" : "true") + ", \"restartCount\": 0, \"image\": "
            + "\"registry.example.com/workload:1.4.2\", \"imageID\": \"registry.example.com/workload@sha256:"
            + "4c9a1e8e2b0f0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f708192a3b\", \"containerID\": \"containerd://"
            + std::to_string(ti) + "\"}]";
    }
    status += ", \"qosClass\": \"Guaranteed\"";
    return status;
}

/// FailedScheduling events for the logged unschedulable decisions.
void writeFailedScheduling(const Trace& t, const std::vector<PodName>& names, const std::vector<std::string>& uids, EventWriter& events)
{
    for (const LoggedDecision& d : t.logged.decisions) {
        if (d.outcome != LoggedOutcome::Unschedulable)
            continue;
        std::string message = "0/" + std::to_string(d.evaluatedNodes >= 0 ? d.evaluatedNodes : int32_t(t.nodes.size()))
            + " nodes are available: ";
        for (uint32_t i = 0; i < d.reasonCount; ++i) {
            const LoggedReason& r = t.logged.reasons[d.firstReason + i];
            message += (i ? ", " : "") + (r.nodes >= 0 ? std::to_string(r.nodes) + " " : std::string())
                + t.logged.names[std::size_t(r.name)];
        }
        events.put(names[d.task], uids[d.task], "FailedScheduling", "Warning", message + ".", d.timeS,
            d.lastTimeS >= 0 ? d.lastTimeS : d.timeS, d.count);
    }
}

} // namespace

std::string kubectlPodName(const Trace& trace, const Job& job, uint32_t k)
{
    const PodName p = podName(trace, job, k);
    return p.ns + "/" + p.name;
}

Status writeKubectlDump(const Trace& t, const std::string& dir, const KubectlDumpOptions& o)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return makeError(ErrorCode::Io, "cannot create the folder: " + ec.message(), dir);
    const Clock clock { o.epochUnixS };
    if (Status s = writeNodes(t, dir, clock); !s)
        return s;

    JsonFile pods(dir + "/pods.json");
    JsonFile eventFile(dir + "/events.json");
    if (!pods.ok() || !eventFile.ok())
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), dir);
    pods.put("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
    eventFile.put("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
    EventWriter events(eventFile, clock);
    bool firstPod = true;
    std::vector<PodName> names(t.tasks.size());
    std::vector<std::string> uids(t.tasks.size());
    for (const Job& j : t.jobs)
        for (uint32_t k = 0; k < j.taskCount; ++k) {
            const uint32_t ti = j.firstTask + k;
            const Task& task = t.tasks[ti];
            const PodName p = podName(t, j, k);
            names[ti] = p;
            uids[ti] = "pod-uid-" + std::to_string(ti);
            const double submit = std::max(0.0, j.submitTimeS) + task.submitOffsetS;
            const bool bound = task.logged.node.valid() && task.logged.startTimeS >= 0;
            pods.put(std::string(firstPod ? "" : ",\n") + "        {\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": "
                + js(p.name) + ", \"namespace\": " + js(p.ns) + ", \"uid\": " + js(uids[ti]) + ", \"resourceVersion\": \""
                + std::to_string(1000 + ti) + "\", \"creationTimestamp\": " + clock.at(submit) + ", \"labels\": {\"app\": \"workload\", "
                + "\"pod-template-hash\": \"7d4b9c8f6\"}, \"ownerReferences\": [{\"apiVersion\": \"apps/v1\", \"kind\": "
                + "\"ReplicaSet\", \"name\": \"workload-7d4b9c8f6\", \"uid\": \"rs-uid\", \"controller\": true, "
                + "\"blockOwnerDeletion\": true}]}, \"spec\": {" + podSpec(t, j, task, bound) + "}, \"status\": {"
                + podStatus(task, ti, bound, submit, clock) + "}}");
            firstPod = false;
            if (o.events && bound)
                events.put(p, uids[ti], "Scheduled", "Normal",
                    "Successfully assigned " + p.ns + "/" + p.name + " to " + t.nodes[std::size_t(task.logged.node.value)].name,
                    task.logged.startTimeS, task.logged.startTimeS, 1);
        }
    if (o.events)
        writeFailedScheduling(t, names, uids, events);
    pods.put(kListEnd);
    eventFile.put(kListEnd);
    if (Status s = pods.close(); !s)
        return s;
    return eventFile.close();
}

} // namespace schedlab::trace
