// Kubernetes JSON (kubectl output, Sonobuoy dumps) into K8sObjects with simdjson's On-Demand API:
// one forward pass over each object, reading the fields it needs and skipping the rest (env,
// volumes, managedFields) on the structural index, without building a tape. Every field is read
// by name, so objects of any Kubernetes version parse; what an object lacks stays -1 / empty.

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

namespace od = simdjson::ondemand;
using simdjson::error_code;
using Int = Quantity::Int;

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

/// A non-negative quantity in nano-units (x 10^9), rounded up as Kubernetes rounds anything finer
/// than 1n; nullopt when absurdly large (> 2^100).
std::optional<Int> nanoUnits(const Quantity& q)
{
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

/// A resource list as read: names with their quantities, or the first bad entry.
struct ResourceList {
    std::vector<std::pair<std::string, Quantity>> values;
    bool present = false;
    std::string badPointer, badMessage; ///< set when an entry is not a quantity
    const Quantity* find(std::string_view name) const
    {
        for (const auto& [k, q] : values)
            if (k == name)
                return &q;
        return nullptr;
    }
};

struct Container {
    ResourceList requests, limits;
    bool sidecar = false; ///< an init container with restartPolicy Always
};

/// Every field of any object this importer reads, filled in one pass; the kind is decided after.
struct Item {
    std::string kind;
    bool hasMetadata = false, isList = false;
    std::string name, ns, uid;
    std::string created, deleted;
    std::string gpuModelLabel; ///< the first kGpuModelLabels value among the labels
    int labelRank = 100;
    // Pod spec.
    bool hasContainers = false;
    std::vector<Container> containers, initContainers;
    ResourceList overhead;
    bool hasPriority = false;
    int64_t priority = 0;
    std::string nodeName, schedulerName, selectorModel;
    std::vector<std::string> affinityModels;
    // Node spec.
    bool unschedulable = false;
    // Status.
    std::string phase, qosClass, scheduled, startTime;
    double finishedS = -1;
    bool hasNodeInfo = false;
    ResourceList allocatable, capacity;
    // Events.
    bool involved = false, regarding = false;
    std::string aboutKind, aboutNs, aboutName, aboutUid;
    std::string reason, message, note, sourceComponent, reportingController, reportingComponent;
    std::string firstTimestamp, lastTimestamp, eventTime, deprecatedFirst, deprecatedLast, seriesLast;
    int64_t count = 0, deprecatedCount = 0, seriesCount = 0;
};

class Reader {
public:
    Reader(const std::string& file, K8sObjects& out, Diagnostics& diagnostics)
        : m_file(file)
        , m_out(out)
        , m_diag(diagnostics)
    {
    }

    /// An item at JSON pointer `at`; false on a JSON error (fatal, in error()) or, with
    /// `kubernetes` false, when it is no Kubernetes object.
    bool item(od::value v, const std::string& at, int depth, bool& kubernetes);
    const std::optional<Error>& error() const { return m_error; }
    void fail(error_code e, const std::string& at)
    {
        if (!m_error)
            m_error = Error { ErrorCode::Parse,
                std::string("not valid JSON (truncated or corrupted) at ") + (at.empty() ? "/" : at) + ": " + simdjson::error_message(e),
                m_file, -1, -1 };
    }

private:
    void warn(const std::string& category, const std::string& pointer, const std::string& message)
    {
        m_diag.warn(category, m_file, -1, pointer, message);
    }
    // Readers of parts of an object; each returns false on a fatal JSON error.
    bool string(od::value v, std::string& out);
    bool integer(od::value v, int64_t& out);
    bool resources(od::value v, const std::string& at, ResourceList& out);
    bool metadata(od::value v, const std::string& at, Item& it);
    bool containers(od::value v, const std::string& at, std::vector<Container>& out);
    bool spec(od::value v, const std::string& at, Item& it);
    bool status(od::value v, const std::string& at, Item& it);
    bool about(od::value v, Item& it);
    bool nodeSelectorTerms(od::value v, Item& it);
    void node(const Item& it, const std::string& at);
    void pod(const Item& it, const std::string& at);
    void event(const Item& it, const std::string& at);

    const std::string& m_file;
    K8sObjects& m_out;
    Diagnostics& m_diag;
    std::optional<Error> m_error;
};

// Iterates an object's fields: fn(key, value) returns false to stop on a fatal error.
template <class Fn>
bool fields(od::value v, Reader& r, const std::string& at, Fn fn)
{
    od::object obj;
    error_code e = v.get_object().get(obj);
    if (e == simdjson::INCORRECT_TYPE)
        return true; // not an object where one is expected: nothing to read here
    if (e) {
        r.fail(e, at);
        return false;
    }
    for (auto f : obj) {
        od::field field;
        if ((e = std::move(f).get(field))) {
            r.fail(e, at);
            return false;
        }
        // The key as written, without unescaping it into the parser's string buffer (that writes
        // every key of the document once more); only a key with an escape is unescaped.
        std::string_view key;
        const char* raw = field.key().raw();
        const char* end = raw;
        while (*end != '"' && *end != '\\')
            ++end;
        if (*end == '"')
            key = std::string_view(raw, std::size_t(end - raw));
        else if ((e = field.unescaped_key().get(key))) {
            r.fail(e, at);
            return false;
        }
        if (!fn(key, field.value()))
            return false;
    }
    return true;
}

// Iterates an array: fn(index, value).
template <class Fn>
bool elements(od::value v, Reader& r, const std::string& at, Fn fn)
{
    od::array arr;
    error_code e = v.get_array().get(arr);
    if (e == simdjson::INCORRECT_TYPE)
        return true;
    if (e) {
        r.fail(e, at);
        return false;
    }
    std::size_t i = 0;
    for (auto x : arr) {
        od::value child;
        if ((e = std::move(x).get(child))) {
            r.fail(e, at);
            return false;
        }
        if (!fn(i++, child))
            return false;
    }
    return true;
}

bool Reader::string(od::value v, std::string& out)
{
    // A string without escapes is taken as written (no copy into the parser's string buffer).
    const std::string_view token = v.raw_json_token();
    if (token.size() >= 2 && token.front() == '"') {
        const std::size_t close = token.find('"', 1);
        if (close != std::string_view::npos && token.find('\\', 1) > close) {
            out.assign(token.substr(1, close - 1));
            return true;
        }
    }
    std::string_view s;
    const error_code e = v.get_string().get(s);
    if (e == simdjson::INCORRECT_TYPE)
        return true; // null or another type: not set
    if (e) {
        fail(e, "");
        return false;
    }
    out.assign(s);
    return true;
}

bool Reader::integer(od::value v, int64_t& out)
{
    const error_code e = v.get_int64().get(out);
    if (e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE || e == simdjson::NUMBER_ERROR)
        return true;
    if (e) {
        fail(e, "");
        return false;
    }
    return true;
}

bool Reader::resources(od::value v, const std::string& at, ResourceList& out)
{
    out.present = true;
    return fields(v, *this, at, [&](std::string_view key, od::value q) {
        std::string text;
        od::json_type type;
        if (error_code e = q.type().get(type)) {
            fail(e, at);
            return false;
        }
        if (type == od::json_type::string) {
            if (!string(q, text))
                return false;
        } else if (type == od::json_type::number) {
            std::string_view raw = q.raw_json_token();
            text = std::string(trimmed(raw)); // a number written by hand: its digits
        }
        const auto parsed = text.empty() ? std::nullopt : parseQuantity(text);
        if ((!parsed || parsed->isNegative()) && out.badPointer.empty()) {
            out.badPointer = at + "/" + pointerKey(key);
            out.badMessage = text.empty() ? "not a quantity (a " + std::string(type == od::json_type::array ? "list" : "non-text value") + ")"
                                          : trace::quoted(text) + (parsed ? " is negative" : " is not a Kubernetes quantity");
        }
        if (parsed && !parsed->isNegative())
            out.values.emplace_back(std::string(key), *parsed);
        return true;
    });
}

bool Reader::metadata(od::value v, const std::string& at, Item& it)
{
    it.hasMetadata = true;
    return fields(v, *this, at, [&](std::string_view key, od::value x) {
        if (key == "name")
            return string(x, it.name);
        if (key == "namespace")
            return string(x, it.ns);
        if (key == "uid")
            return string(x, it.uid);
        if (key == "creationTimestamp")
            return string(x, it.created);
        if (key == "deletionTimestamp")
            return string(x, it.deleted);
        if (key == "labels")
            return fields(x, *this, at + "/labels", [&](std::string_view label, od::value value) {
                for (int rank = 0; rank < int(std::size(kGpuModelLabels)) && rank < it.labelRank; ++rank)
                    if (label == kGpuModelLabels[rank]) {
                        std::string model;
                        if (!string(value, model))
                            return false;
                        if (!model.empty()) {
                            it.gpuModelLabel = model;
                            it.labelRank = rank;
                        }
                        break;
                    }
                return true;
            });
        return true;
    });
}

bool Reader::containers(od::value v, const std::string& at, std::vector<Container>& out)
{
    return elements(v, *this, at, [&](std::size_t i, od::value c) {
        Container one;
        const std::string cAt = at + "/" + std::to_string(i);
        const bool ok = fields(c, *this, cAt, [&](std::string_view key, od::value x) {
            if (key == "resources")
                return fields(x, *this, cAt + "/resources", [&](std::string_view k, od::value list) {
                    if (k == "requests")
                        return resources(list, cAt + "/resources/requests", one.requests);
                    if (k == "limits")
                        return resources(list, cAt + "/resources/limits", one.limits);
                    return true;
                });
            if (key == "restartPolicy") {
                std::string policy;
                if (!string(x, policy))
                    return false;
                one.sidecar = policy == "Always";
            }
            return true;
        });
        out.push_back(std::move(one));
        return ok;
    });
}

bool Reader::nodeSelectorTerms(od::value v, Item& it)
{
    // A required node affinity with one term that asks for exactly one GPU model.
    int terms = 0;
    std::vector<std::string> models;
    const bool ok = elements(v, *this, "", [&](std::size_t, od::value term) {
        ++terms;
        return fields(term, *this, "", [&](std::string_view key, od::value exprs) {
            if (key != "matchExpressions")
                return true;
            return elements(exprs, *this, "", [&](std::size_t, od::value x) {
                std::string k, op;
                std::vector<std::string> values;
                const bool read = fields(x, *this, "", [&](std::string_view f, od::value y) {
                    if (f == "key")
                        return string(y, k);
                    if (f == "operator")
                        return string(y, op);
                    if (f == "values")
                        return elements(y, *this, "", [&](std::size_t, od::value s) {
                            values.emplace_back();
                            return string(s, values.back());
                        });
                    return true;
                });
                if (read && op == "In" && !values.empty()
                    && std::find(std::begin(kGpuModelLabels), std::end(kGpuModelLabels), k) != std::end(kGpuModelLabels))
                    models = values;
                return read;
            });
        });
    });
    if (ok && terms == 1)
        it.affinityModels = models;
    return ok;
}

bool Reader::spec(od::value v, const std::string& at, Item& it)
{
    return fields(v, *this, at, [&](std::string_view key, od::value x) {
        if (key == "containers") {
            it.hasContainers = true;
            return containers(x, at + "/containers", it.containers);
        }
        if (key == "initContainers")
            return containers(x, at + "/initContainers", it.initContainers);
        if (key == "overhead")
            return resources(x, at + "/overhead", it.overhead);
        if (key == "priority") {
            it.hasPriority = true;
            return integer(x, it.priority);
        }
        if (key == "nodeName")
            return string(x, it.nodeName);
        if (key == "schedulerName")
            return string(x, it.schedulerName);
        if (key == "unschedulable") {
            bool b = false;
            if (error_code e = x.get_bool().get(b); e && e != simdjson::INCORRECT_TYPE) {
                fail(e, at + "/unschedulable");
                return false;
            }
            it.unschedulable = b;
            return true;
        }
        if (key == "nodeSelector")
            return fields(x, *this, at + "/nodeSelector", [&](std::string_view label, od::value value) {
                if (std::find(std::begin(kGpuModelLabels), std::end(kGpuModelLabels), label) == std::end(kGpuModelLabels) || !it.selectorModel.empty())
                    return true;
                return string(value, it.selectorModel);
            });
        if (key == "affinity")
            return fields(x, *this, at + "/affinity", [&](std::string_view k1, od::value na) {
                if (k1 != "nodeAffinity")
                    return true;
                return fields(na, *this, at, [&](std::string_view k2, od::value req) {
                    if (k2 != "requiredDuringSchedulingIgnoredDuringExecution")
                        return true;
                    return fields(req, *this, at, [&](std::string_view k3, od::value terms) {
                        return k3 != "nodeSelectorTerms" || nodeSelectorTerms(terms, it);
                    });
                });
            });
        return true;
    });
}

bool Reader::status(od::value v, const std::string& at, Item& it)
{
    return fields(v, *this, at, [&](std::string_view key, od::value x) {
        if (key == "phase")
            return string(x, it.phase);
        if (key == "qosClass")
            return string(x, it.qosClass);
        if (key == "startTime")
            return string(x, it.startTime);
        if (key == "nodeInfo") {
            it.hasNodeInfo = true;
            return true;
        }
        if (key == "allocatable")
            return resources(x, at + "/allocatable", it.allocatable);
        if (key == "capacity")
            return resources(x, at + "/capacity", it.capacity);
        if (key == "conditions")
            return elements(x, *this, at + "/conditions", [&](std::size_t, od::value c) {
                std::string type, state, when;
                const bool ok = fields(c, *this, at, [&](std::string_view k, od::value y) {
                    if (k == "type")
                        return string(y, type);
                    if (k == "status")
                        return string(y, state);
                    if (k == "lastTransitionTime")
                        return string(y, when);
                    return true;
                });
                if (type == "PodScheduled" && state == "True")
                    it.scheduled = when;
                return ok;
            });
        if (key == "containerStatuses" || key == "initContainerStatuses")
            return elements(x, *this, at, [&](std::size_t, od::value c) {
                return fields(c, *this, at, [&](std::string_view k, od::value state) {
                    if (k != "state")
                        return true;
                    return fields(state, *this, at, [&](std::string_view k2, od::value term) {
                        if (k2 != "terminated")
                            return true;
                        return fields(term, *this, at, [&](std::string_view k3, od::value t) {
                            if (k3 != "finishedAt")
                                return true;
                            std::string s;
                            if (!string(t, s))
                                return false;
                            if (const auto f = parseRfc3339(s))
                                it.finishedS = std::max(it.finishedS, *f);
                            return true;
                        });
                    });
                });
            });
        return true;
    });
}

bool Reader::about(od::value v, Item& it)
{
    return fields(v, *this, "", [&](std::string_view key, od::value x) {
        if (key == "kind")
            return string(x, it.aboutKind);
        if (key == "namespace")
            return string(x, it.aboutNs);
        if (key == "name")
            return string(x, it.aboutName);
        if (key == "uid")
            return string(x, it.aboutUid);
        return true;
    });
}

bool Reader::item(od::value v, const std::string& at, int depth, bool& kubernetes)
{
    kubernetes = false;
    od::json_type type;
    if (error_code e = v.type().get(type)) {
        fail(e, at);
        return false;
    }
    if (type != od::json_type::object)
        return true;
    Item it;
    const bool ok = fields(v, *this, at, [&](std::string_view key, od::value x) {
        switch (key.empty() ? 0 : key[0]) {
        case 'a':
            if (key == "apiVersion")
                return true;
            break;
        case 'k':
            if (key == "kind")
                return string(x, it.kind);
            break;
        case 'i':
            if (key == "items") {
                it.isList = true;
                if (depth >= kMaxListDepth) {
                    warn("bad-list", at, "Lists nested deeper than " + std::to_string(kMaxListDepth) + "; ignored");
                    return true;
                }
                return elements(x, *this, at + "/items", [&](std::size_t i, od::value child) {
                    bool isObject = false;
                    if (!item(child, at + "/items/" + std::to_string(i), depth + 1, isObject))
                        return false;
                    if (!isObject)
                        ++m_out.ignoredKinds["(not an object)"];
                    return true;
                });
            }
            if (key == "involvedObject") {
                it.involved = true;
                return about(x, it);
            }
            break;
        case 'm':
            if (key == "metadata")
                return metadata(x, at + "/metadata", it);
            if (key == "message")
                return string(x, it.message);
            break;
        case 's':
            if (key == "spec")
                return spec(x, at + "/spec", it);
            if (key == "status")
                return status(x, at + "/status", it);
            if (key == "source")
                return fields(x, *this, at, [&](std::string_view k, od::value y) { return k != "component" || string(y, it.sourceComponent); });
            if (key == "series")
                return fields(x, *this, at, [&](std::string_view k, od::value y) {
                    if (k == "count")
                        return integer(y, it.seriesCount);
                    if (k == "lastObservedTime")
                        return string(y, it.seriesLast);
                    return true;
                });
            break;
        case 'r':
            if (key == "regarding") {
                it.regarding = true;
                return about(x, it);
            }
            if (key == "reason")
                return string(x, it.reason);
            if (key == "reportingController")
                return string(x, it.reportingController);
            if (key == "reportingComponent")
                return string(x, it.reportingComponent);
            break;
        case 'n':
            if (key == "note")
                return string(x, it.note);
            break;
        case 'f':
            if (key == "firstTimestamp")
                return string(x, it.firstTimestamp);
            break;
        case 'l':
            if (key == "lastTimestamp")
                return string(x, it.lastTimestamp);
            break;
        case 'e':
            if (key == "eventTime")
                return string(x, it.eventTime);
            break;
        case 'c':
            if (key == "count")
                return integer(x, it.count);
            break;
        case 'd':
            if (key == "deprecatedFirstTimestamp")
                return string(x, it.deprecatedFirst);
            if (key == "deprecatedLastTimestamp")
                return string(x, it.deprecatedLast);
            if (key == "deprecatedCount")
                return integer(x, it.deprecatedCount);
            break;
        default:
            break;
        }
        return true;
    });
    if (!ok)
        return false;
    if (it.isList) {
        kubernetes = true;
        return true;
    }
    const std::string& kind = it.kind;
    if (kind == "Event" || (kind.empty() && (it.involved || it.regarding))) {
        event(it, at);
    } else if (kind == "Pod" || (kind.empty() && it.hasContainers)) {
        pod(it, at);
    } else if (kind == "Node" || (kind.empty() && (it.hasNodeInfo || it.allocatable.present || it.capacity.present))) {
        node(it, at);
    } else if (it.hasMetadata) {
        ++m_out.ignoredKinds[kind.empty() ? "(unknown)" : kind];
    } else {
        return true; // no Kubernetes object
    }
    kubernetes = true;
    return true;
}

double timeOf(const std::string& s) { return s.empty() ? -1 : parseRfc3339(s).value_or(-1); }

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

} // namespace

