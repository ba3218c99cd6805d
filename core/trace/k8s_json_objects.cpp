// Nodes, pods and events from what the walk over a Kubernetes object read (k8s_json_reader.h):
// allocatable and GPU models, pod requests as kube-scheduler computes them, QoS as the kubelet
// derives it, scheduling events.

#include "k8s_json_reader.h"

#include "fields.h"
#include "rfc3339.h"

#include <algorithm>

namespace schedlab::trace::k8sjson {

void Reader::node(const Item& it, const std::string& at)
{
    K8sNode n;
    n.name = it.name;
    n.file = m_file;
    n.pointer = at.empty() ? "/" : at;
    if (n.name.empty()) {
        warn("missing-field", at + "/metadata/name", "node without a name; ignored");
        return;
    }
    n.createdS = timeOf(it.created);
    n.unschedulable = it.unschedulable;
    const ResourceList& list = it.allocatable.present ? it.allocatable : it.capacity;
    if (!list.present) {
        warn("missing-field", at + "/status/allocatable", "node " + trace::quoted(n.name) + " has neither allocatable nor capacity; ignored");
        return;
    }
    if (!list.badPointer.empty()) {
        warn("bad-quantity", list.badPointer, list.badMessage + "; node ignored");
        return;
    }
    for (const auto& [name, q] : list.values) {
        std::optional<int64_t> v;
        if (name == "cpu")
            v = scaledQuantity(q, -3, 0, Round::Down);
        else if (name == "memory")
            v = mebibytes(q, Round::Down);
        else
            v = scaledQuantity(q, 0, 0, Round::Down);
        if (!v) {
            warn("bad-quantity", at + "/status/allocatable/" + pointerKey(name), "quantity out of range; node ignored");
            return;
        }
        if (name == "cpu")
            n.cpuMilli = *v;
        else if (name == "memory")
            n.memMiB = *v;
        else if (std::find(std::begin(kGpuResources), std::end(kGpuResources), name) != std::end(kGpuResources))
            n.gpus += int32_t(std::min<int64_t>(*v, 4096));
        else if (name != "pods")
            n.extended.emplace_back(name, *v);
    }
    n.gpuModel = it.gpuModelLabel;
    m_out.nodes.push_back(std::move(n));
}

namespace {

using Sum = std::vector<std::pair<std::string, Int>>; // few resources: a flat list

Int& entry(Sum& s, const std::string& k)
{
    for (auto& [name, v] : s)
        if (name == k)
            return v;
    s.emplace_back(k, 0);
    return s.back().second;
}

void add(Sum& a, const Sum& b)
{
    for (const auto& [k, v] : b)
        entry(a, k) += v;
}

void maxInto(Sum& a, const Sum& b)
{
    for (const auto& [k, v] : b) {
        Int& x = entry(a, k);
        x = std::max(x, v);
    }
}

/// A pod's requests in nano-units, summed as kube-scheduler does, with what QoS needs (cpu and
/// memory requests and limits) and the first bad quantity.
struct PodRequests {
    Sum total, qosRequests, qosLimits;
    bool allLimited = true;
    std::string badPointer, badMessage;

