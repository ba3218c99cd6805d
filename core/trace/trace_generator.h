#pragma once
/// Generates small realistic traces for the bundled sample and for tests/benchmarks: GPU and CPU
/// nodes, fractional-GPU tasks, diurnal arrivals, heavy-tailed (log-normal) run times.
/// Deterministic for a given seed on every platform (own RNG and distributions, no <random>).

#include "base/result.h"
#include "trace.h"

#include <cstdint>

namespace schedlab::trace {

struct GeneratorOptions {
    int nodes = 64; ///< >= 1
    int64_t jobs = 5000; ///< >= 1
    uint64_t seed = 42;
    double targetGpuLoad = 0.85; ///< mean offered GPU load; sets the arrival span
    double spanS = -1; ///< arrival span; -1 = derived from targetGpuLoad
};

/// Builds a trace; Error on invalid options.
Result<Trace> generateTrace(const GeneratorOptions& options);

/// xoshiro256** seeded by splitmix64: small, fast, identical everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed);
    uint64_t next();
    /// Uniform in [0, 1).
    double uniform();
    /// Uniform integer in [0, n), n > 0.
    uint64_t below(uint64_t n);
    /// Standard normal (Box-Muller).
    double normal();

private:
    uint64_t m_s[4];
};

} // namespace schedlab::trace
