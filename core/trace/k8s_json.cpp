// Kubernetes JSON (kubectl output, Sonobuoy dumps) into K8sObjects, with simdjson's DOM parser
// (gigabytes per second; the document is held whole, about 2x its size). Every field is read by
// name, so objects from any Kubernetes version parse; what a field lacks is -1 / empty.

#include "k8s_objects.h"

#include "fields.h"
#include "k8s_quantity.h"
#include "rfc3339.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>

namespace schedlab::trace {

static_assert(simdjson::SIMDJSON_PADDING <= kJsonPadding, "simdjson reads further than the buffers are padded");

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

constexpr int kMaxListDepth = 8;

/// A JSON pointer segment for `key` (RFC 6901: '~' -> ~0, '/' -> ~1).
std::string pointerKey(std::string_view key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::optional<element> field(const element& e, std::string_view key)
{
    object o;
    element v;
    if (e.get_object().get(o) || o.at_key(key).get(v) || v.is_null())
        return std::nullopt;
    return v;
}

/// Follows keys; nullopt when any is missing or null.
std::optional<element> path(const element& e, std::initializer_list<std::string_view> keys)
{
    std::optional<element> cur = e;
    for (std::string_view k : keys) {
        cur = field(*cur, k);
        if (!cur)
            return std::nullopt;
    }
    return cur;
}

std::string_view text(const std::optional<element>& e)
{
    std::string_view s;
    if (!e || e->get_string().get(s))
        return {};
    return s;
}

std::string_view text(const element& e, std::initializer_list<std::string_view> keys) { return text(path(e, keys)); }

std::optional<double> time(const element& e, std::initializer_list<std::string_view> keys)
{
    const std::string_view s = text(e, keys);
    return s.empty() ? std::nullopt : parseRfc3339(s);
}

/// A quantity as text: a JSON string, or a number written by hand.
std::optional<std::string> quantityText(const element& v)
{
    std::string_view s;
    if (!v.get_string().get(s))
        return std::string(s);
    int64_t i = 0;
    if (!v.get_int64().get(i))
        return std::to_string(i);
    double d = 0;
    if (!v.get_double().get(d))
        return formatDouble(d);
    return std::nullopt;
}

/// A non-negative quantity in nano-units (x 10^9), rounded up as Kubernetes rounds anything finer
/// than 1n; nullopt when absurdly large (> 2^100).
std::optional<Quantity::Int> nanoUnits(const Quantity& q)
{
    using Int = Quantity::Int;
    const Int limit = Int(1) << 100;
    Int v = q.mantissa;
    int e10 = q.exp10 + 9;
    for (int i = 0; i < q.exp2; ++i) {
        if (v > limit)
            return std::nullopt;
        v *= 2;
    }
    for (; e10 > 0; --e10) {
        if (v > limit)
            return std::nullopt;
        v *= 10;
    }
    if (e10 < 0) {
        Int d = 1;
        for (; e10 < 0; ++e10) {
            if (d > limit)
                return Int(v != 0);
            d *= 10;
        }
        v = (v + d - 1) / d;
    }
    return v;
}

class Reader {
public:
    Reader(const std::string& file, K8sObjects& out, Diagnostics& diagnostics)
        : m_file(file)
        , m_out(out)
        , m_diag(diagnostics)
    {
    }

    /// An item of a document at JSON pointer `at`; false when it is not a Kubernetes object.
    bool item(const element& e, const std::string& at, int depth);

private:
    struct Resources {
        std::map<std::string, Quantity> values;
    };

    void warn(const std::string& category, const std::string& pointer, const std::string& message)
    {
        m_diag.warn(category, m_file, -1, pointer, message);
    }
    /// A resource list (requests, limits, allocatable) at `at`; false (warned) on a bad quantity.
    bool resources(const std::optional<element>& list, const std::string& at, Resources& out);
    void node(const element& e, const std::string& at);
    void pod(const element& e, const std::string& at);
    void event(const element& e, const std::string& at, bool newApi);

    const std::string& m_file;
    K8sObjects& m_out;
    Diagnostics& m_diag;
};

bool Reader::resources(const std::optional<element>& list, const std::string& at, Resources& out)
{
    object o;
    if (!list || list->get_object().get(o))
        return true;
    for (auto [key, value] : o) {
        const std::string name(key);
        const auto t = quantityText(value);
        const auto q = t ? parseQuantity(*t) : std::nullopt;
        if (!q || q->isNegative()) {
            warn("bad-quantity", at + "/" + pointerKey(key),
                (t ? trace::quoted(*t) : std::string("a ") + (value.is_array() ? "list" : "non-text value"))
                    + (q ? " is negative" : " is not a Kubernetes quantity"));
            return false;
        }
        out.values[name] = *q;
    }
    return true;
}

bool Reader::item(const element& e, const std::string& at, int depth)
{
    if (!e.is_object())
        return false;
    std::string_view kind = text(e, { "kind" });
    if (field(e, "items")) {
        array items;
        if (field(e, "items")->get_array().get(items)) {
            warn("bad-list", at + "/items", "items is not a list");
            return true;
        }
        if (depth >= kMaxListDepth) {
            warn("bad-list", at, "Lists nested deeper than " + std::to_string(kMaxListDepth) + "; ignored");
            return true;
        }
        std::size_t i = 0;
        for (element child : items) {
            const std::string childAt = at + "/items/" + std::to_string(i++);
            if (!item(child, childAt, depth + 1))
                ++m_out.ignoredKinds["(not an object)"];
        }
        return true;
    }
    const bool isEventShape = field(e, "involvedObject") || field(e, "regarding");
    if (kind == "Event" || (kind.empty() && isEventShape)) {
        event(e, at, !field(e, "involvedObject") && field(e, "regarding"));
        return true;
    }
    if (kind == "Pod" || (kind.empty() && path(e, { "spec", "containers" }))) {
        pod(e, at);
        return true;
    }
    if (kind == "Node"
        || (kind.empty() && (path(e, { "status", "nodeInfo" }) || path(e, { "status", "allocatable" }) || path(e, { "status", "capacity" })))) {
        node(e, at);
        return true;
    }
    if (!field(e, "metadata"))
        return false;
    ++m_out.ignoredKinds[kind.empty() ? "(unknown)" : std::string(kind)];
    return true;
}

void Reader::node(const element& e, const std::string& at)
{
    K8sNode n;
    n.name = std::string(text(e, { "metadata", "name" }));
    n.file = m_file;
    n.pointer = at.empty() ? "/" : at;
    if (n.name.empty()) {
        warn("missing-field", at + "/metadata/name", "node without a name; ignored");
        return;
    }
    n.createdS = time(e, { "metadata", "creationTimestamp" }).value_or(-1);
    bool unschedulable = false;
    if (auto u = path(e, { "spec", "unschedulable" }))
        if (u->get_bool().get(unschedulable))
            unschedulable = false;
    n.unschedulable = unschedulable;
    auto list = path(e, { "status", "allocatable" });
    std::string listAt = at + "/status/allocatable";
    if (!list) {
        list = path(e, { "status", "capacity" });
        listAt = at + "/status/capacity";
    }
    Resources r;
    if (!list) {
        warn("missing-field", at + "/status/allocatable", "node " + trace::quoted(n.name) + " has neither allocatable nor capacity; ignored");
        return;
    }
    if (!resources(list, listAt, r))
        return;
    for (const auto& [name, q] : r.values) {
        std::optional<int64_t> v;
        if (name == "cpu")
            v = scaledQuantity(q, -3, 0, Round::Down);
        else if (name == "memory")
            v = mebibytes(q, Round::Down);
        else
            v = scaledQuantity(q, 0, 0, Round::Down);
        if (!v) {
            warn("bad-quantity", listAt + "/" + pointerKey(name), "quantity out of range; node ignored");
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
    object labels;
    if (auto l = path(e, { "metadata", "labels" }); l && !l->get_object().get(labels))
        for (const char* key : kGpuModelLabels) {
            std::string_view model;
            element v;
            if (!labels.at_key(key).get(v) && !v.get_string().get(model) && !model.empty()) {
                n.gpuModel = std::string(model);
                break;
            }
        }
    m_out.nodes.push_back(std::move(n));
}

// Kubernetes' pod requests (k8s.io/component-helpers resource.PodRequests): containers summed;
// each init container needs its own request plus the restartable (sidecar) init containers before
// it, and the pod the max of that and the sum; sidecars also add to the sum; then the overhead.
void Reader::pod(const element& e, const std::string& at)
{
    K8sPod p;
    p.name = std::string(text(e, { "metadata", "name" }));
    p.ns = std::string(text(e, { "metadata", "namespace" }));
    p.uid = std::string(text(e, { "metadata", "uid" }));
    p.file = m_file;
    p.pointer = at.empty() ? "/" : at;
    if (p.name.empty()) {
        warn("missing-field", at + "/metadata/name", "pod without a name; ignored");
        return;
    }
    p.createdS = time(e, { "metadata", "creationTimestamp" }).value_or(-1);
    p.deletedS = time(e, { "metadata", "deletionTimestamp" }).value_or(-1);
    p.nodeName = std::string(text(e, { "spec", "nodeName" }));
    p.schedulerName = std::string(text(e, { "spec", "schedulerName" }));
    p.phase = std::string(text(e, { "status", "phase" }));
    if (auto pr = path(e, { "spec", "priority" })) {
        int64_t v = 0;
        if (!pr->get_int64().get(v))
            p.priority = int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
    }

    // Requests are summed exactly in nano-units (10^-9 of a core, of a byte, of a GPU).
    using Sum = std::map<std::string, Quantity::Int>;
    auto add = [](Sum& a, const Sum& b) {
        for (const auto& [k, v] : b)
            a[k] += v;
    };
    auto maxInto = [](Sum& a, const Sum& b) {
        for (const auto& [k, v] : b)
            a[k] = std::max(a[k], v);
    };
    bool ok = true;
    // One container's effective requests (limits stand in for missing requests, as the API
    // server defaults them) and, for QoS, its cpu/memory limits.
    struct QosState {
        Sum requests, limits;
        bool allLimited = true;
    } qos;
    auto container = [&](const element& c, const std::string& cAt, Sum& out) {
        Resources req, lim;
        if (!resources(path(c, { "resources", "requests" }), cAt + "/resources/requests", req)
            || !resources(path(c, { "resources", "limits" }), cAt + "/resources/limits", lim)) {
            ok = false;
            return;
        }
        for (const auto& [k, q] : lim.values)
            if (!req.values.count(k))
                req.values[k] = q;
        bool cpuLimit = false, memLimit = false;
        for (const auto& [k, q] : req.values) {
            const auto n = nanoUnits(q);
            if (!n) {
                warn("bad-quantity", cAt + "/resources/requests/" + pointerKey(k), "quantity out of range; pod ignored");
                ok = false;
                return;
            }
            out[k] += *n;
            if ((k == "cpu" || k == "memory") && *n != 0)
                qos.requests[k] += *n;
        }
        for (const auto& [k, q] : lim.values)
            if ((k == "cpu" || k == "memory") && !q.isZero()) {
                if (const auto n = nanoUnits(q))
                    qos.limits[k] += *n;
                (k == "cpu" ? cpuLimit : memLimit) = true;
            }
        qos.allLimited = qos.allLimited && cpuLimit && memLimit;
    };
    Sum total, initMax, sidecars;
    array list;
    if (auto cs = path(e, { "spec", "containers" }); cs && !cs->get_array().get(list)) {
        std::size_t i = 0;
        for (element c : list) {
            Sum one;
            container(c, at + "/spec/containers/" + std::to_string(i++), one);
            add(total, one);
        }
    }
    if (auto cs = path(e, { "spec", "initContainers" }); cs && !cs->get_array().get(list)) {
        std::size_t i = 0;
        for (element c : list) {
            Sum one;
            container(c, at + "/spec/initContainers/" + std::to_string(i++), one);
            if (text(c, { "restartPolicy" }) == "Always") {
                add(total, one);
                add(sidecars, one);
                maxInto(initMax, sidecars);
            } else {
                add(one, sidecars);
                maxInto(initMax, one);
            }
        }
    }
    maxInto(total, initMax);
    Resources overhead;
    if (!resources(path(e, { "spec", "overhead" }), at + "/spec/overhead", overhead))
        ok = false;
    for (const auto& [k, q] : overhead.values)
        if (const auto n = nanoUnits(q))
            total[k] += *n;
    if (!ok)
        return; // warned: a pod whose request is unknown is not guessed
    auto scaled = [&](const std::string& k, int unitExp10, int unitExp2) -> int64_t {
        const auto it = total.find(k);
        if (it == total.end())
            return 0;
        const auto v = scaledQuantity(Quantity { it->second, -9, 0 }, unitExp10, unitExp2, Round::Up);
        if (!v) {
            warn("bad-quantity", at + "/spec", "the " + k + " request is out of range");
            ok = false;
            return 0;
        }
        return *v;
    };
    p.request.cpuMilli = scaled("cpu", -3, 0);
    p.request.memMiB = scaled("memory", 0, 20);
    for (const auto& [k, v] : total) {
        if (k == "cpu" || k == "memory" || v == 0)
            continue;
        const int64_t units = scaled(k, 0, 0);
        if (std::find(std::begin(kGpuResources), std::end(kGpuResources), k) != std::end(kGpuResources)) {
            p.request.numGpu = int32_t(std::min<int64_t>(units, 4096));
            p.request.gpuMilli = 1000;
        } else {
            p.extended.emplace_back(k, units);
        }
    }
    if (!ok)
        return;
    // QoS: status.qosClass, else as Kubernetes derives it (cpu and memory only).
    p.qos = std::string(text(e, { "status", "qosClass" }));
    if (p.qos.empty()) {
        p.qosDerived = true;
        if (qos.requests.empty() && qos.limits.empty())
            p.qos = "BestEffort";
        else if (qos.allLimited && qos.requests == qos.limits && qos.limits.size() == 2)
            p.qos = "Guaranteed";
        else
            p.qos = "Burstable";
    }
    // A GPU model required by a node selector (or a required node affinity "In" one value).
    object sel;
    if (auto s = path(e, { "spec", "nodeSelector" }); s && !s->get_object().get(sel))
        for (const char* key : kGpuModelLabels) {
            std::string_view model;
            element v;
            if (!sel.at_key(key).get(v) && !v.get_string().get(model) && !model.empty()) {
                p.gpuModel = std::string(model);
                break;
            }
        }
    if (p.gpuModel.empty())
        if (auto terms = path(e, { "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms" })) {
            array ts, exprs, values;
            if (!terms->get_array().get(ts) && ts.size() == 1)
                if (auto ex = field(ts.at(0).value_unsafe(), "matchExpressions"); ex && !ex->get_array().get(exprs))
                    for (element x : exprs) {
                        const std::string_view key = text(x, { "key" });
                        if (text(x, { "operator" }) != "In"
                            || std::find(std::begin(kGpuModelLabels), std::end(kGpuModelLabels), key) == std::end(kGpuModelLabels))
                            continue;
                        if (auto vs = field(x, "values"); vs && !vs->get_array().get(values) && values.size() == 1)
                            p.gpuModel = std::string(text(values.at(0).value_unsafe(), {}));
                    }
        }
    // Times: scheduled = the PodScheduled condition turning True; end = the last container's
    // termination once the pod is done, else its deletion.
    if (auto cs = path(e, { "status", "conditions" }); cs && !cs->get_array().get(list))
        for (element c : list)
            if (text(c, { "type" }) == "PodScheduled" && text(c, { "status" }) == "True")
                p.scheduledS = time(c, { "lastTransitionTime" }).value_or(-1);
    p.startedS = time(e, { "status", "startTime" }).value_or(-1);
    if (p.phase == "Succeeded" || p.phase == "Failed") {
        for (const char* statuses : { "containerStatuses", "initContainerStatuses" })
            if (auto cs = path(e, { "status", statuses }); cs && !cs->get_array().get(list))
                for (element c : list)
                    if (auto end = time(c, { "state", "terminated", "finishedAt" }))
                        p.endS = std::max(p.endS, *end);
    }
    if (p.endS < 0 && p.deletedS >= 0)
        p.endS = p.deletedS;
    m_out.pods.push_back(std::move(p));
}

void Reader::event(const element& e, const std::string& at, bool newApi)
{
    K8sEvent ev;
    ev.reason = std::string(text(e, { "reason" }));
    if (ev.reason != "Scheduled" && ev.reason != "FailedScheduling") {
        ++m_out.otherEvents[ev.reason.empty() ? "(none)" : ev.reason];
        return;
    }
    const char* about = newApi ? "regarding" : "involvedObject";
    ev.kind = std::string(text(e, { about, "kind" }));
    ev.ns = std::string(text(e, { about, "namespace" }));
    ev.name = std::string(text(e, { about, "name" }));
    ev.uid = std::string(text(e, { about, "uid" }));
    ev.message = std::string(text(e, { newApi ? "note" : "message" }));
    ev.source = std::string(newApi ? text(e, { "reportingController" }) : text(e, { "source", "component" }));
    if (ev.source.empty())
        ev.source = std::string(text(e, { "reportingComponent" }));
    ev.file = m_file;
    ev.pointer = at.empty() ? "/" : at;
    // core/v1 has first/lastTimestamp and count; events.k8s.io/v1 has eventTime, series and the
    // deprecated* copies; either may be empty in the other API's objects.
    std::optional<double> first = time(e, { newApi ? "deprecatedFirstTimestamp" : "firstTimestamp" });
    if (!first)
        first = time(e, { "eventTime" });
    if (!first)
        first = time(e, { "metadata", "creationTimestamp" });
    std::optional<double> last = time(e, { newApi ? "deprecatedLastTimestamp" : "lastTimestamp" });
    if (!last)
        last = time(e, { "series", "lastObservedTime" });
    int64_t count = 0;
    if (auto c = field(e, newApi ? "deprecatedCount" : "count"); c && c->get_int64().get(count))
        count = 0;
    if (count <= 0)
        if (auto c = path(e, { "series", "count" }); c && c->get_int64().get(count))
            count = 0;
    if (!first) {
        warn("missing-field", at + (newApi ? "/eventTime" : "/firstTimestamp"), ev.reason + " event without a time; ignored");
        return;
    }
    ev.firstS = *first;
    ev.lastS = std::max(last.value_or(*first), *first);
    ev.count = int32_t(std::clamp<int64_t>(count, 1, INT32_MAX));
    m_out.events.push_back(std::move(ev));
}

} // namespace

struct K8sJsonReader::Impl {
    simdjson::dom::parser parser;
};

K8sJsonReader::K8sJsonReader()
    : m(std::make_unique<Impl>())
{
}

K8sJsonReader::~K8sJsonReader() = default;

Status K8sJsonReader::read(const std::string& text, const std::string& file, K8sObjects& out, Diagnostics& diagnostics)
{
    if (text.capacity() < text.size() + kJsonPadding)
        return makeError(ErrorCode::Internal, "JSON text without padding", file);
    element doc;
    if (const auto err = m->parser.parse(text.data(), text.size(), false).get(doc))
        return makeError(ErrorCode::Parse,
            std::string(err == simdjson::CAPACITY ? "JSON document too large: " : "not valid JSON (truncated or corrupted): ")
                + simdjson::error_message(err),
            file);
    Reader reader(file, out, diagnostics);
    array items;
    if (!doc.get_array().get(items)) { // a bare array of objects (Sonobuoy)
        std::size_t i = 0;
        for (element child : items) {
            const std::string at = "/" + std::to_string(i++);
            if (!reader.item(child, at, 1))
                ++out.ignoredKinds["(not an object)"];
        }
        return {};
    }
    if (!reader.item(doc, "", 0))
        return makeError(ErrorCode::Format, "JSON, but not a Kubernetes object or list (no kind, metadata or items)", file);
    return {};
}

} // namespace schedlab::trace
