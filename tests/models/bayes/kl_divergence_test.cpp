// Closed-form KL divergences against SciPy (scipy_reference.py: scipy.stats.entropy for the
// discrete ones, numerical integration for Gamma, Beta and the 1-D Gaussian, the Poisson series,
// NumPy's inverse/slogdet for the full-covariance Gaussian, the Dirichlet closed form with
// scipy.special confirmed by Monte Carlo), the notes' worked values, KL(p‖p) = 0, KL ≥ 0, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "literals.h"
#include "models/bayes/kl_divergence.h"

namespace dagml {
namespace {

using testing::rows;
using testing::vec;

TEST(KlDivergence, DiscreteAgainstScipyEntropy) {
  EXPECT_NEAR(kl_categorical(vec({0.5, 0.5}), vec({0.9, 0.1})), 0.5108256237659907, 1e-15);  // notes 004 §2.2
  EXPECT_NEAR(kl_categorical(vec({0.9, 0.1}), vec({0.5, 0.5})), 0.3680642071684971, 1e-14);  // notes: 0.3680642072
  EXPECT_NEAR(kl_categorical(vec({0.2, 0.3, 0.5}), vec({0.1, 0.6, 0.3})), 0.18609809382700082, 1e-15);
  EXPECT_NEAR(kl_categorical(vec({0, 0.4, 0.6}), vec({0.3, 0.3, 0.4})), 0.35835189384561095, 1e-15);
  EXPECT_NEAR(kl_bernoulli(0.3, 0.6), 0.18378689738681217, 1e-15);
  EXPECT_EQ(kl_categorical(vec({0.5, 0.5}), vec({1, 0})), std::numeric_limits<Scalar>::infinity());
  EXPECT_EQ(kl_bernoulli(1, 1), 0);
  EXPECT_NEAR(kl_poisson(3, 5.5), 0.6815925892890534, 1e-13);
}

TEST(KlDivergence, ContinuousAgainstScipyIntegration) {
  // Gamma(shape 2, rate 1.5) ‖ Gamma(3, 0.5); Beta(2, 3) ‖ Beta(1.5, 0.8): quad to ~1e-12.
  EXPECT_NEAR(kl_gamma(2, 1.5, 3, 0.5), 2.2328663781324756, 1e-10);
  EXPECT_NEAR(kl_beta(2, 3, 1.5, 0.8), 0.5369946355929622, 1e-10);
  EXPECT_NEAR(kl_diagonal_gaussian(vec({1}), vec({2}), vec({-0.5}), vec({0.7})), 2.0108032234649476, 1e-10);
  EXPECT_NEAR(kl_dirichlet(vec({2, 3, 0.5}), vec({1, 1, 1})), 1.2215298104258614, 1e-13);
  const Tensor Sp = rows({{2.0, 0.3, 0.1}, {0.3, 1.0, -0.2}, {0.1, -0.2, 0.5}});
  const Tensor Sq = rows({{1.0, -0.4, 0.0}, {-0.4, 1.5, 0.2}, {0.0, 0.2, 0.8}});
  EXPECT_NEAR(kl_gaussian(vec({1, 0, -1}), Sp, vec({0.5, 0.5, 0}), Sq), 1.3064875093524337, 1e-13);
}

TEST(KlDivergence, SpecialCasesAgree) {
  // The notes' VAE value: μ = (1, 0), σ² = (1, 0.5) against N(0, I) gives 0.5965735903.
  EXPECT_NEAR(kl_standard_normal(vec({1, 0}), vec({1, 0.5})), 0.5965735903, 1e-10);
  EXPECT_NEAR(kl_standard_normal(vec({1, 0}), vec({1, 0.5})),
              kl_gaussian(vec({1, 0}), rows({{1, 0}, {0, 0.5}}), vec({0, 0}), rows({{1, 0}, {0, 1}})), 1e-15);
  EXPECT_NEAR(kl_diagonal_gaussian(vec({1, -2}), vec({0.3, 2}), vec({0, 1}), vec({1.5, 0.4})),
              kl_gaussian(vec({1, -2}), rows({{0.3, 0}, {0, 2}}), vec({0, 1}), rows({{1.5, 0}, {0, 0.4}})), 1e-14);
  // Beta is the two-component Dirichlet; Bernoulli the two-category categorical.
  EXPECT_DOUBLE_EQ(kl_beta(2, 3, 1.5, 0.8), kl_dirichlet(vec({2, 3}), vec({1.5, 0.8})));
  EXPECT_DOUBLE_EQ(kl_bernoulli(0.3, 0.6), kl_categorical(vec({0.3, 0.7}), vec({0.6, 0.4})));
  // Gamma with shape 1 is the exponential distribution: KL = log(b_p/b_q) + b_q/b_p − 1.
  EXPECT_NEAR(kl_gamma(1, 2, 1, 0.5), std::log(4.0) + 0.25 - 1, 1e-15);
}

TEST(KlDivergence, ZeroOnlyForEqualArgumentsAndNonNegative) {
  const Tensor S = rows({{2.0, 0.3}, {0.3, 1.0}});
  EXPECT_NEAR(kl_gaussian(vec({1, 2}), S, vec({1, 2}), S), 0, 1e-15);
  EXPECT_NEAR(kl_diagonal_gaussian(vec({1}), vec({3}), vec({1}), vec({3})), 0, 1e-15);
  EXPECT_NEAR(kl_categorical(vec({0.2, 0.8}), vec({0.2, 0.8})), 0, 1e-15);
  EXPECT_NEAR(kl_poisson(2.5, 2.5), 0, 1e-15);
  EXPECT_NEAR(kl_gamma(2, 3, 2, 3), 0, 1e-15);
  EXPECT_NEAR(kl_dirichlet(vec({0.5, 2, 4}), vec({0.5, 2, 4})), 0, 1e-14);
  // Over a grid of parameters every divergence of distinct arguments is positive.
  for (Scalar a : {0.3, 1.0, 4.0}) {
    for (Scalar b : {0.5, 2.0}) {
      EXPECT_GT(kl_gamma(a, b, 1.7, 0.9), 0);
      EXPECT_GT(kl_beta(a, b, 1.7, 0.9), 0);
      EXPECT_GT(kl_poisson(a, b), 0);
      EXPECT_GT(kl_gaussian(vec({a, 0}), S, vec({0, b}), b * S), 0);
      EXPECT_GT(kl_bernoulli(a / 5, b / 3), 0);
    }
  }
}

TEST(KlDivergence, BadInput) {
  const Tensor S = rows({{1, 0}, {0, 1}});
  EXPECT_THROW(kl_gaussian(vec({0, 0}), rows({{1, 2}, {2, 1}}), vec({0, 0}), S), ValueError);    // not PD
  EXPECT_THROW(kl_gaussian(vec({0, 0}), rows({{1, 0.5}, {0, 1}}), vec({0, 0}), S), ValueError);  // not symmetric
  EXPECT_THROW(kl_gaussian(vec({0, 0}), S, vec({0}), S), ShapeError);
  EXPECT_THROW(kl_gaussian(vec({0, testing::kNaN}), S, vec({0, 0}), S), ValueError);
  EXPECT_THROW(kl_diagonal_gaussian(vec({0}), vec({0}), vec({0}), vec({1})), ValueError);
  EXPECT_THROW(kl_standard_normal(vec({0, 1}), vec({1})), ValueError);
  EXPECT_THROW(kl_categorical(vec({0.5, 0.6}), vec({0.5, 0.5})), ValueError);  // sums to 1.1
  EXPECT_THROW(kl_categorical(vec({1.5, -0.5}), vec({0.5, 0.5})), ValueError);
  EXPECT_THROW(kl_categorical(vec({1}), vec({0.5, 0.5})), ValueError);
  EXPECT_THROW(kl_bernoulli(0.5, 1.2), ValueError);
  EXPECT_THROW(kl_poisson(0, 1), ValueError);
  EXPECT_THROW(kl_gamma(0, 1, 1, 1), ValueError);
  EXPECT_THROW(kl_gamma(1, 1, 1, -2), ValueError);
  EXPECT_THROW(kl_beta(1, testing::kInf, 1, 1), ValueError);
  EXPECT_THROW(kl_dirichlet(vec({1, 1}), vec({1, 1, 1})), ValueError);
  EXPECT_THROW(kl_dirichlet(vec({1}), vec({1})), ValueError);
  EXPECT_THROW(kl_dirichlet(vec({1, -1}), vec({1, 1})), ValueError);
}

}  // namespace
}  // namespace dagml
