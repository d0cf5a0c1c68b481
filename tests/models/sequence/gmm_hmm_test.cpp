// GmmHmm (models/sequence/gmm_hmm.h): one Baum–Welch iteration against the M-step of the header
// computed from brute-force posteriors, M = 1 against GaussianHmm, and recovery of bimodal
// emissions.
#include "models/sequence/gmm_hmm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "models/sequence/gaussian_hmm.h"
#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

using hmm_test::brute_force_hmm;

const Vector kGmmStart{{0.5, 0.5}};
const Tensor kGmmTransition{{0.8, 0.3}, {0.2, 0.7}};
// Two states in 1-D, each a mixture of two components (state after state).
const Tensor kGmmMeans{{-3.0}, {-1.0}, {1.0}, {4.0}};
const Tensor kGmmVariances{{0.5}, {0.3}, {0.4}, {1.0}};
const Tensor kGmmWeights{{0.3, 0.7}, {0.6, 0.4}};

Scalar normal_log_density(Scalar x, Scalar mean, Scalar variance) {
  return -0.5 * std::log(2 * std::numbers::pi * variance) - 0.5 * (x - mean) * (x - mean) / variance;
}

GmmHmm given_gmm_hmm(Index max_iterations = 0, Scalar reg_covar = 0) {
  GmmHmm hmm({.num_states = 2, .num_mixtures = 2, .reg_covar = reg_covar, .initial_start = kGmmStart,
              .initial_transition = kGmmTransition, .initial_means = kGmmMeans, .initial_covariances = kGmmVariances,
              .initial_weights = kGmmWeights, .max_iterations = max_iterations, .tolerance = 0});
  return hmm;
}

TEST(GmmHmm, OneBaumWelchIterationByHand) {
  const Tensor X{{-2.8}, {-0.5}, {1.2}, {3.5}, {0.9}, {-1.3}};
  const Scalar reg_covar = 1e-3;
  GmmHmm hmm = given_gmm_hmm(1, reg_covar);
  hmm.fit(X);
  // Component log densities and state log emissions at θ_0, computed directly.
  Tensor component(6, 4), log_emission(6, 2);
  for (Index n = 0; n < 6; ++n) {
    for (Index c = 0; c < 4; ++c)
      component(n, c) = std::log(kGmmWeights(c / 2, c % 2)) + normal_log_density(X(n, 0), kGmmMeans(c, 0), kGmmVariances(c, 0));
    for (Index k = 0; k < 2; ++k)
      log_emission(n, k) = std::log(std::exp(component(n, 2 * k)) + std::exp(component(n, 2 * k + 1)));
  }
  const auto exact = brute_force_hmm(log_emission, kGmmStart, kGmmTransition);
  // γ_n(k, m) = γ_n(k) w_km N_km(x_n) / p(x_n | k), then weighted fits.
  Tensor split(6, 4);
  for (Index n = 0; n < 6; ++n)
    for (Index c = 0; c < 4; ++c) split(n, c) = exact.state(n + 1, c / 2) * std::exp(component(n, c) - log_emission(n, c / 2));
  Tensor means(4, 1), variances(4, 1), weights(2, 2);
  for (Index c = 0; c < 4; ++c) {
    const Scalar mass = split.col(c).sum();
    means(c, 0) = split.col(c).dot(X.col(0)) / mass;
    variances(c, 0) = (split.col(c).array() * (X.col(0).array() - means(c, 0)).square()).sum() / mass + reg_covar;
    weights(c / 2, c % 2) = mass / (split.col(2 * (c / 2)).sum() + split.col(2 * (c / 2) + 1).sum());
  }
  Tensor transition = exact.transition;
  for (Index j = 0; j < 2; ++j) transition.col(j) /= transition.col(j).sum();
  EXPECT_LT((hmm.start_probabilities() - exact.state.row(0).transpose()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.transition() - transition).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.means() - means).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.covariances() - variances).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.weights() - weights).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(GmmHmm, OneComponentIsTheGaussianHmm) {
  const Tensor X = given_gmm_hmm().fit(Tensor::Zero(1, 1)).sample(300, 2).X;
  const Tensor means{{-2.0}, {2.0}}, variances{{1.0}, {1.5}};
  GmmHmm mixture({.num_states = 2, .num_mixtures = 1, .initial_means = means, .initial_covariances = variances,
                  .max_iterations = 15, .tolerance = 0});
  GaussianHmm gaussian({.num_states = 2, .initial_means = means, .initial_covariances = variances,
                        .max_iterations = 15, .tolerance = 0});
  mixture.fit(X);
  gaussian.fit(X);
  EXPECT_LT((mixture.transition() - gaussian.transition()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((mixture.means() - gaussian.means()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((mixture.covariances() - gaussian.covariances()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(mixture.log_likelihood(), gaussian.log_likelihood(), 1e-9);
  EXPECT_EQ(mixture.weights(), Tensor::Ones(2, 1));
}

TEST(GmmHmm, FitsBimodalEmissionsBetterThanOneGaussian) {
  GmmHmm truth = given_gmm_hmm();
  truth.fit(Tensor::Zero(1, 1));
  const HmmSample s = truth.sample(3000, 6);
  GmmHmm mixture({.num_states = 2, .num_mixtures = 2, .max_iterations = 300, .seed = 1});
  mixture.fit(s.X);
  GaussianHmm gaussian({.num_states = 2, .max_iterations = 300, .seed = 1});
  gaussian.fit(s.X);
  EXPECT_EQ(mixture.likelihood_decreases(), 0);
  EXPECT_TRUE(mixture.converged());
  EXPECT_GT(mixture.score(s.X), gaussian.score(s.X) + 50);
  EXPECT_GT(mixture.score(s.X), truth.score(s.X) - 5);  // a maximum near the truth's likelihood
  // Its weights are distributions, and the components found match the truth's means up to order.
  EXPECT_LT((mixture.weights().rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  std::vector<Scalar> found(mixture.means().data(), mixture.means().data() + 4);
  std::sort(found.begin(), found.end());
  const std::vector<Scalar> expected{-3.0, -1.0, 1.0, 4.0};
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(found[static_cast<std::size_t>(c)], expected[static_cast<std::size_t>(c)], 0.25);
}

TEST(GmmHmm, BadOptions) {
  EXPECT_THROW(GmmHmm({.num_mixtures = 0}), ValueError);
  EXPECT_THAT([] { GmmHmm({.num_states = 2, .num_mixtures = 2, .initial_means = Tensor::Zero(3, 1)}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("num_states × num_mixtures = 4 rows, found 3×1")));
  EXPECT_THAT([] { GmmHmm({.num_states = 2, .num_mixtures = 2, .initial_weights = Tensor::Constant(2, 2, 0.4)}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("each row ≥ 0 summing to 1")));
  EXPECT_THAT([] { GmmHmm({.num_states = 3, .num_mixtures = 2}).fit(Tensor::Constant(8, 1, 1.0)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("num_states × num_mixtures = 6 distinct points")));
}

}  // namespace
}  // namespace dagml
