#pragma once
/// Deterministic random numbers for the generator, seeded policies and the fill experiment.

#include <cstdint>

namespace schedlab {

/// xoshiro256** seeded by splitmix64: small, fast, identical on every platform (no <random>
/// distributions, whose output differs between standard libraries). Not thread-safe; one per run.
class Rng {
public:
    explicit Rng(uint64_t seed);
    /// Inline, like below(): random ties draw once per tied node (policy/shape_placement.cpp).
    uint64_t next()
    {
        const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    /// Uniform in [0, 1).
    double uniform();
    /// Uniform integer in [0, n), n > 0.
    uint64_t below(uint64_t n)
    {
        // Lemire's multiply-shift with rejection: unbiased.
        unsigned __int128 m = (unsigned __int128)next() * n;
        uint64_t low = uint64_t(m);
        if (low < n) {
            const uint64_t threshold = -n % n;
            while (low < threshold) {
                m = (unsigned __int128)next() * n;
                low = uint64_t(m);
            }
        }
        return uint64_t(m >> 64);
    }
    /// Standard normal (Box-Muller).
    double normal();

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t m_s[4];
};

} // namespace schedlab
