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

// Kubernetes' pod requests (k8s.io/component-helpers resource.PodRequests): containers summed;
// each init container needs its own request plus the restartable (sidecar) init containers before
// it, and the pod the max of that and the sum; sidecars also add to the sum; then the overhead.
// Limits stand in for missing requests (the API server's defaulting). Exact, in nano-units.
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
    p.phase = it.phase;
    p.priority = int32_t(std::clamp<int64_t>(it.priority, INT32_MIN, INT32_MAX));

    using Sum = std::vector<std::pair<std::string, Int>>; // few resources: a flat list
    auto at_ = [](Sum& s, const std::string& k) -> Int& {
        for (auto& [name, v] : s)
            if (name == k)
                return v;
        s.emplace_back(k, 0);
        return s.back().second;
    };
    auto add = [&](Sum& a, const Sum& b) {
        for (const auto& [k, v] : b)
            at_(a, k) += v;
    };
    auto maxInto = [&](Sum& a, const Sum& b) {
        for (const auto& [k, v] : b) {
            Int& x = at_(a, k);
            x = std::max(x, v);
        }
    };
    Sum qosRequests, qosLimits;
    bool allLimited = true;
    std::string badPointer, badMessage;
    auto effective = [&](const Container& c, const std::string& cAt, Sum& out) {
        for (const ResourceList* l : { &c.requests, &c.limits })
            if (!l->badPointer.empty() && badPointer.empty()) {
                badPointer = l->badPointer;
                badMessage = l->badMessage;
            }
        bool cpuLimit = false, memLimit = false;
        auto request = [&](const std::string& k, const Quantity& q) {
            const auto n = nanoUnits(q);
            if (!n) {
                if (badPointer.empty()) {
                    badPointer = cAt + "/resources/requests/" + pointerKey(k);
                    badMessage = "quantity out of range";
                }
                return;
            }
            at_(out, k) += *n;
            if ((k == "cpu" || k == "memory") && *n != 0)
                at_(qosRequests, k) += *n;
        };
        for (const auto& [k, q] : c.requests.values)
            request(k, q);
        for (const auto& [k, q] : c.limits.values) {
            if (!c.requests.find(k))
                request(k, q);
            if ((k == "cpu" || k == "memory") && !q.isZero()) {
                if (const auto n = nanoUnits(q))
                    at_(qosLimits, k) += *n;
                (k == "cpu" ? cpuLimit : memLimit) = true;
            }
        }
        allLimited = allLimited && cpuLimit && memLimit;
    };
    Sum total, initMax, sidecars;
    for (std::size_t i = 0; i < it.containers.size(); ++i) {
        Sum one;
        effective(it.containers[i], at + "/spec/containers/" + std::to_string(i), one);
        add(total, one);
    }
    for (std::size_t i = 0; i < it.initContainers.size(); ++i) {
        Sum one;
        effective(it.initContainers[i], at + "/spec/initContainers/" + std::to_string(i), one);
        if (it.initContainers[i].sidecar) {
            add(total, one);
            add(sidecars, one);
            maxInto(initMax, sidecars);
        } else {
            add(one, sidecars);
            maxInto(initMax, one);
        }
    }
    maxInto(total, initMax);
    if (!it.overhead.badPointer.empty() && badPointer.empty()) {
        badPointer = it.overhead.badPointer;
        badMessage = it.overhead.badMessage;
    }
    for (const auto& [k, q] : it.overhead.values)
        if (const auto n = nanoUnits(q))
            at_(total, k) += *n;
    if (!badPointer.empty()) { // a pod whose request is unknown is not guessed
        warn("bad-quantity", badPointer, badMessage);
        return;
    }
    bool ok = true;
    auto scaled = [&](Int nanos, int unitExp10, int unitExp2, const std::string& k) -> int64_t {
        const auto v = scaledQuantity(Quantity { nanos, -9, 0 }, unitExp10, unitExp2, Round::Up);
        if (!v) {
            warn("bad-quantity", at + "/spec", "the " + k + " request is out of range");
            ok = false;
        }
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
    if (!ok)
        return;
    // QoS: status.qosClass, else as Kubernetes derives it (cpu and memory only).
    p.qos = it.qosClass;
    if (p.qos.empty()) {
        p.qosDerived = true;
        auto sorted = [](Sum s) {
            std::sort(s.begin(), s.end());
            return s;
        };
        if (qosRequests.empty() && qosLimits.empty())
            p.qos = "BestEffort";
        else if (allLimited && qosLimits.size() == 2 && sorted(qosRequests) == sorted(qosLimits))
            p.qos = "Guaranteed";
        else
            p.qos = "Burstable";
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
