#pragma once
/// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, YAML) as far as schedlab models
/// kube-scheduler: the score weights of NodeResourcesFit and NodeResourcesBalancedAllocation, the
/// NodeResourcesFit scoring strategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio with
/// its shape and resource weights), BalancedAllocation's resources and percentageOfNodesToScore
/// (global or the profile's). The profile used is the one named "default-scheduler", else the
/// first. Other score plugins are listed (`unmodelled`): in schedlab's model (no affinities,
/// taints, images or volumes) they score every node alike and do not change a choice.
///
/// Scores follow kube-scheduler (pkg/scheduler/framework/plugins/noderesources): per resource
/// LeastAllocated = (allocatable - requested) * 100 / allocatable (0 when requested exceeds it),
/// MostAllocated = min(requested, allocatable) * 100 / allocatable, RequestedToCapacityRatio = the
/// shape's broken-line function of requested * 100 / allocatable with shape scores x 10; a
/// resource with 0 allocatable is left out; the node's score is the weighted mean (integer
/// division; RequestedToCapacityRatio rounds and leaves out resources scoring 0). Balanced =
/// (1 - the standard deviation of the requested fractions, each at most 1) * 100. The final score
/// is the sum of the plugins' scores times their weights. "Requested" includes the pod placed.
/// Resources: cpu (milli-cores), memory (MiB) and nvidia.com/gpu (or amd.com/gpu: GPUs in use,
/// in thousandths); others are refused.

#include "base/result.h"
#include "cluster/cluster_state.h"
#include "trace/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace schedlab::policy {

enum class FitStrategy { LeastAllocated, MostAllocated, RequestedToCapacityRatio };

/// "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio".
const char* fitStrategyName(FitStrategy s);

enum class K8sResource { Cpu, Memory, Gpu };

struct K8sResourceWeight {
    K8sResource resource = K8sResource::Cpu;
    int64_t weight = 1;
    bool operator==(const K8sResourceWeight&) const = default;
};

struct ShapePoint {
    int64_t utilization = 0; ///< 0..100
    int64_t score = 0; ///< 0..10 as written (x 10 when scoring)
    bool operator==(const ShapePoint&) const = default;
};

struct KubeSchedulerConfig {
    std::string profile = "default-scheduler";
    int64_t fitWeight = 1, balancedWeight = 1; ///< 0 = the plugin is disabled
    FitStrategy strategy = FitStrategy::LeastAllocated;
    std::vector<K8sResourceWeight> fitResources { { K8sResource::Cpu, 1 }, { K8sResource::Memory, 1 } };
    std::vector<ShapePoint> shape { { 0, 10 }, { 100, 0 } }; ///< RequestedToCapacityRatio (kube-scheduler's default)
    std::vector<K8sResource> balancedResources { K8sResource::Cpu, K8sResource::Memory };
    int32_t percentageOfNodesToScore = -1; ///< -1 = not set (score every node), 0 = adaptive, 1..100
    std::vector<std::string> unmodelled; ///< enabled score plugins schedlab does not model
    bool operator==(const KubeSchedulerConfig&) const = default;

    /// kube-scheduler's default configuration, but every node scored (-1): exactly k8s-default.
    bool isDefault() const { return *this == KubeSchedulerConfig {}; }
    /// One line: "NodeResourcesFit MostAllocated (cpu 1, memory 1) x1 + ... ; 50 % of nodes".
    std::string summary() const;
};

/// Parses a KubeSchedulerConfiguration. `name` names the text in errors
/// ("sched.yaml:14: profiles[0].pluginConfig[0].args.scoringStrategy.type: 'Packed' is not
/// LeastAllocated, MostAllocated or RequestedToCapacityRatio").
Result<KubeSchedulerConfig> parseKubeSchedulerConfig(const std::string& yaml, const std::string& name);
/// Reads and parses a file (at most 1 MiB); its text into `text` when given (a run keeps it).
Result<KubeSchedulerConfig> readKubeSchedulerConfig(const std::string& path, std::string* text = nullptr);

struct K8sConfiguredScore {
    int64_t fit = 0; ///< NodeResourcesFit's score, before its weight
    int64_t balanced = 0; ///< NodeResourcesBalancedAllocation's, before its weight
    int64_t total = 0; ///< the weighted sum
};

/// The scores of placing `r` on node n under `config`.
K8sConfiguredScore kubernetesConfiguredScore(const KubeSchedulerConfig& config, const cluster::ClusterState& c, int n, const trace::TaskRequest& r);

/// How many feasible nodes kube-scheduler looks for among `nodes` (numFeasibleNodesToFind).
int feasibleNodesToFind(const KubeSchedulerConfig& config, int nodes);

class PlacementPolicy;
/// True for the policies a configuration applies to: k8s-default and k8s-sampling.
bool acceptsSchedulerConfig(const std::string& policyName);
/// `policyName` (k8s-default or k8s-sampling) under `config`: the configured plugins' weighted
/// scores over the nodes kube-scheduler would examine (its rotating start); nullptr for other names.
std::unique_ptr<PlacementPolicy> makeConfiguredKubernetes(const std::string& policyName, const KubeSchedulerConfig& config);

} // namespace schedlab::policy
