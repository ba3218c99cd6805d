#pragma once
/// Autoscaling runs as the project stores them (store::AutoscaleRunRecord), one conversion for the
/// CLI (`autoscale --project`) and the workbench's Autoscaling tab.

#include "autoscale/autoscale_replay.h"
#include "store/project.h"

#include <string>
#include <vector>

namespace schedlab::workflow {

/// The q-quantile of lag lengths, the element at round(q x (n - 1)) of the sorted values (0 when empty).
double lagQuantile(std::vector<double> v, double q);

/// A run with what it replayed (`load` and `service` as the user should find them again; an empty
/// service is "(defaults)") and its window.
store::AutoscaleRunRecord autoscaleRecord(const autoscale::AutoscaleResult& r, const std::string& load, const std::string& service,
    const autoscale::AutoscaleOptions& options);

} // namespace schedlab::workflow
