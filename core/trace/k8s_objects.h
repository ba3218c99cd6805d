#pragma once
/// Kubernetes objects as the importer needs them (nodes, pods, scheduling events), read from
/// `kubectl get ... -o json` output: a List with `items`, a bare JSON array (Sonobuoy), a single
/// object, or Lists nested in Lists. Quantities exact (k8s_quantity.h), times RFC 3339 in Unix
/// seconds. Problems name the file and the JSON pointer of the field
/// ("pods.json: /items/12/spec/containers/0/resources/requests/cpu: '12q' is not a Kubernetes
/// quantity"). See core/trace/README.md "Kubernetes".

#include "base/diagnostics.h"
#include "base/result.h"
#include "trace.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace schedlab::trace {

/// Bytes a JSON text needs past its end (simdjson reads up to 64 bytes beyond).
inline constexpr std::size_t kJsonPadding = 64;

/// Node labels naming the GPU model, first match wins.
inline constexpr const char* kGpuModelLabels[] = { "nvidia.com/gpu.product", "cloud.google.com/gke-accelerator",
    "k8s.amazonaws.com/accelerator", "amd.com/gpu.product-name", "accelerator" };
/// Extended resources counted as whole GPUs.
inline constexpr const char* kGpuResources[] = { "nvidia.com/gpu", "amd.com/gpu" };

struct K8sNode {
    std::string name;
    std::string file, pointer; ///< where it was read ("Nodes.json", "/items/2"), for messages
    int64_t line = -1; ///< a decision log's record: its line (pointer empty)
    int64_t cpuMilli = 0; ///< allocatable (capacity when allocatable is missing), rounded down
    int64_t memMiB = 0; ///< allocatable memory in MiB, rounded down
    int32_t gpus = 0;
    std::string gpuModel; ///< from kGpuModelLabels; empty = unknown
    std::vector<std::pair<std::string, int64_t>> extended; ///< other allocatable resources, rounded down
    double createdS = -1; ///< Unix seconds
    bool unschedulable = false; ///< spec.unschedulable (cordoned)
};

struct K8sPod {
    std::string ns, name, uid;
    std::string file, pointer; ///< as K8sNode's
    int64_t line = -1;
    TaskRequest request; ///< effective request: containers summed, max'ed with init containers, + overhead
    std::vector<std::pair<std::string, int64_t>> extended; ///< requested resources not modelled
    int32_t priority = 0;
    std::string qos; ///< Guaranteed / Burstable / BestEffort (status.qosClass, else derived)
    bool qosDerived = false; ///< not in the status: derived as Kubernetes does
    std::string nodeName; ///< spec.nodeName: where it was bound
    std::string phase;
    std::string schedulerName;
    /// A static pod's mirror object (annotation kubernetes.io/config.mirror, or owned by a Node):
    /// the kubelet runs it; the scheduler never placed it.
    bool mirror = false;
    /// GPU models it may run on: a nodeSelector on a GPU-model label, or a one-term required node
    /// affinity "In" on one (several values = any of them); empty = any model.
    std::vector<std::string> gpuModels;
    double createdS = -1, scheduledS = -1, startedS = -1, endS = -1, deletedS = -1; ///< Unix seconds, -1 = not known
    double runS = -1; ///< how long it runs once started, when a decision log says (-1 = from the times)
};

struct K8sEvent {
    std::string reason, message;
    std::string kind, ns, name, uid; ///< the object it is about (involvedObject / regarding)
    std::string source; ///< source.component / reportingController
    std::string file, pointer;
    double firstS = -1, lastS = -1; ///< Unix seconds
    int32_t count = 1;
};

struct K8sObjects {
    std::vector<K8sNode> nodes;
    std::vector<K8sPod> pods;
    std::vector<K8sEvent> events; ///< Scheduled and FailedScheduling only
    std::map<std::string, int64_t> ignoredKinds; ///< objects of other kinds, by kind
    std::map<std::string, int64_t> otherEvents; ///< events with other reasons, by reason
};

/// Parses JSON documents one after another, reusing its buffers. Not thread-safe.
class K8sJsonReader {
public:
    K8sJsonReader();
    ~K8sJsonReader();
    /// `text` holds one JSON document, readable kJsonPadding bytes past its end. Adds
    /// what it finds to `out`; recoverable problems (a bad quantity in one pod) become warnings
    /// naming `file` and the JSON pointer, and that object is skipped. Errors: not JSON, or JSON
    /// that is no Kubernetes object.
    Status read(const char* text, std::size_t size, const std::string& file, K8sObjects& out, Diagnostics& diagnostics);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace schedlab::trace
