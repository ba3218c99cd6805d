#pragma once
/// Response times of an M/M/c queue (Poisson arrivals at rate lambda, c servers each serving at
/// rate mu, FCFS): the Erlang C waiting probability and the response-time tail (module README):
///   a = lambda / mu, rho = a / c < 1,
///   C(c, a) = c B / (c - a (1 - B)),  B = Erlang B by B_0 = 1, B_k = a B_{k-1} / (k + a B_{k-1}),
///   P(T > t) = (1 - C) e^{-mu t} + C H(t),  theta = c mu - lambda,
///   H(t) = (mu e^{-theta t} - theta e^{-mu t}) / (mu - theta)   (mu != theta),  (1 + mu t) e^{-mu t} otherwise.
/// A backlog left from earlier steps delays every request of the step by its drain time first.

namespace schedlab::autoscale {

/// Erlang C: the probability that an arrival waits. 1 when the queue is unstable (a >= c) or c < 1.
double erlangC(int c, double a);

/// P(T > t) for response time T (waiting + service). 1 when unstable or c < 1.
double responseTail(int c, double lambda, double mu, double t);

/// The q-quantile of T (e.g. q = 0.99), to 1e-9 relative; +inf when unstable or c < 1.
double responseQuantile(int c, double lambda, double mu, double q);

} // namespace schedlab::autoscale
