// The test problem of the samplers and importance sampling: the posterior of a 2-D Bayesian
// linear regression (a correlated Gaussian known in closed form), and the batch-means error of
// a chain's averages.
#pragma once

#include <cmath>

#include "graph/tensor.h"
#include "literals.h"
#include "models/linear/bayesian_linear_regression.h"

namespace dagml::testing {

// y = Xw + ε, w ~ N(0, α⁻¹I), ε ~ N(0, σ²I): the first two features of the data of
// scipy_reference.py, α = 2, σ² = 0.25.
struct RegressionPosterior {
  Tensor X = rows({{0.5, -1.2}, {1.5, 0.4}, {-0.3, 0.9}, {2.0, -0.5}, {-1.1, 1.3}, {0.7, 0.1}});
  Vector y = vec({0.8, 2.1, -0.4, 2.9, -1.7, 0.9});
  Scalar prior_precision = 2, noise_variance = 0.25;

  // log p(w) + log p(y | w) up to a constant.
  Scalar log_density(const Vector& w) const {
    return -0.5 * (y - X * w).squaredNorm() / noise_variance - 0.5 * prior_precision * w.squaredNorm();
  }
  Scalar log_density_and_gradient(const Vector& w, Vector& gradient) const {
    gradient = X.transpose() * (y - X * w) / noise_variance - prior_precision * w;
    return log_density(w);
  }
  // The exact posterior N(m, S), from BayesianLinearRegression.
  BayesianLinearRegression exact() const {
    BayesianLinearRegression blr({.noise_variance = noise_variance, .prior_variance = 1 / prior_precision});
    blr.fit(X, y);
    return blr;
  }
};

// The mean of `values` (one per draw of a chain) and its Monte Carlo standard error by batch
// means: the chain cut into `batches` consecutive batches, se = sd(batch means)/√batches, which
// accounts for the autocorrelation when a batch is much longer than the chain's correlation time.
struct ChainAverage {
  Scalar mean = 0, standard_error = 0;
};
inline ChainAverage batch_means(const Vector& values, Index batches = 25) {
  const Index length = values.size() / batches;
  Vector means(batches);
  for (Index b = 0; b < batches; ++b) means[b] = values.segment(b * length, length).mean();
  const Scalar mean = means.mean();
  const Scalar variance = (means.array() - mean).square().sum() / static_cast<Scalar>(batches - 1);
  return {mean, std::sqrt(variance / static_cast<Scalar>(batches))};
}

}  // namespace dagml::testing
