#include "rng.h"

#include <cmath>
#include <numbers>

namespace schedlab {

namespace {
uint64_t splitmix(uint64_t& x)
{
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
} // namespace

Rng::Rng(uint64_t seed)
{
    for (uint64_t& s : m_s)
        s = splitmix(seed);
}

uint64_t Rng::next()
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

double Rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

uint64_t Rng::below(uint64_t n)
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

double Rng::normal()
{
    double u1 = uniform();
    while (u1 <= 0)
        u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace schedlab
