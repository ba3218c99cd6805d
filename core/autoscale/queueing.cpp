// M/M/c response times (queueing.h).

#include "queueing.h"

#include <cmath>
#include <limits>

namespace schedlab::autoscale {

double erlangC(int c, double a)
{
    if (c < 1 || a >= double(c))
        return 1.0;
    if (a <= 0)
        return 0.0;
    double b = 1.0;
    for (int k = 1; k <= c; ++k)
        b = a * b / (double(k) + a * b);
    return double(c) * b / (double(c) - a * (1.0 - b));
}

double responseTail(int c, double lambda, double mu, double t)
{
    if (t < 0)
        return 1.0;
    if (c < 1 || !(mu > 0) || lambda >= double(c) * mu)
        return 1.0;
    const double C = erlangC(c, lambda / mu);
    const double theta = double(c) * mu - lambda;
    double h;
    if (std::abs(mu - theta) < 1e-12 * mu)
        h = (1.0 + mu * t) * std::exp(-mu * t);
    else
        h = (mu * std::exp(-theta * t) - theta * std::exp(-mu * t)) / (mu - theta);
    return (1.0 - C) * std::exp(-mu * t) + C * h;
}

double responseQuantile(int c, double lambda, double mu, double q)
{
    if (c < 1 || !(mu > 0) || lambda >= double(c) * mu)
        return std::numeric_limits<double>::infinity();
    const double tail = 1.0 - q;
    double lo = 0, hi = 1.0 / mu;
    while (responseTail(c, lambda, mu, hi) > tail)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (responseTail(c, lambda, mu, mid) > tail ? lo : hi) = mid;
    }
    return hi;
}

} // namespace schedlab::autoscale
