// The bias-variance experiment of notes 000 §2.2: many training sets drawn from a known function
// plus noise, one model fitted to each, and the spread of their predictions at fixed test points.
//
//   auto r = bias_variance(PolynomialRegression({.degree = 1}), [](Scalar x) { return 2 * x + 1; },
//                          Vector::LinSpaced(21, -1, 1), {.num_datasets = 500, .num_samples = 10});
//   // r.bias_squared_mean + r.variance_mean + r.noise_variance ≈ expected squared test error
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <functional>
#include <utility>

#include "graph/tensor.h"
#include "models/select/cross_validation.h"

namespace dagml {

struct BiasVarianceOptions {
  Index num_datasets = 200;  // R ≥ 2 independent training sets
  Index num_samples = 10;    // n ≥ 1 points in each
  Scalar noise_std = 1;      // σ ≥ 0: y = f(x) + z, z ~ N(0, σ²)
  Scalar x_min = -1;         // training inputs x ~ Uniform[x_min, x_max) (one feature), x_min < x_max
  Scalar x_max = 1;
  std::uint64_t seed = 0;  // dataset r is drawn from derive_seed(seed, r): any thread count, same result
};

// Decomposition (notes 000 §2.2), at each test point x, over random training sets D:
//   E[(h(x; D) − Y)²] = (E_D[h(x; D)] − f(x))²  +  Var_D(h(x; D))  +  σ²
//                        bias²                     variance           irreducible error
// with E_D and Var_D estimated by the mean and the (1/R) variance over the R fitted models.
struct BiasVarianceResult {
  Vector x_test;
  Vector truth;               // f(x) at each test point
  Vector mean_prediction;     // the "average hypothesis" E_D[h(x; D)]
  Vector bias_squared;        // per test point
  Vector variance;            // per test point
  Scalar noise_variance = 0;  // σ²
  // Averages over the test points, and their sum: the expected squared test error.
  Scalar bias_squared_mean = 0, variance_mean = 0, expected_error = 0;
  Tensor predictions;  // R × (test points): every fitted model's predictions
};

namespace detail {
// Training set r of the experiment: n inputs (n×1) and noisy targets. Throws ValueError for bad
// options.
std::pair<Tensor, Vector> bias_variance_dataset(const std::function<Scalar(Scalar)>& f,
                                                const BiasVarianceOptions& options, Index r);
void check_bias_variance_options(const BiasVarianceOptions& options);
// Fills every field of the result from its predictions, truth and noise variance.
void summarize_bias_variance(BiasVarianceResult& result);
}  // namespace detail

// Runs the experiment for copies of `estimator` (any SupervisedEstimator taking a one-column X). Datasets
// are fitted in parallel (TBB), each writing its own row of predictions; the reduction is then a
// fixed-order loop, so the result does not depend on the thread count. Throws ValueError for bad
// options or an empty x_test, and whatever the estimator throws.
template <SupervisedEstimator E>
BiasVarianceResult bias_variance(const E& estimator, const std::function<Scalar(Scalar)>& f, const Vector& x_test,
                                 const BiasVarianceOptions& options = {}) {
  detail::check_bias_variance_options(options);
  if (x_test.size() == 0) throw ValueError("bias_variance: expected at least one test point, found none");
  BiasVarianceResult result;
  result.x_test = x_test;
  result.truth = x_test.unaryExpr(f);
  result.noise_variance = options.noise_std * options.noise_std;
  result.predictions = Tensor::Zero(options.num_datasets, x_test.size());
  const Tensor X_test = x_test;
  tbb::parallel_for(tbb::blocked_range<Index>(0, options.num_datasets, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index r = range.begin(); r < range.end(); ++r) {
      const auto [X, y] = detail::bias_variance_dataset(f, options, r);
      E model = estimator;
      model.fit(X, y);
      result.predictions.row(r) = model.predict(X_test).transpose();
    }
  });
  detail::summarize_bias_variance(result);
  return result;
}

}  // namespace dagml