struct K8sJsonReader::Impl {
    od::parser parser;
};

K8sJsonReader::K8sJsonReader()
    : m(std::make_unique<Impl>())
{
}

K8sJsonReader::~K8sJsonReader() = default;

Status K8sJsonReader::read(const char* text, std::size_t size, const std::string& file, K8sObjects& out, Diagnostics& diagnostics)
{
    od::document doc;
    if (const error_code err = m->parser.iterate(text, size, size + kJsonPadding).get(doc))
        return makeError(ErrorCode::Parse,
            std::string(err == simdjson::CAPACITY ? "JSON document too large: " : "not valid JSON (truncated or corrupted): ")
                + simdjson::error_message(err),
            file);
    Reader reader(file, out, diagnostics);
    od::value root;
    if (const error_code err = doc.get_value().get(root))
        return makeError(ErrorCode::Parse, std::string("not valid JSON (truncated or corrupted): ") + simdjson::error_message(err), file);
    od::json_type type;
    if (const error_code err = root.type().get(type))
        return makeError(ErrorCode::Parse, std::string("not valid JSON (truncated or corrupted): ") + simdjson::error_message(err), file);
    bool any = false;
    if (type == od::json_type::array) { // a bare array of objects (Sonobuoy)
        const bool ok = elements(root, reader, "", [&](std::size_t i, od::value child) {
            bool isObject = false;
            if (!reader.item(child, "/" + std::to_string(i), 1, isObject))
                return false;
            if (!isObject)
                ++out.ignoredKinds["(not an object)"];
            any = true;
            return true;
        });
        if (!ok)
            return *reader.error();
    } else if (!reader.item(root, "", 0, any)) {
        return *reader.error();
    }
    if (reader.error())
        return *reader.error();
    const char* where = nullptr;
    if (doc.current_location().get(where) != simdjson::OUT_OF_BOUNDS) // not at the end
        return makeError(ErrorCode::Parse,
            "not valid JSON: text after the end of the document"
                + (where ? " at byte " + std::to_string(where - text) : std::string()),
            file);
    if (type != od::json_type::array && !any)
        return makeError(ErrorCode::Format, "JSON, but not a Kubernetes object or list (no kind, metadata or items)", file);
    return {};
}

} // namespace schedlab::trace
