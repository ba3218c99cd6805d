#pragma once
// Factories of the built-in placement policies (one .cpp each); used by the registry only.

#include "placement_policy.h"

namespace schedlab::policy {

std::unique_ptr<PlacementPolicy> makeFirstFit();
std::unique_ptr<PlacementPolicy> makeRandomFit();
std::unique_ptr<PlacementPolicy> makeBestFit();
std::unique_ptr<PlacementPolicy> makeWorstFit();
std::unique_ptr<PlacementPolicy> makeMostAllocated();
std::unique_ptr<PlacementPolicy> makeKubernetesDefault(bool sampling);
std::unique_ptr<PlacementPolicy> makeDotProduct();
std::unique_ptr<PlacementPolicy> makeGpuPacking();
std::unique_ptr<PlacementPolicy> makeGpuClustering();
std::unique_ptr<PlacementPolicy> makeFgd();
std::unique_ptr<PlacementPolicy> makeLogged();

/// Largest node capacities, floored at the FGD simulator's maxSpec (128 cores, 8 GPUs), used to
/// normalise resource vectors.
struct MaxSpec {
    double cpu = 128000;
    double gpu = 8000;
    static MaxSpec of(const cluster::ClusterState& cluster);
};

} // namespace schedlab::policy
