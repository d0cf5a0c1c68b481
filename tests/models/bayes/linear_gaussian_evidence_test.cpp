// The linear-Gaussian evidence against scipy.stats.multivariate_normal.logpdf (values from
// scipy_reference.py, SciPy 1.10), both of its branches (n ≤ d and n > d) against each other, the
// identity log p(y) = log p(y|w) + log p(w) − log p(w|y) at the BayesianLinearRegression
// posterior, Bayes factors, and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>

#include "graph/error.h"
#include "literals.h"
#include "models/bayes/linear_gaussian_evidence.h"
#include "models/linear/bayesian_linear_regression.h"

namespace dagml {
namespace {

using testing::vec;

// X and y of scipy_reference.py.
Tensor evidence_design() {
  return testing::rows(
      {{0.5, -1.2, 0.3}, {1.5, 0.4, -0.7}, {-0.3, 0.9, 1.1}, {2.0, -0.5, 0.2}, {-1.1, 1.3, -0.4}, {0.7, 0.1, 0.8}});
}
Vector evidence_targets() { return vec({0.8, 2.1, -0.4, 2.9, -1.7, 0.9}); }

TEST(LinearGaussianEvidence, MatchesScipyMultivariateNormal) {
  const Tensor X = evidence_design();
  const Vector y = evidence_targets();
  EXPECT_NEAR(linear_gaussian_log_evidence({.X = X, .prior_precision = 2, .noise_variance = 0.25}, y),
              -6.68152729731103, 1e-12);
  EXPECT_NEAR(linear_gaussian_log_evidence({.X = X, .prior_precision = 0.5, .noise_variance = 1}, y),
              -9.393796020795254, 1e-12);
  // n = 2 < d = 3: the n×n branch.
  EXPECT_NEAR(
      linear_gaussian_log_evidence({.X = X.topRows(2), .prior_precision = 2, .noise_variance = 0.25}, y.head(2)),
      -3.7209484208181687, 1e-12);
  // Bayes factor of all three features against the first two: −6.68152729731103 − (−5.768225211112764).
  const Tensor first_two = X.leftCols(2);
  EXPECT_NEAR(linear_gaussian_log_bayes_factor({.X = X, .prior_precision = 2, .noise_variance = 0.25},
                                               {.X = first_two, .prior_precision = 2, .noise_variance = 0.25}, y),
              -6.68152729731103 + 5.768225211112764, 1e-12);
}

TEST(LinearGaussianEvidence, BothBranchesAgree) {
  // n = 6 > d = 3 takes the d×d (Woodbury) branch: against log N(y; 0, C) written out by hand.
  // Zero columns do not change C = σ²I + α⁻¹XXᵀ; with d = 7 > n they send X to the n×n branch.
  const Tensor X = evidence_design();
  const Vector y = evidence_targets();
  const Scalar alpha = 1.3, s2 = 0.6;
  Eigen::MatrixXd C = Eigen::MatrixXd(X * X.transpose()) / alpha;
  C.diagonal().array() += s2;
  const Eigen::LLT<Eigen::MatrixXd> llt(C);
  const Scalar by_hand = -0.5 * (6 * std::log(2 * std::numbers::pi) +
                                 2 * llt.matrixLLT().diagonal().array().log().sum() + y.dot(llt.solve(y)));
  EXPECT_NEAR(linear_gaussian_log_evidence({.X = X, .prior_precision = alpha, .noise_variance = s2}, y), by_hand,
              1e-12);
  Tensor padded = Tensor::Zero(6, 7);
  padded.leftCols(3) = X;
  EXPECT_NEAR(linear_gaussian_log_evidence({.X = padded, .prior_precision = alpha, .noise_variance = s2}, y), by_hand,
              1e-12);
}

TEST(LinearGaussianEvidence, CandidateFormulaWithTheRegressionPosterior) {
  // Bayes' rule at any w: log p(y) = log N(y; Xw, σ²I) + log N(w; 0, α⁻¹I) − log N(w; m, S).
  const Tensor X = evidence_design();
  const Vector y = evidence_targets();
  const Scalar alpha = 2, s2 = 0.25;
  BayesianLinearRegression blr({.noise_variance = s2, .prior_variance = 1 / alpha});
  blr.fit(X, y);
  const Vector m = blr.posterior_mean();
  const Tensor S = blr.posterior_covariance();
  const Scalar log_2pi = std::log(2 * std::numbers::pi);
  const Vector w = vec({0.3, -0.2, 0.5});
  const Scalar log_likelihood = -0.5 * (6 * (log_2pi + std::log(s2)) + (y - X * w).squaredNorm() / s2);
  const Scalar log_prior = -0.5 * (3 * (log_2pi - std::log(alpha)) + alpha * w.squaredNorm());
  const Eigen::LLT<Eigen::MatrixXd> llt{Eigen::MatrixXd(S)};
  const Scalar log_posterior =
      -0.5 * (3 * log_2pi + 2 * llt.matrixLLT().diagonal().array().log().sum() + (w - m).dot(llt.solve(Vector(w - m))));
  EXPECT_NEAR(linear_gaussian_log_evidence({.X = X, .prior_precision = alpha, .noise_variance = s2}, y),
              log_likelihood + log_prior - log_posterior, 1e-11);
}

TEST(LinearGaussianEvidence, OccamEffectPrefersTheModelThatGeneratedTheData) {
  // y depends on the first feature only: the evidence prefers {x₁} to {x₁, x₂, x₃} even though
  // the larger model fits the data at least as well.
  const Tensor X = evidence_design();
  const Vector y = 1.5 * X.col(0) + vec({0.1, -0.2, 0.05, 0.15, -0.1, 0.0});
  const LinearGaussianModel all{.X = X, .prior_precision = 1, .noise_variance = 0.04};
  const LinearGaussianModel one{.X = X.leftCols(1), .prior_precision = 1, .noise_variance = 0.04};
  EXPECT_GT(linear_gaussian_log_bayes_factor(one, all, y), 0);
}

TEST(LinearGaussianEvidence, BadInput) {
  const Tensor X = evidence_design();
  const Vector y = evidence_targets();
  EXPECT_THROW(linear_gaussian_log_evidence({.X = X, .prior_precision = 0}, y), ValueError);
  EXPECT_THROW(linear_gaussian_log_evidence({.X = X, .noise_variance = -1}, y), ValueError);
  EXPECT_THROW(linear_gaussian_log_evidence({.X = X, .noise_variance = testing::kInf}, y), ValueError);
  EXPECT_THROW(linear_gaussian_log_evidence({.X = X}, y.head(5)), Error);
  Tensor bad = X;
  bad(0, 0) = testing::kNaN;
  EXPECT_THROW(linear_gaussian_log_evidence({.X = bad}, y), ValueError);
}

}  // namespace
}  // namespace dagml
