// GaussianProcessRegressor against scikit-learn 1.2.1 (gp_reference.py beside this file prints
// the numbers): the log marginal likelihood, its gradient, the predictive mean, standard deviation
// and covariance at fixed hyperparameters (1e-8), and the hyperparameters optimised from the same
// start (1e-3) with an equal or better likelihood. Then the identities of notes 004 §3.4 (the GP
// mean is kernel ridge regression with λ = σ²), the O(n²) update against a refit, posterior
// samples with the predicted covariance, the jitter policy, restarts and bad input.
#include "models/gp/gaussian_process_regressor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/kernel/kernel_io.h"
#include "models/kernel/kernel_ridge.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// gp_reference.py's data.
Tensor training_rows() {
  Tensor X(20, 2);
  for (Index t = 0; t < 20; ++t) {
    X(t, 0) = std::sin(0.7 * static_cast<double>(t)) * 1.5;
    X(t, 1) = std::cos(1.3 * static_cast<double>(t)) + 0.1 * static_cast<double>(t);
  }
  return X;
}
Vector training_targets(const Tensor& X) {
  Vector y(X.rows());
  for (Index t = 0; t < X.rows(); ++t)
    y[t] = std::sin(X(t, 0)) * 2 + 0.5 * X(t, 1) * X(t, 1) + 0.1 * std::cos(5.0 * static_cast<double>(t));
  return y;
}
Tensor test_rows() { return (Tensor(3, 2) << 0.2, 0.3, -1.0, 1.5, 1.4, 2.2).finished(); }

void expect_near(const Vector& got, std::initializer_list<double> expected, double tolerance, const char* what) {
  ASSERT_EQ(got.size(), static_cast<Index>(expected.size())) << what;
  Index i = 0;
  for (double e : expected) {
    EXPECT_NEAR(got[i], e, tolerance * std::max(1.0, std::abs(e))) << what << " entry " << i;
    ++i;
  }
}

TEST(GaussianProcessRegressor, FixedHyperparametersMatchScikitLearn) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  const KernelPtr kernel = parse_kernel("constant(value=2) * matern(nu=2.5, length_scale=0.7) + white(noise=0.05)");
  GaussianProcessRegressor gp({.kernel = kernel, .optimize = false});
  gp.fit(X, y);
  EXPECT_NEAR(gp.log_marginal_likelihood(), -30.44575559414867, 1e-9);
  const auto [lml, gradient] = gp.log_marginal_likelihood(kernel->free_log_hyperparameters());
  EXPECT_NEAR(lml, -30.44575559414867, 1e-9);
  expect_near(gradient, {3.3378282792434417, 14.924308972268362, -1.080655842994256}, 1e-8, "gradient");
  const auto p = gp.predict_with_std(test_rows());
  expect_near(p.mean, {0.49858035710425175, -0.41279366436851955, 3.654086834577811}, 1e-8, "mean");
  expect_near(p.std, {1.0496517299790742, 0.7259106172834383, 0.9728037617823061}, 1e-8, "std");
  const Tensor cov = gp.predict_covariance(test_rows());
  expect_near(cov.row(0).transpose(), {1.1017687542480634, -0.0017841267605435418, 0.013093714198253035}, 1e-8, "cov");
  EXPECT_TRUE(cov.diagonal().cwiseSqrt().isApprox(p.std, 1e-12));
  EXPECT_EQ(gp.fit_report().search.runs.size(), 0u);
  EXPECT_EQ(gp.fit_report().jitter, 0);
}

TEST(GaussianProcessRegressor, NormalizedTargetsMatchScikitLearn) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  GaussianProcessRegressor gp(
      {.kernel = parse_kernel("constant(value=2) * matern(nu=2.5, length_scale=0.7) + white(noise=0.05)"),
       .optimize = false,
       .normalize_y = true});
  gp.fit(X, y);
  EXPECT_NEAR(gp.log_marginal_likelihood(), -20.95498457592611, 1e-9);
  const auto p = gp.predict_with_std(test_rows());
  expect_near(p.mean, {0.759947089615663, -0.449268818270101, 3.849719424632138}, 1e-8, "mean");
  expect_near(p.std, {1.9707299778328196, 1.3629033076867492, 1.8264472692586786}, 1e-8, "std");
  const auto [lml, gradient] = gp.log_marginal_likelihood(gp.fitted_kernel()->free_log_hyperparameters());
  expect_near(gradient, {-5.928683463214241, 10.76123938651204, -1.3049151183106262}, 1e-8, "gradient");
}

