// Kubernetes JSON (kubectl output, Sonobuoy dumps) into K8sObjects with simdjson's On-Demand API:
// one forward pass over each object, reading the fields it needs and skipping the rest (env,
// volumes, managedFields) on the structural index, without building a tape. Every field is read
// by name, so objects of any Kubernetes version parse; what an object lacks stays -1 / empty.

#include "k8s_json_reader.h"
#include "k8s_json_walk.h"
#include "json_error_location.h"

#include "fields.h"
#include "rfc3339.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>

namespace schedlab::trace {

static_assert(simdjson::SIMDJSON_PADDING <= kJsonPadding, "simdjson reads further than the buffers are padded");

namespace k8sjson {

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

double timeOf(const std::string& s) { return s.empty() ? -1 : parseRfc3339(s).value_or(-1); }


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
        if (key == "annotations")
            return fields(x, *this, at + "/annotations", [&](std::string_view annotation, od::value) {
                it.mirror = it.mirror || annotation == "kubernetes.io/config.mirror";
                return true;
            });
        if (key == "ownerReferences")
            return elements(x, *this, at + "/ownerReferences", [&](std::size_t i, od::value owner) {
                return fields(owner, *this, at + "/ownerReferences/" + std::to_string(i), [&](std::string_view k, od::value kind) {
                    std::string text;
                    if (k != "kind")
                        return true;
                    if (!string(kind, text))
                        return false;
                    it.mirror = it.mirror || text == "Node";
                    return true;
                });
            });
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

bool Reader::listItems(od::value v, const std::string& at, int depth)
{
    if (depth >= kMaxListDepth) {
        warn("bad-list", at, "Lists nested deeper than " + std::to_string(kMaxListDepth) + "; ignored");
        return true;
    }
    return elements(v, *this, at + "/items", [&](std::size_t i, od::value child) {
        bool isObject = false;
        if (!item(child, at + "/items/" + std::to_string(i), depth + 1, isObject))
            return false;
        if (!isObject)
            ++m_out.ignoredKinds["(not an object)"];
        return true;
    });
}

bool Reader::eventField(std::string_view key, od::value x, const std::string& at, Item& it)
{
    switch (key.empty() ? 0 : key[0]) {
    case 'i':
        if (key == "involvedObject") {
            it.involved = true;
            return about(x, it);
        }
        break;
    case 'm':
        if (key == "message")
            return string(x, it.message);
        break;
    case 's':
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
        if (key == "apiVersion")
            return true;
        if (key == "kind")
            return string(x, it.kind);
        if (key == "items") {
            it.isList = true;
            return listItems(x, at, depth);
        }
        if (key == "metadata")
            return metadata(x, at + "/metadata", it);
        if (key == "spec")
            return spec(x, at + "/spec", it);
        if (key == "status")
            return status(x, at + "/status", it);
        return eventField(key, x, at, it);
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

} // namespace k8sjson

using namespace k8sjson;

struct K8sJsonReader::Impl {
    od::parser parser;
};

K8sJsonReader::K8sJsonReader() : m(std::make_unique<Impl>()) { }

K8sJsonReader::~K8sJsonReader() = default;

Status K8sJsonReader::read(const char* text, std::size_t size, const std::string& file, K8sObjects& out, Diagnostics& diagnostics)
{
    const std::string_view all(text, size);
    auto invalid = [&](error_code err) { // with where it stops, when that can be found
        return withJsonErrorSpot(makeError(ErrorCode::Parse, std::string("not valid JSON (truncated or corrupted): ") + simdjson::error_message(err), file), all, err);
    };
    od::document doc;
    if (const error_code err = m->parser.iterate(text, size, size + kJsonPadding).get(doc))
        return err == simdjson::CAPACITY ? makeError(ErrorCode::Parse, std::string("JSON document too large: ") + simdjson::error_message(err), file)
                                         : invalid(err);
    Reader reader(file, out, diagnostics);
    auto readerError = [&] { return withJsonErrorSpot(*reader.error(), all, reader.jsonError()); };
    od::value root;
    if (const error_code err = doc.get_value().get(root))
        return invalid(err);
    od::json_type type;
    if (const error_code err = root.type().get(type))
        return invalid(err);
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
            return readerError();
    } else if (!reader.item(root, "", 0, any)) {
        return readerError();
    }
    if (reader.error())
        return readerError();
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