    void noteBad(const ResourceList& l)
    {
        if (!l.badPointer.empty() && badPointer.empty()) {
            badPointer = l.badPointer;
            badMessage = l.badMessage;
        }
    }
    void request(const std::string& k, const Quantity& q, const std::string& cAt, Sum& out)
    {
        const auto n = nanoUnits(q);
        if (!n) {
            if (badPointer.empty()) {
                badPointer = cAt + "/resources/requests/" + pointerKey(k);
                badMessage = "quantity out of range";
            }
            return;
        }
        entry(out, k) += *n;
        if ((k == "cpu" || k == "memory") && *n != 0)
            entry(qosRequests, k) += *n;
    }
    /// A container's effective requests into `out`: its requests, limits standing in for missing ones.
    void effective(const Container& c, const std::string& cAt, Sum& out)
    {
        noteBad(c.requests);
        noteBad(c.limits);
        bool cpuLimit = false, memLimit = false;
        for (const auto& [k, q] : c.requests.values)
            request(k, q, cAt, out);
        for (const auto& [k, q] : c.limits.values) {
            if (!c.requests.find(k))
                request(k, q, cAt, out);
            if ((k == "cpu" || k == "memory") && !q.isZero()) {
                if (const auto n = nanoUnits(q))
                    entry(qosLimits, k) += *n;
                (k == "cpu" ? cpuLimit : memLimit) = true;
            }
        }
        allLimited = allLimited && cpuLimit && memLimit;
    }
};

// Kubernetes' pod requests (k8s.io/component-helpers resource.PodRequests): containers summed;
// each init container needs its own request plus the restartable (sidecar) init containers before
// it, and the pod the max of that and the sum; sidecars also add to the sum; then the overhead.
// Limits stand in for missing requests (the API server's defaulting). Exact, in nano-units.
PodRequests podRequests(const Item& it, const std::string& at)
{
    PodRequests r;
    Sum initMax, sidecars;
    for (std::size_t i = 0; i < it.containers.size(); ++i) {
        Sum one;
        r.effective(it.containers[i], at + "/spec/containers/" + std::to_string(i), one);
        add(r.total, one);
    }
    for (std::size_t i = 0; i < it.initContainers.size(); ++i) {
        Sum one;
        r.effective(it.initContainers[i], at + "/spec/initContainers/" + std::to_string(i), one);
        if (it.initContainers[i].sidecar) {
            add(r.total, one);
            add(sidecars, one);
            maxInto(initMax, sidecars);
        } else {
            add(one, sidecars);
            maxInto(initMax, one);
        }
    }
    maxInto(r.total, initMax);
    r.noteBad(it.overhead);
    for (const auto& [k, q] : it.overhead.values)
        if (const auto n = nanoUnits(q))
            entry(r.total, k) += *n;
    return r;
}

/// The summed requests into the pod's units (rounded up); resources out of range go to `outOfRange`.
void setRequest(const Sum& total, K8sPod& p, std::vector<std::string>& outOfRange)
{
    auto scaled = [&](Int nanos, int unitExp10, int unitExp2, const std::string& k) -> int64_t {
        const auto v = scaledQuantity(Quantity { nanos, -9, 0 }, unitExp10, unitExp2, Round::Up);
        if (!v)
            outOfRange.push_back(k);
        return v.value_or(0);
    };
    for (const auto& [k, v] : total) {
        if (k == "cpu")
            p.request.cpuMilli = scaled(v, -3, 0, k);
        else if (k == "memory")
            p.request.memMiB = scaled(v, 0, 20, k);
        else if (v == 0)
            continue;
        else if (std::find(std::begin(kGpuResources), std::end(kGpuResources), k) != std::end(kGpuResources)) {
            p.request.numGpu = int32_t(std::min<int64_t>(scaled(v, 0, 0, k), 4096));
            p.request.gpuMilli = 1000;
        } else {
            p.extended.emplace_back(k, scaled(v, 0, 0, k));
        }
    }
}

/// QoS as Kubernetes derives it (cpu and memory only).
const char* derivedQos(const PodRequests& r)
{
    auto sorted = [](Sum s) {
        std::sort(s.begin(), s.end());
        return s;
    };
    if (r.qosRequests.empty() && r.qosLimits.empty())
        return "BestEffort";
    if (r.allLimited && r.qosLimits.size() == 2 && sorted(r.qosRequests) == sorted(r.qosLimits))
        return "Guaranteed";
    return "Burstable";
}

} // namespace

void Reader::pod(const Item& it, const std::string& at)
{
    K8sPod p;
    p.name = it.name;
    p.ns = it.ns;
    p.uid = it.uid;
    p.file = m_file;
    p.pointer = at.empty() ? "/" : at;
    if (p.name.empty()) {
        warn("missing-field", at + "/metadata/name", "pod without a name; ignored");
        return;
    }
    p.createdS = timeOf(it.created);
    p.deletedS = timeOf(it.deleted);
    p.nodeName = it.nodeName;
    p.schedulerName = it.schedulerName;
    p.mirror = it.mirror;
    p.phase = it.phase;
    p.priority = int32_t(std::clamp<int64_t>(it.priority, INT32_MIN, INT32_MAX));

    const PodRequests requests = podRequests(it, at);
    if (!requests.badPointer.empty()) { // a pod whose request is unknown is not guessed
        warn("bad-quantity", requests.badPointer, requests.badMessage);
        return;
    }
    std::vector<std::string> outOfRange;
    setRequest(requests.total, p, outOfRange);
    for (const std::string& k : outOfRange)
        warn("bad-quantity", at + "/spec", "the " + k + " request is out of range");
    if (!outOfRange.empty())
        return;
    // QoS: status.qosClass, else as Kubernetes derives it.
    p.qos = it.qosClass;
    if (p.qos.empty()) {
        p.qosDerived = true;
        p.qos = derivedQos(requests);
    }
    if (!it.selectorModel.empty())
        p.gpuModels = { it.selectorModel };
    else
        p.gpuModels = it.affinityModels;
    // Times: scheduled = the PodScheduled condition turning True; end = the last container's
    // termination once the pod is done, else its deletion.
    p.scheduledS = timeOf(it.scheduled);
    p.startedS = timeOf(it.startTime);
    if (p.phase == "Succeeded" || p.phase == "Failed")
        p.endS = it.finishedS;
    if (p.endS < 0 && p.deletedS >= 0)
        p.endS = p.deletedS;
    m_out.pods.push_back(std::move(p));
}

void Reader::event(const Item& it, const std::string& at)
{
    if (it.reason != "Scheduled" && it.reason != "FailedScheduling") {
        ++m_out.otherEvents[it.reason.empty() ? "(none)" : it.reason];
        return;
    }
    const bool newApi = !it.involved && it.regarding;
    K8sEvent ev;
    ev.reason = it.reason;
    ev.kind = it.aboutKind;
    ev.ns = it.aboutNs;
    ev.name = it.aboutName;
    ev.uid = it.aboutUid;
    ev.message = newApi || it.message.empty() ? it.note : it.message;
    ev.source = !it.sourceComponent.empty() ? it.sourceComponent : !it.reportingController.empty() ? it.reportingController : it.reportingComponent;
    ev.file = m_file;
    ev.pointer = at.empty() ? "/" : at;
    // core/v1 has first/lastTimestamp and count; events.k8s.io/v1 has eventTime, series and the
    // deprecated* copies; either may be empty in the other API's objects.
    double first = -1;
    for (const std::string* s : { &it.firstTimestamp, &it.deprecatedFirst, &it.eventTime, &it.created })
        if (first < 0)
            first = timeOf(*s);
    double last = -1;
    for (const std::string* s : { &it.lastTimestamp, &it.deprecatedLast, &it.seriesLast })
        if (last < 0)
            last = timeOf(*s);
    const int64_t count = it.count > 0 ? it.count : it.deprecatedCount > 0 ? it.deprecatedCount : it.seriesCount;
    if (first < 0) {
        warn("missing-field", at + (newApi ? "/eventTime" : "/firstTimestamp"), ev.reason + " event without a time; ignored");
        return;
    }
    ev.firstS = first;
    ev.lastS = std::max(last, first);
    ev.count = int32_t(std::clamp<int64_t>(count, 1, INT32_MAX));
    m_out.events.push_back(std::move(ev));
}

} // namespace schedlab::trace::k8sjson