TEST(GaussianProcessRegressor, OptimisedHyperparametersMatchScikitLearnFromTheSameStart) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  struct Case {
    const char* kernel;
    std::initializer_list<double> theta;
    double lml;
    std::initializer_list<double> mean, std;
  };
  const Case cases[] = {
      {"constant(value=1) * rbf(length_scale=1) + white(noise=0.1)",
       {2.8394663367583313, 0.9330305170654215, -5.297649514611366},
       -5.595673418495789,
       {0.47035731885286935, -0.49627921749107884, 4.6489703369427104},
       {0.10767292305288799, 0.08931889048420359, 0.15722300905701747}},
      {"constant(value=1) * rbf(length_scale=[1, 1]) + white(noise=0.1)",
       {3.5208574374232042, 0.9646987345702834, 1.3413386465897699, -5.395063299683333},
       -4.353636329040626,
       {0.4655408706522053, -0.5142426896149033, 4.568795443120024},
       {0.0999922905398676, 0.08052906703569972, 0.1390451022712298}},
  };
  for (const Case& c : cases) {
    GaussianProcessRegressor gp({.kernel = parse_kernel(c.kernel)});
    gp.fit(X, y);
    const auto& run = gp.fit_report().search.runs.at(0).result;
    EXPECT_TRUE(run.converged()) << c.kernel << ": " << run.message;
    expect_near(gp.fitted_kernel()->free_log_hyperparameters(), c.theta, 1e-3, c.kernel);
    EXPECT_GE(gp.log_marginal_likelihood(), c.lml - 1e-7) << c.kernel;
    EXPECT_NEAR(gp.log_marginal_likelihood(), c.lml, 1e-4) << c.kernel;
    const auto p = gp.predict_with_std(test_rows());
    expect_near(p.mean, c.mean, 1e-3, c.kernel);
    expect_near(p.std, c.std, 1e-3, c.kernel);
  }
}

TEST(GaussianProcessRegressor, MeanIsKernelRidgeWithLambdaTheNoise) {
  // Notes 004 §3.4: for λ = σ², kernel ridge regression's prediction is the GP posterior mean.
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  const KernelPtr kernel = parse_kernel("rbf(gamma=0.4)");
  GaussianProcessRegressor gp({.kernel = kernel, .alpha = 0.3, .optimize = false});
  KernelRidge krr({.kernel = kernel, .lambda = 0.3});
  EXPECT_TRUE(gp.fit(X, y).predict(test_rows()).isApprox(krr.fit(X, y).predict(test_rows()), 1e-12));
}

TEST(GaussianProcessRegressor, AddingAnObservationEqualsRefitting) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  const KernelPtr kernel = parse_kernel("constant(value=2) * matern(nu=1.5, length_scale=0.8)");
  GaussianProcessRegressor incremental({.kernel = kernel, .alpha = 1e-2, .optimize = false, .normalize_y = true});
  incremental.fit(X.topRows(15), y.head(15));
  for (Index i = 15; i < 20; ++i) incremental.add_observation(X.row(i).transpose(), y[i]);
  // A refit would renormalise y over all 20 points; with normalize_y off both see the same targets.
  GaussianProcessRegressor a({.kernel = kernel, .alpha = 1e-2, .optimize = false});
  GaussianProcessRegressor b = a;
  a.fit(X.topRows(15), y.head(15));
  for (Index i = 15; i < 20; ++i) a.add_observation(X.row(i).transpose(), y[i]);
  b.fit(X, y);
  const auto pa = a.predict_with_std(test_rows()), pb = b.predict_with_std(test_rows());
  EXPECT_TRUE(pa.mean.isApprox(pb.mean, 1e-10));
  EXPECT_TRUE(pa.std.isApprox(pb.std, 1e-10));
  EXPECT_NEAR(a.log_marginal_likelihood(), b.log_marginal_likelihood(), 1e-9);
  EXPECT_EQ(incremental.training_data().rows(), 20);
  EXPECT_THROW(a.add_observation(X.row(0).transpose(), std::nan("")), ValueError);
  EXPECT_THROW(a.add_observation(Vector::Zero(3), 1.0), ShapeError);
}

