// CAVI for the Normal-Gamma model: the fixed point derived by hand (normal_gamma_cavi.h), the
// exact Normal-Gamma posterior means it reproduces and the variance it under-estimates, a
// non-decreasing ELBO below the exact log evidence, truthful statuses, callbacks and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "literals.h"
#include "models/bayes/normal_gamma_cavi.h"
#include "optim/callbacks.h"

namespace dagml {
namespace {

using testing::vec;

const NormalGammaPrior kCaviPrior{.mean = 0.5, .mean_precision = 2, .shape = 3, .rate = 2};

Vector cavi_data() { return vec({1.2, 2.3, 0.7, 1.9, 3.1, 1.4, 2.2}); }

TEST(NormalGammaCavi, ConvergesToTheHandDerivedFixedPoint) {
  const Vector x = cavi_data();
  const Scalar n = 7, lambda0 = 2, mu0 = 0.5, a0 = 3, b0 = 2;
  // tolerance 0: every one of the 60 sweeps runs; the map b ← b₀ + S/2 + b/(2a_N) contracts by
  // 1/(2a_N) = 1/14 a sweep, so it reaches the fixed point to rounding.
  const NormalGammaCavi q = normal_gamma_cavi(x, {.prior = kCaviPrior, .max_iterations = 60, .tolerance = 0});
  EXPECT_EQ(q.run.status, Status::MaxIterations);
  EXPECT_EQ(q.run.iterations, 60);
  const Scalar mu_n = (lambda0 * mu0 + x.sum()) / (lambda0 + n);
  const Scalar a_n = a0 + (n + 1) / 2;
  const Scalar S = (x.array() - mu_n).square().sum() + lambda0 * (mu_n - mu0) * (mu_n - mu0);
  const Scalar b_n = (b0 + S / 2) * 2 * a_n / (2 * a_n - 1);
  EXPECT_NEAR(q.mean_mean, mu_n, 1e-14);
  EXPECT_NEAR(q.shape, a_n, 1e-14);
  EXPECT_NEAR(q.rate, b_n, 1e-13);
  EXPECT_NEAR(q.mean_precision, (lambda0 + n) * a_n / b_n, 1e-13);
  // The exact posterior Normal-Gamma(μ_N, λ₀ + N, a₀ + N/2, b₀ + S/2): the same E[μ] and E[τ] ...
  const Scalar a_post = a0 + n / 2, b_post = b0 + S / 2;
  EXPECT_NEAR(q.shape / q.rate, a_post / b_post, 1e-14);
  // ... and a smaller Var(μ) than the exact marginal b_post/((a_post − 1)(λ₀ + N)).
  EXPECT_NEAR(1 / q.mean_precision, b_post / (a_post * (lambda0 + n)), 1e-15);
  EXPECT_LT(1 / q.mean_precision, b_post / ((a_post - 1) * (lambda0 + n)));
}

TEST(NormalGammaCavi, ElboToleranceConverges) {
  // The ELBO is flat at its maximum, so |Δ𝓛| < 1e-10 leaves the factors within about √1e-10.
  const NormalGammaCavi q = normal_gamma_cavi(cavi_data(), {.prior = kCaviPrior});
  EXPECT_EQ(q.run.status, Status::ValueTolerance);
  EXPECT_TRUE(q.run.converged());
  EXPECT_LT(q.run.iterations, 20);
  const NormalGammaCavi exact =
      normal_gamma_cavi(cavi_data(), {.prior = kCaviPrior, .max_iterations = 60, .tolerance = 0});
  EXPECT_NEAR(q.rate, exact.rate, 1e-5);
  EXPECT_NEAR(q.mean_precision, exact.mean_precision, 1e-5);
  EXPECT_LE(q.elbo, exact.elbo);
}

TEST(NormalGammaCavi, ElboRisesToBelowTheExactLogEvidence) {
  const Vector x = cavi_data();
  const NormalGammaCavi q = normal_gamma_cavi(x, {.prior = kCaviPrior, .initial_precision_mean = 20});
  ASSERT_GE(q.run.history.size(), 3u);
  for (std::size_t t = 1; t < q.run.history.size(); ++t) EXPECT_GE(q.run.history[t], q.run.history[t - 1]);
  EXPECT_GT(q.run.history.back(), q.run.history.front() + 0.1);  // a start far from the fixed point
  EXPECT_EQ(q.elbo, q.run.history.back());
  EXPECT_NEAR(normal_gamma_elbo(x, kCaviPrior, q), q.elbo, 1e-15);
  // log p(x) = log Γ(a_post) − log Γ(a₀) + a₀ log b₀ − a_post log b_post + ½ log(λ₀/λ_post) − (N/2) log 2π.
  const Scalar n = 7, a_post = 3 + n / 2, lambda_post = 2 + n;
  const Scalar mu_n = (2 * 0.5 + x.sum()) / lambda_post;
  const Scalar b_post = 2 + 0.5 * ((x.array() - mu_n).square().sum() + 2 * (mu_n - 0.5) * (mu_n - 0.5));
  const Scalar log_evidence = std::lgamma(a_post) - std::lgamma(3.0) + 3 * std::log(2.0) - a_post * std::log(b_post) +
                              0.5 * std::log(2 / lambda_post) - n / 2 * std::log(2 * std::numbers::pi);
  // The gap is KL(q‖posterior) > 0: mean field cannot represent the μ–τ coupling.
  EXPECT_LT(q.elbo, log_evidence);
  EXPECT_GT(q.elbo, log_evidence - 0.1);
}

TEST(NormalGammaCavi, BudgetAndCallbackStatusesAreTruthful) {
  const Vector x = cavi_data();
  const NormalGammaCavi one =
      normal_gamma_cavi(x, {.prior = kCaviPrior, .initial_precision_mean = 20, .max_iterations = 1});
  EXPECT_EQ(one.run.status, Status::MaxIterations);
  EXPECT_EQ(one.run.iterations, 1);
  Index seen = 0;
  FunctionCallback watch([&](const IterationInfo& info) {
    ++seen;
    EXPECT_EQ(info.x->size(), 4);
    return info.iteration < 2;
  });
  const NormalGammaCavi stopped = normal_gamma_cavi(x, {.prior = kCaviPrior, .initial_precision_mean = 20}, {&watch});
  EXPECT_EQ(stopped.run.status, Status::CallbackStop);
  EXPECT_EQ(stopped.run.iterations, 2);
  EXPECT_EQ(seen, 2);
}

TEST(NormalGammaCavi, BadInput) {
  EXPECT_THROW(normal_gamma_cavi(Vector()), ValueError);
  EXPECT_THROW(normal_gamma_cavi(vec({1, testing::kNaN})), ValueError);
  const Vector x = cavi_data();
  EXPECT_THROW(normal_gamma_cavi(x, {.prior = {.mean_precision = 0}}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.prior = {.shape = -1}}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.prior = {.rate = testing::kInf}}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.prior = {.mean = testing::kNaN}}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.initial_precision_mean = 0}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.max_iterations = 0}), ValueError);
  EXPECT_THROW(normal_gamma_cavi(x, {.tolerance = -1}), ValueError);
}

}  // namespace
}  // namespace dagml
