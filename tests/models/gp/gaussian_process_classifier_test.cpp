// GaussianProcessClassifier against scikit-learn 1.2.1 (gpc_reference.py beside this file prints
// the numbers): the Laplace approximation's marginal likelihood, its gradient (Algorithm 5.1, with
// ∂K/∂θ by autodiff) and the probabilities at fixed hyperparameters; the hyperparameters optimised
// from the same start; one-vs-rest probabilities for three classes; then the gradient against
// finite differences, the mode's stationarity, and bad input.
#include "models/gp/gaussian_process_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/gp/gp_test_rows.h"
#include "models/kernel/kernel_io.h"

namespace dagml {
namespace {

Vector labels(std::initializer_list<double> v) {
  Vector y(static_cast<Index>(v.size()));
  Index i = 0;
  for (double x : v) y[i++] = x;
  return y;
}
const Vector kTwoClasses = labels({0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1});
const Vector kThreeClasses = labels({1, 1, 0, 0, 2, 0, 0, 0, 0, 1, 2, 1, 0, 1, 0, 1, 0, 0, 1, 2, 2, 1, 1, 0, 1, 2, 0, 1, 2, 2});
Tensor classifier_test_rows() { return (Tensor(3, 2) << 0.2, 0.3, -1.0, 1.5, 1.4, 2.2).finished(); }

TEST(GaussianProcessClassifier, BinaryLaplaceMatchesScikitLearnAtFixedHyperparameters) {
  const KernelPtr kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.8)");
  GaussianProcessClassifier gpc({.kernel = kernel, .optimize = false});
  gpc.fit(testing::curve_rows_30(), kTwoClasses);
  EXPECT_NEAR(gpc.log_marginal_likelihood(), -17.457361138861643, 1e-8);
  Vector gradient;
  const Vector t = kTwoClasses;
  const Scalar log_q = BinaryLaplaceGp::log_marginal_likelihood(*kernel, testing::curve_rows_30(), t, {}, &gradient);
  EXPECT_NEAR(log_q, -17.457361138861643, 1e-8);
  ASSERT_EQ(gradient.size(), 2);
  EXPECT_NEAR(gradient[0], 1.204309557932772, 1e-7);
  EXPECT_NEAR(gradient[1], 0.5854840371226162, 1e-7);
  const Tensor P = gpc.predict_proba(classifier_test_rows());
  EXPECT_NEAR(P(0, 1), 0.527464859916563, 1e-8);
  EXPECT_NEAR(P(1, 1), 0.16052807393703006, 1e-8);
  EXPECT_NEAR(P(2, 1), 0.753525670190129, 1e-8);
  EXPECT_TRUE((P.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-15);
}

TEST(GaussianProcessClassifier, GradientMatchesFiniteDifferencesAndTheModeIsStationary) {
  const KernelPtr kernel = parse_kernel("constant(value=1.5) * matern(nu=2.5, length_scale=[0.7, 1.3])");
  const Tensor X = testing::curve_rows_30();
  Vector gradient;
  BinaryLaplaceGp::log_marginal_likelihood(*kernel, X, kTwoClasses, {}, &gradient);
  const Vector theta = kernel->free_log_hyperparameters();
  for (Index j = 0; j < theta.size(); ++j) {
    const Scalar h = 1e-5;
    Vector up = theta, down = theta;
    up[j] += h;
    down[j] -= h;
    const auto at = [&](const Vector& v) {
      return BinaryLaplaceGp::log_marginal_likelihood(
          *kernel->with_log_hyperparameters(std::span<const Scalar>(v.data(), v.size())), X, kTwoClasses, {}, nullptr);
    };
    EXPECT_NEAR(gradient[j], (at(up) - at(down)) / (2 * h), 1e-6) << "θ" << j;
  }
  // At the mode, ∇ log p(t | f̂) = K⁻¹ f̂.
  BinaryLaplaceGp gp;
  gp.fit(kernel, X, kTwoClasses, {});
  const Tensor K = kernel->gram(X);
  const Vector pi = gp.mode().unaryExpr([](Scalar f) { return 1 / (1 + std::exp(-f)); });
  EXPECT_LT((K * (kTwoClasses - pi) - gp.mode()).norm(), 1e-8);
}

TEST(GaussianProcessClassifier, OptimisedHyperparametersMatchScikitLearnFromTheSameStart) {
  GaussianProcessClassifier gpc({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)")});
  gpc.fit(testing::curve_rows_30(), kTwoClasses);
  const Result& run = gpc.fit_report().at(0).runs.at(0).result;
  EXPECT_TRUE(run.converged()) << run.message;
  const Vector theta = gpc.binary_gps()[0].kernel()->free_log_hyperparameters();
  EXPECT_NEAR(theta[0], 3.1535669778112183, 1e-3);
  EXPECT_NEAR(theta[1], 0.015259789336206005, 1e-3);
  EXPECT_GE(gpc.log_marginal_likelihood(), -15.823213386769165 - 1e-7);
  const Tensor P = gpc.predict_proba(classifier_test_rows());
  EXPECT_NEAR(P(0, 1), 0.5847819908514964, 1e-3);
  EXPECT_NEAR(P(1, 1), 0.06102780983121647, 1e-3);
  EXPECT_NEAR(P(2, 1), 0.8403602045799516, 1e-3);
}

TEST(GaussianProcessClassifier, ThreeClassesOneVersusRestMatchScikitLearn) {
  GaussianProcessClassifier gpc({.kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.8)"), .optimize = false});
  gpc.fit(testing::curve_rows_30(), kThreeClasses);
  ASSERT_EQ(gpc.binary_gps().size(), 3u);
  const Tensor P = gpc.predict_proba(classifier_test_rows());
  const double expected[] = {0.31923095421902214, 0.4213076248316186, 0.25946142094935926,
                             0.632404997956936,   0.23923279177102535, 0.1283622102720386,
                             0.1686632341197427,  0.30096281395502106, 0.5303739519252362};
  for (Index k = 0; k < 9; ++k) EXPECT_NEAR(P(k / 3, k % 3), expected[k], 1e-8) << k;
  EXPECT_NEAR(gpc.log_marginal_likelihood(), -17.131273443269006, 1e-8);
  EXPECT_EQ(gpc.predict(classifier_test_rows()), labels({1, 0, 2}));
}

TEST(GaussianProcessClassifier, BadInputIsAClearError) {
  EXPECT_THROW(GaussianProcessClassifier({.restarts = -1}), ValueError);
  EXPECT_THROW(GaussianProcessClassifier({.newton_tolerance = 0}), ValueError);
  GaussianProcessClassifier gpc;
  EXPECT_THROW(gpc.predict_proba(testing::curve_rows_30()), NotFittedError);
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), Vector::Zero(30)), ValueError);  // one class only
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), kTwoClasses.head(10)), ShapeError);
  Vector bad = kTwoClasses;
  bad[0] = 0.5;
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), bad), ValueError);
}

}  // namespace
}  // namespace dagml
