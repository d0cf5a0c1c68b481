// GaussianProcessClassifier against scikit-learn 1.2.1 (gpc_reference.py beside this file prints
// the numbers): the Laplace approximation's marginal likelihood, its gradient (Algorithm 5.1, with
// ∂K/∂θ by autodiff) and the probabilities at fixed hyperparameters; the hyperparameters optimised
// from the same start; one-vs-rest probabilities for three classes; then the gradient against
// finite differences, the mode's stationarity, and bad input.
#include "models/gp/gaussian_process_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <tbb/global_control.h>

#include <cmath>
#include <vector>

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
  const auto log_q = [&](const Kernel& at) {
    return BinaryLaplaceGp::log_marginal_likelihood(at, X, kTwoClasses, {}, nullptr);
  };
  for (Index j = 0; j < theta.size(); ++j)
    EXPECT_NEAR(gradient[j], testing::central_difference(*kernel, theta, j, log_q), 1e-6) << "θ" << j;
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

// n = 150 points (one 256-row tile of the blocked factorisation and inverse; several tiles are
// tested in tests/autodiff/blocked_cholesky_test.cpp): a Kronecker sequence in the plane with
// labels from a smooth boundary.
Tensor kronecker_rows_150() {
  Tensor X(150, 2);
  for (Index i = 0; i < 150; ++i) {
    const Scalar u = static_cast<Scalar>(i + 1) * std::sqrt(2.0), v = static_cast<Scalar>(i + 1) * std::sqrt(3.0);
    X(i, 0) = 3 * (u - std::floor(u));
    X(i, 1) = 3 * (v - std::floor(v));
  }
  return X;
}
Vector boundary_labels(const Tensor& X) {
  Vector t(X.rows());
  for (Index i = 0; i < X.rows(); ++i) t[i] = std::sin(2 * X(i, 0)) + X(i, 1) > 1.5 ? 1.0 : 0.0;
  return t;
}

// Algorithm 5.1 as Rasmussen & Williams write it, with dense solves: R = W½ B⁻¹ W½ by two
// triangular solves, C = L⁻¹ W½ K, s₂ = −½ (diag K − diag CᵀC) ⊙ ∂W/∂f̂, u = s₂ − R K s₂,
// K̄ = ½ a aᵀ − ½ R + u gᵀ at the mode of BinaryLaplaceGp::fit; then ⟨K̄, ∂K/∂θ⟩ by
// kernel_graph_gradient. The evaluator gets B⁻¹ from a blocked triangular inverse and s₂ from
// diag B⁻¹ instead: the two agree to rounding.
Vector textbook_gradient(const KernelPtr& kernel, const Tensor& X, const Vector& t) {
  BinaryLaplaceGp gp;
  gp.fit(kernel, X, t, {});
  const Tensor K = kernel->gram(X);
  const Vector f = gp.mode();
  const Vector pi = f.unaryExpr([](Scalar v) { return 1 / (1 + std::exp(-v)); });
  const Vector w = (pi.array() * (1 - pi.array())).matrix(), sqrt_w = w.cwiseSqrt();
  Eigen::MatrixXd B = sqrt_w.asDiagonal() * K * sqrt_w.asDiagonal();
  B.diagonal().array() += 1;
  const Eigen::LLT<Eigen::MatrixXd> llt(B);
  const Vector g = t - pi;
  const Vector a = g;  // at the mode, a = K⁻¹ f̂ = ∇log p(t | f̂)
  const Eigen::MatrixXd R = sqrt_w.asDiagonal() * llt.solve(Eigen::MatrixXd(sqrt_w.asDiagonal()));
  const Eigen::MatrixXd C = llt.matrixL().solve(Eigen::MatrixXd(sqrt_w.asDiagonal() * K));
  const Vector dW = (w.array() * (1 - 2 * pi.array())).matrix();
  const Vector s2 = -0.5 * (K.diagonal() - C.colwise().squaredNorm().transpose()).cwiseProduct(dW);
  const Vector u = s2 - R * (K * s2);
  const Tensor K_adjoint = 0.5 * (a * a.transpose() - R) + u * g.transpose();
  return kernel_graph_gradient(*kernel, X, K_adjoint);
}

