#pragma once
/// Deterministic random numbers for the generator, seeded policies and the fill experiment.

#include <cstdint>

namespace schedlab {

/// xoshiro256** seeded by splitmix64: small, fast, identical on every platform (no <random>
/// distributions, whose output differs between standard libraries). Not thread-safe; one per run.
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

} // namespace schedlab
