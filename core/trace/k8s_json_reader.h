#pragma once
// Private to the Kubernetes JSON reader (k8s_json.cpp: the walk over fields; k8s_json_objects.cpp:
// nodes, pods and events built from what the walk read).

#include "k8s_objects.h"
#include "k8s_quantity.h"

#include <simdjson.h>

#include <optional>
#include <string>
#include <vector>

namespace schedlab::trace::k8sjson {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using Int = Quantity::Int;

constexpr int kMaxListDepth = 8;

/// A non-negative quantity in nano-units (x 10^9), rounded up as Kubernetes rounds anything finer
/// than 1n; nullopt when absurdly large (> 2^100).
std::optional<Int> nanoUnits(const Quantity& q);
/// Unix seconds of an RFC 3339 text, -1 when empty or not one.
double timeOf(const std::string& s);

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
    /// A static pod's mirror object: annotation kubernetes.io/config.mirror, or owned by a Node.
    bool mirror = false;
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
    /// The JSON error that stopped reading (SUCCESS when none or another kind of error).
    error_code jsonError() const { return m_jsonError; }
    void fail(error_code e, const std::string& at)
    {
        if (!m_error) {
            m_error = Error { ErrorCode::Parse,
                std::string("not valid JSON (truncated or corrupted) at ") + (at.empty() ? "/" : at) + ": " + simdjson::error_message(e),
                m_file, -1, -1 };
            m_jsonError = e;
        }
    }

private:
    error_code m_jsonError = simdjson::SUCCESS;
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
    /// A List's items, each read as an object of its own.
    bool listItems(od::value v, const std::string& at, int depth);
    /// A field only events have (core/v1 or events.k8s.io/v1); other keys are skipped.
    bool eventField(std::string_view key, od::value x, const std::string& at, Item& it);
    void node(const Item& it, const std::string& at);
    void pod(const Item& it, const std::string& at);
    void event(const Item& it, const std::string& at);

    const std::string& m_file;
    K8sObjects& m_out;
    Diagnostics& m_diag;
    std::optional<Error> m_error;
};

} // namespace schedlab::trace::k8sjson
