// Importance sampling: hand-computed weights, no overflow at extreme log weights, the effective
// sample size, and, on the Bayesian linear-regression posterior with a Gaussian proposal, the
// evidence estimate against the closed form and the self-normalised posterior mean against the
// exact one (both within 5 Monte Carlo standard errors).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include <Eigen/Cholesky>

#include "graph/error.h"
#include "graph/random.h"
#include "models/bayes/importance_sampling.h"
#include "models/bayes/linear_gaussian_evidence.h"
#include "models/bayes/posterior_problem.h"

namespace dagml {
namespace {

using testing::vec;

TEST(ImportanceSampling, WeightsByHand) {
  // w̃ = (1, 2, 1): w̄ = (¼, ½, ¼), (1/N)Σw̃ = 4/3, ESS = 16/6.
  const ImportanceWeights w = importance_weights(vec({0, std::log(2.0), 0}), vec({0, 0, 0}));
  EXPECT_TRUE(w.weights.isApprox(vec({0.25, 0.5, 0.25}), 1e-15));
  EXPECT_NEAR(w.log_evidence, std::log(4.0 / 3.0), 1e-15);
  EXPECT_NEAR(w.effective_sample_size, 16.0 / 6.0, 1e-14);
  EXPECT_NEAR(importance_estimate(w, vec({4, 8, 0})), 5, 1e-14);
  const Vector two = importance_estimate(w, testing::rows({{4, 1}, {8, 1}, {0, 1}}));
  EXPECT_TRUE(two.isApprox(vec({5, 1}), 1e-14));
}

TEST(ImportanceSampling, ExtremeLogWeightsDoNotOverflow) {
  // exp(1000) overflows a double; the weights are e/(1+e) and 1/(1+e) all the same.
  const ImportanceWeights w = importance_weights(vec({1000, 1001}), vec({0, 0}));
  const Scalar e = std::numbers::e;
  EXPECT_TRUE(w.weights.isApprox(vec({1 / (1 + e), e / (1 + e)}), 1e-14));
  EXPECT_NEAR(w.log_evidence, 1001 + std::log1p(1 / e) - std::log(2.0), 1e-12);
  const ImportanceWeights tiny =
      importance_weights(vec({-2000, -2000, -std::numeric_limits<Scalar>::infinity()}), vec({0, 0, 0}));
  EXPECT_TRUE(tiny.weights.isApprox(vec({0.5, 0.5, 0}), 1e-15));
  EXPECT_NEAR(tiny.effective_sample_size, 2, 1e-14);
  // f may be infinite where the weight is zero.
  EXPECT_NEAR(importance_estimate(tiny, vec({1, 3, testing::kInf})), 2, 1e-15);
  EXPECT_EQ(log_sum_exp(Vector()), -std::numeric_limits<Scalar>::infinity());
}

TEST(ImportanceSampling, EvidenceAndPosteriorMeanOfTheRegressionModel) {
  // Target p(w, y) = p(y|w)p(w) (normalised joint), proposal q = N(m, 4S) around the exact
  // posterior N(m, S): heavier tails than the posterior, so the weights have finite variance.
  const testing::RegressionPosterior problem;
  const auto blr = problem.exact();
  const Vector m = blr.posterior_mean();
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(4 * Eigen::MatrixXd(blr.posterior_covariance())).matrixL();
  const Index N = 40000, n = problem.y.size();
  // log p(w, y) = log N(y; Xw, σ²I) + log N(w; 0, α⁻¹I).
  const Scalar log_2pi = std::log(2 * std::numbers::pi);
  const Scalar joint_constant = -0.5 * n * (log_2pi + std::log(problem.noise_variance)) +
                                -0.5 * 2 * (log_2pi - std::log(problem.prior_precision));
  std::mt19937_64 rng(11);
  Tensor draws(N, 2);
  Vector log_target(N), log_proposal(N);
  for (Index i = 0; i < N; ++i) {
    const Vector e{{standard_normal(rng), standard_normal(rng)}};
    const Vector w = m + L * e;
    draws.row(i) = w.transpose();
    log_target[i] = problem.log_density(w) + joint_constant;
    log_proposal[i] = -0.5 * e.squaredNorm() - log_2pi - L.diagonal().array().log().sum();
  }
  const ImportanceWeights weights = importance_weights(log_target, log_proposal);
  // The evidence: (1/N)Σw̃ is unbiased, with relative standard error sd(w̃)/(mean(w̃)√N).
  const Vector w_tilde = (weights.log_weights.array() - weights.log_weights.maxCoeff()).exp().matrix();
  const Scalar relative_se = std::sqrt((w_tilde.array() - w_tilde.mean()).square().sum() / (N - 1)) /
                             (w_tilde.mean() * std::sqrt(static_cast<Scalar>(N)));
  const Scalar exact =
      linear_gaussian_log_evidence({.X = problem.X, .prior_precision = 2, .noise_variance = 0.25}, problem.y);
  EXPECT_NEAR(std::exp(weights.log_evidence - exact), 1, 5 * relative_se);
  EXPECT_LT(relative_se, 0.01);
  EXPECT_GT(weights.effective_sample_size, 0.3 * N);
  EXPECT_LT(weights.effective_sample_size, N);
  // The self-normalised posterior mean, standard error √(Σ w̄²(f − estimate)²) (delta method).
  const Vector mean = importance_estimate(weights, draws);
  for (Index j = 0; j < 2; ++j) {
    const Scalar se = std::sqrt((weights.weights.array().square() * (draws.col(j).array() - mean[j]).square()).sum());
    EXPECT_NEAR(mean[j], m[j], 5 * se) << "coordinate " << j;
    EXPECT_LT(se, 0.02 * std::sqrt(blr.posterior_covariance()(j, j)));
  }
}

TEST(ImportanceSampling, BadInput) {
  const Scalar inf = testing::kInf;
  EXPECT_THROW(importance_weights(Vector(), Vector()), ValueError);
  EXPECT_THROW(importance_weights(vec({0, 0}), vec({0})), ValueError);
  EXPECT_THROW(importance_weights(vec({testing::kNaN}), vec({0})), ValueError);
  EXPECT_THROW(importance_weights(vec({inf}), vec({0})), ValueError);
  EXPECT_THROW(importance_weights(vec({0}), vec({-inf})), ValueError);
  EXPECT_THROW(importance_weights(vec({-inf, -inf}), vec({0, 0})), ValueError);
  const ImportanceWeights w = importance_weights(vec({0, 0}), vec({0, 0}));
  EXPECT_THROW(importance_estimate(w, vec({1, 2, 3})), ShapeError);
  EXPECT_THROW(importance_estimate(w, vec({1, testing::kNaN})), ValueError);
}

}  // namespace
}  // namespace dagml
