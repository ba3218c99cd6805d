#pragma once
/// Generates small realistic traces for the bundled sample and for tests/benchmarks: GPU and CPU
/// nodes, fractional-GPU tasks, diurnal arrivals, heavy-tailed (log-normal) run times.
/// Deterministic for a given seed on every platform (own RNG and distributions, no <random>).

#include "base/result.h"
#include "base/rng.h"
#include "trace.h"

#include <cstdint>

namespace schedlab::trace {

using schedlab::Rng;

struct GeneratorOptions {
    int nodes = 64; ///< >= 1
    int64_t jobs = 5000; ///< >= 1
    uint64_t seed = 42;
    double targetGpuLoad = 0.85; ///< mean offered GPU load; sets the arrival span
    double spanS = -1; ///< arrival span; -1 = derived from targetGpuLoad
};

/// Builds a trace; Error on invalid options.
Result<Trace> generateTrace(const GeneratorOptions& options);


} // namespace schedlab::trace
