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
} // namespace

Rng::Rng(uint64_t seed)
{
    for (uint64_t& s : m_s)
        s = splitmix(seed);
}

double Rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double Rng::normal()
{
    double u1 = uniform();
    while (u1 <= 0)
        u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace schedlab