// Several θ through one evaluator (its buffers and graph reused), the first again at the end:
// started cold, each evaluation is bitwise that of a fresh search; started from the previous mode
// (Note [Warm mode search]), Newton's quadratic convergence lands on the same mode to rounding.
TEST(GaussianProcessClassifier, EvaluatorGradientEqualsTheTextbookAlgorithmOverSeveralBlocks) {
  const KernelPtr kernel = parse_kernel("constant(value=3) * rbf(length_scale=0.6)");
  const Tensor X = kronecker_rows_150();
  const Vector t = boundary_labels(X);
  const std::vector<Vector> thetas = {Vector{{std::log(3.0), std::log(0.6)}}, Vector{{std::log(20.0), std::log(1.7)}},
                                      Vector{{std::log(0.5), std::log(0.3)}}, Vector{{std::log(3.0), std::log(0.6)}}};
  for (const bool warm : {false, true}) {
    SCOPED_TRACE(warm ? "warm start" : "cold start");
    BinaryLaplaceGp::Evaluator evaluator(*kernel, X, t, {.warm_start = warm});
    std::vector<Vector> found;
    for (const Vector& theta : thetas) {
      const KernelPtr at = kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
      Vector gradient;
      const Scalar log_q = evaluator.evaluate(*at, &gradient);
      const Scalar cold = BinaryLaplaceGp::log_marginal_likelihood(*at, X, t, {}, nullptr);
      if (warm)
        EXPECT_NEAR(log_q, cold, 1e-12 * std::abs(cold));
      else
        EXPECT_EQ(log_q, cold);
      const Vector expected = textbook_gradient(at, X, t);
      ASSERT_EQ(gradient.size(), 2);
      for (Index j = 0; j < 2; ++j)
        EXPECT_NEAR(gradient[j], expected[j], 1e-9 * (1 + std::abs(expected[j]))) << "θ" << j;
      // and central differences
      const auto log_q_at = [&](const Kernel& k) {
        return BinaryLaplaceGp::log_marginal_likelihood(k, X, t, {}, nullptr);
      };
      for (Index j = 0; j < 2; ++j)
        EXPECT_NEAR(gradient[j], testing::central_difference(*kernel, theta, j, log_q_at),
                    1e-5 * (1 + std::abs(gradient[j])))
            << "θ" << j;
      found.push_back(gradient);
    }
    if (warm)
      for (Index j = 0; j < 2; ++j) EXPECT_NEAR(found[0][j], found[3][j], 1e-9 * (1 + std::abs(found[0][j])));
    else
      EXPECT_EQ(found[0], found[3]);  // nothing of an earlier θ leaks into a later evaluation
  }
}

TEST(GaussianProcessClassifier, EvaluatorDoesNotDependOnTheThreadCount) {
  const KernelPtr kernel = parse_kernel("constant(value=3) * rbf(length_scale=0.6)");
  const Tensor X = kronecker_rows_150();
  const Vector t = boundary_labels(X);
  Vector gradient[2];
  Scalar log_q[2];
  for (int k = 0; k < 2; ++k) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(k == 0 ? 1 : 4));
    log_q[k] = BinaryLaplaceGp::Evaluator(*kernel, X, t, {}).evaluate(*kernel, &gradient[k]);
  }
  EXPECT_EQ(log_q[0], log_q[1]);
  EXPECT_EQ(gradient[0], gradient[1]);
}

TEST(GaussianProcessClassifier, ReplayedKernelGradientEqualsAFreshGraph) {
  // A sum and a product, an ARD length scale and a fixed hyperparameter: the replayed graph of
  // KernelGramGradient gives, bit for bit, the gradient of a graph built for each θ.
  const KernelPtr kernel = parse_kernel(
      "constant(value=1.5) * matern(nu=2.5, length_scale=[0.7, 1.3]) + white(noise=0.1, noise_bounds=fixed)");
  const Tensor X = testing::curve_rows_30();
  KernelGramGradient replay(*kernel, X);
  for (int k = 0; k < 3; ++k) {
    const Vector theta = kernel->free_log_hyperparameters() + Vector::Constant(3, 0.3 * k - 0.2);
    const KernelPtr at = kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
    Tensor K_adjoint(30, 30);
    for (Index i = 0; i < 30; ++i)
      for (Index j = 0; j < 30; ++j) K_adjoint(i, j) = std::sin(0.1 * static_cast<double>(i * 30 + j) + k);
    const Vector fresh = kernel_graph_gradient(*at, X, K_adjoint);
    ASSERT_EQ(fresh.size(), 3);
    EXPECT_EQ(replay(*at, K_adjoint), fresh) << k;
  }
  EXPECT_THROW(replay(*parse_kernel("rbf(length_scale=1)"), Tensor::Zero(30, 30)), ShapeError);
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