TEST(GaussianProcessRegressor, PosteriorSamplesHaveThePredictedCovariance) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  GaussianProcessRegressor gp({.kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.9) + white(noise=0.05)"),
                               .optimize = false});
  gp.fit(X, y);
  const Index N = 20000;
  const Tensor draws = gp.sample_posterior(test_rows(), N, 7);
  ASSERT_EQ(draws.rows(), 3);
  ASSERT_EQ(draws.cols(), N);
  const Vector mean = gp.predict(test_rows());
  const Tensor cov = gp.predict_covariance(test_rows());
  const Tensor centred = draws.colwise() - mean;
  const Tensor sample_cov = centred * centred.transpose() / static_cast<double>(N);
  for (Index i = 0; i < 3; ++i) {
    // Mean: standard error √(Σᵢᵢ/N); covariance: √((ΣᵢᵢΣⱼⱼ + Σᵢⱼ²)/N). Five standard errors.
    EXPECT_NEAR(draws.row(i).mean(), mean[i], 5 * std::sqrt(cov(i, i) / N));
    for (Index j = 0; j < 3; ++j)
      EXPECT_NEAR(sample_cov(i, j), cov(i, j), 5 * std::sqrt((cov(i, i) * cov(j, j) + cov(i, j) * cov(i, j)) / N));
  }
  EXPECT_EQ(gp.sample_posterior(test_rows(), 4, 7), gp.sample_posterior(test_rows(), 4, 7));
  const Tensor prior = GaussianProcessRegressor::sample_prior(*parse_kernel("rbf(gamma=1)"), test_rows(), N, 3);
  EXPECT_NEAR((prior.row(0).array().square().mean()), 1.0, 5 * std::sqrt(2.0 / N));
}

TEST(GaussianProcessRegressor, JitterMakesASingularKernelMatrixFactoriseAndIsRecorded) {
  // A linear kernel on 20 points in 2-D has rank 2: K + 0·I is singular.
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  GaussianProcessRegressor gp({.kernel = parse_kernel("linear"), .alpha = 0, .optimize = false});
  gp.fit(X, y);
  EXPECT_GT(gp.fit_report().jitter, 0);
  EXPECT_TRUE(gp.predict(test_rows()).allFinite());
  GaussianProcessRegressor strict({.kernel = parse_kernel("linear"), .alpha = 0, .optimize = false,
                                   .max_relative_jitter = 1e-13});
  EXPECT_THAT([&] { strict.fit(X, y); }, ThrowsMessage<NumericalError>(HasSubstr("not positive definite, even with")));
}

TEST(GaussianProcessRegressor, RestartsKeepTheBestRun) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  GaussianProcessRegressor gp({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1) + white(noise=0.1)"),
                               .restarts = 4, .seed = 3});
  gp.fit(X, y);
  const HyperparameterSearch& search = gp.fit_report().search;
  ASSERT_EQ(search.runs.size(), 5u);
  for (const HyperparameterRun& run : search.runs) EXPECT_GE(run.result.value, search.runs[search.best].result.value);
  EXPECT_NEAR(-search.runs[search.best].result.value, gp.log_marginal_likelihood(), 1e-8);
  EXPECT_GE(gp.log_marginal_likelihood(), -5.595673418495789 - 1e-7);  // at least scikit-learn's single run
}

TEST(GaussianProcessRegressor, BadInputIsAClearError) {
  const Tensor X = training_rows();
  const Vector y = training_targets(X);
  EXPECT_THROW(GaussianProcessRegressor({.alpha = -1}), ValueError);
  EXPECT_THROW(GaussianProcessRegressor({.restarts = -1}), ValueError);
  GaussianProcessRegressor gp;
  EXPECT_THROW(gp.predict(X), NotFittedError);
  Tensor bad = X;
  bad(3, 1) = std::nan("");
  EXPECT_THROW(gp.fit(bad, y), ValueError);
  EXPECT_THROW(gp.fit(X, y.head(5)), ShapeError);
  EXPECT_THAT([&] { GaussianProcessRegressor({.kernel = parse_kernel("rbf(length_scale=[1, 2, 3])")}).fit(X, y); },
              ThrowsMessage<ShapeError>(HasSubstr("expected 3 features")));
  gp.fit(X, y);
  EXPECT_THROW(gp.predict(Tensor::Zero(2, 3)), ShapeError);
  EXPECT_THROW(gp.log_marginal_likelihood(Vector::Zero(5)), ShapeError);
}

}  // namespace
}  // namespace dagml
