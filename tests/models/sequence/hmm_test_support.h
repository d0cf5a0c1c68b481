// For the HMM tests: random models, diagonal Gaussian log densities, and brute-force inference —
// every state path z_0..z_T enumerated (K^{T+1} of them), in long double, with the conventions of
// Note [HMM conventions] (hmm_inference.h), independent of the recursions it checks (no forward or
// backward variable appears).
#pragma once

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "graph/tensor.h"

namespace dagml::hmm_test {

// A random model: π, a column-stochastic Π and T×K log emissions in [−spread, −0.05 spread].
struct RandomHmm {
  Vector start;
  Tensor transition, log_emission;
};
inline RandomHmm random_hmm(Index K, Index T, Scalar spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<Scalar> u(0.05, 1.0);
  RandomHmm m{Vector(K), Tensor(K, K), Tensor(T, K)};
  for (Index k = 0; k < K; ++k) m.start(k) = u(rng);
  m.start /= m.start.sum();
  for (Index j = 0; j < K; ++j) {
    for (Index k = 0; k < K; ++k) m.transition(k, j) = u(rng);
    m.transition.col(j) /= m.transition.col(j).sum();
  }
  for (Index i = 0; i < m.log_emission.size(); ++i) m.log_emission.data()[i] = -spread * u(rng);
  return m;
}

struct BruteForceHmm {
  Scalar log_likelihood = 0;     // log Σ_paths p(x, z)
  Tensor state;                  // (T+1)×K, p(z_n = k | x)
  Tensor transition;             // K×K, Σ_n p(z_n = k, z_{n−1} = j | x) at (k, j)
  std::vector<Index> best;       // argmax_z p(x, z) (the first in enumeration order on ties)
  Scalar best_log_joint = 0;
};

inline BruteForceHmm brute_force_hmm(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  Index paths = 1;
  for (Index n = 0; n <= T; ++n) paths *= K;
  std::vector<long double> log_joint(static_cast<std::size_t>(paths));
  std::vector<Index> z(static_cast<std::size_t>(T + 1));
  auto decode = [&](Index p) {
    for (Index n = T; n >= 0; --n, p /= K) z[static_cast<std::size_t>(n)] = p % K;
  };
  BruteForceHmm out;
  out.best_log_joint = -std::numeric_limits<Scalar>::infinity();
  long double largest = -std::numeric_limits<long double>::infinity();
  for (Index p = 0; p < paths; ++p) {
    decode(p);
    long double lj = std::log(static_cast<long double>(start(z[0])));
    for (Index n = 1; n <= T; ++n)
      lj += std::log(static_cast<long double>(transition(z[n], z[n - 1]))) + log_emission(n - 1, z[n]);
    log_joint[static_cast<std::size_t>(p)] = lj;
    largest = std::max(largest, lj);
    if (lj > out.best_log_joint) {
      out.best_log_joint = static_cast<Scalar>(lj);
      out.best = z;
    }
  }
  long double total = 0;
  for (long double lj : log_joint) total += std::exp(lj - largest);
  const long double log_p = largest + std::log(total);
  out.log_likelihood = static_cast<Scalar>(log_p);
  out.state = Tensor::Zero(T + 1, K);
  out.transition = Tensor::Zero(K, K);
  for (Index p = 0; p < paths; ++p) {
    decode(p);
    const Scalar w = static_cast<Scalar>(std::exp(log_joint[static_cast<std::size_t>(p)] - log_p));
    for (Index n = 0; n <= T; ++n) out.state(n, z[n]) += w;
    for (Index n = 1; n <= T; ++n) out.transition(z[n], z[n - 1]) += w;
  }
  return out;
}

// log N(x_n; μ_k, diag(σ²_k)), computed directly.
inline Tensor diagonal_log_emission(const Tensor& X, const Tensor& means, const Tensor& variances) {
  Tensor out(X.rows(), means.rows());
  for (Index n = 0; n < X.rows(); ++n)
    for (Index k = 0; k < means.rows(); ++k) {
      Scalar s = 0;
      for (Index j = 0; j < X.cols(); ++j)
        s += -0.5 * std::log(2 * std::numbers::pi * variances(k, j)) -
             0.5 * (X(n, j) - means(k, j)) * (X(n, j) - means(k, j)) / variances(k, j);
      out(n, k) = s;
    }
  return out;
}

}  // namespace dagml::hmm_test
