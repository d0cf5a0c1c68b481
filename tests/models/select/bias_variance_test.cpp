// The bias-variance experiment (notes 000 §2.2, notes000_part1.md E6): the decomposition adds up
// to a Monte-Carlo test error, the qualitative ordering of the notes, a known closed case,
// determinism.
#include <gtest/gtest.h>

#include <random>

#include "graph/threads.h"
#include "models/linear/polynomial_regression.h"
#include "models/select/bias_variance.h"

namespace dagml {
namespace {

Scalar line(Scalar x) { return 2 * x + 1; }

TEST(BiasVariance, DecompositionMatchesTheMonteCarloTestError) {
  const Vector x_test = Vector::LinSpaced(11, -1, 1);
  const BiasVarianceOptions options{.num_datasets = 400, .num_samples = 10, .noise_std = 0.5, .seed = 4};
  const auto r = bias_variance(PolynomialRegression({.degree = 2}), line, x_test, options);
  // The bias² + variance part is the mean squared deviation of the predictions from f, exactly
  // (E[(h − f)²] = (E h − f)² + Var h with the 1/R variance).
  const Tensor dev = r.predictions.rowwise() - r.truth.transpose();
  const Vector msd = dev.array().square().colwise().mean().transpose();
  EXPECT_TRUE(msd.isApprox(r.bias_squared + r.variance, 1e-10));
  // Adding fresh test noise Y = f(x) + Z gives the expected error bias² + variance + σ².
  std::mt19937_64 rng(9);
  std::normal_distribution<double> z(0, 0.5);
  double total = 0;
  for (Index k = 0; k < r.predictions.rows(); ++k)
    for (Index j = 0; j < x_test.size(); ++j) total += std::pow(r.predictions(k, j) - (r.truth(j) + z(rng)), 2);
  const double mc = total / static_cast<double>(r.predictions.size());
  EXPECT_NEAR(mc, r.expected_error, 0.05 * r.expected_error);
  EXPECT_EQ(r.noise_variance, 0.25);
}

TEST(BiasVariance, OrderingOfTheNotesExperiment) {
  // Linear truth, 10 points: degree 0 has a large bias, degrees 1 and 2 almost none; degree 2
  // has more variance than degree 1.
  const Vector x_test = Vector::LinSpaced(21, -1, 1);
  const BiasVarianceOptions options{.num_datasets = 500, .num_samples = 10, .noise_std = 0.5, .seed = 1};
  const auto p0 = bias_variance(PolynomialRegression({.degree = 0}), line, x_test, options);
  const auto p1 = bias_variance(PolynomialRegression({.degree = 1}), line, x_test, options);
  const auto p2 = bias_variance(PolynomialRegression({.degree = 2}), line, x_test, options);
  EXPECT_GT(p0.bias_squared_mean, 50 * p1.bias_squared_mean);
  EXPECT_GT(p0.bias_squared_mean, 50 * p2.bias_squared_mean);
  EXPECT_GT(p2.variance_mean, p1.variance_mean);
  // Degree 0 predicts the sample mean: its bias at x is about (f(0) − f(x))² = 4x² (inputs
  // uniform on [−1, 1] have mean 0), and its variance about (σ² + Var f(X))/n = (0.25 + 4/3)/10.
  EXPECT_NEAR(p0.bias_squared(20), 4.0, 0.3);
  EXPECT_NEAR(p0.variance_mean, (0.25 + 4.0 / 3) / 10, 0.03);
  // Degree 1: variance is lowest in the middle and higher at the edges.
  EXPECT_LT(p1.variance(10), p1.variance(0));
  EXPECT_LT(p1.variance(10), p1.variance(20));
}

TEST(BiasVariance, SameSeedSameResultForAnyThreadCount) {
  const Vector x_test = Vector::LinSpaced(5, -1, 1);
  const BiasVarianceOptions options{.num_datasets = 50, .seed = 7};
  set_num_threads(1);
  const auto a = bias_variance(PolynomialRegression({.degree = 1}), line, x_test, options);
  set_num_threads(2);
  const auto b = bias_variance(PolynomialRegression({.degree = 1}), line, x_test, options);
  set_num_threads(0);
  EXPECT_EQ(a.predictions, b.predictions);
  EXPECT_EQ(a.variance, b.variance);
}

TEST(BiasVariance, BadOptionsAreAClearError) {
  const Vector x = Vector::LinSpaced(3, 0, 1);
  const PolynomialRegression m({.degree = 1});
  EXPECT_THROW(bias_variance(m, line, x, {.num_datasets = 1}), ValueError);
  EXPECT_THROW(bias_variance(m, line, x, {.num_samples = 0}), ValueError);
  EXPECT_THROW(bias_variance(m, line, x, {.noise_std = -1}), ValueError);
  EXPECT_THROW(bias_variance(m, line, x, {.x_min = 1, .x_max = 1}), ValueError);
  EXPECT_THROW(bias_variance(m, line, Vector(), {}), ValueError);
}

}  // namespace
}  // namespace dagml
