// The score-function and reparameterisation estimators of ∇_φ E_q[f] for a quadratic f, whose
// exact gradient is closed form: both unbiased (within 5 standard errors at a fixed seed), the
// leave-one-out baseline and the reparameterisation reducing the variance, and errors.
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "models/bayes/score_function_gradient.h"

namespace dagml {
namespace {

using testing::vec;

// f(z) = ½ zᵀAz + bᵀz + c. With z ~ N(μ, diag σ²): E_q[f] = ½(μᵀAμ + Σ_j A_jj σ_j²) + bᵀμ + c, so
//   ∂E/∂μ = Aμ + b,   ∂E/∂log σ_j = A_jj σ_j².
struct Quadratic {
  Tensor A = testing::rows({{2, 0.5}, {0.5, 1}});
  Vector b = vec({1, -1});
  Scalar c = 5;  // a level far from 0, which the baseline removes
  Scalar operator()(const Vector& z) const { return 0.5 * z.dot(A * z) + b.dot(z) + c; }
  Vector exact_gradient(const DiagonalGaussian& q) const {
    const Vector variance = (2 * q.log_std).array().exp().matrix();
    Vector g(4);
    g.head(2) = A * q.mean + b;
    g.tail(2) = A.diagonal().cwiseProduct(variance);
    return g;
  }
};

const DiagonalGaussian kGradientQ{.mean = vec({1, -0.5}), .log_std = vec({0, -0.5})};

void expect_unbiased(const GradientEstimate& e, const Vector& exact, Scalar largest_se) {
  for (Index k = 0; k < exact.size(); ++k) {
    EXPECT_NEAR(e.gradient[k], exact[k], 5 * e.standard_error[k]) << "entry " << k;
    EXPECT_LT(e.standard_error[k], largest_se) << "entry " << k;
  }
}

TEST(ScoreFunctionGradient, UnbiasedWithAndWithoutBaseline) {
  const Quadratic f;
  const Vector exact = f.exact_gradient(kGradientQ);  // (2.75, 0, 2, 0.3678794412)
  const GradientEstimate plain = score_function_gradient(f, kGradientQ, {.num_samples = 40000, .seed = 1});
  expect_unbiased(plain, exact, 0.1);
  const GradientEstimate baseline =
      score_function_gradient(f, kGradientQ, {.num_samples = 40000, .seed = 1, .baseline = ScoreBaseline::LeaveOneOut});
  expect_unbiased(baseline, exact, 0.08);
  // The baseline removes the variance that f's level c = 5 adds, in every entry.
  for (Index k = 0; k < 4; ++k) EXPECT_LT(baseline.standard_error[k], 0.7 * plain.standard_error[k]) << k;
}

TEST(ReparameterizationGradient, UnbiasedWithSmallerVarianceThanTheScoreFunction) {
  const Quadratic f;
  const auto f_and_gradient = [&](const Vector& z, Vector& g) {
    g = f.A * z + f.b;
    return f(z);
  };
  const Vector exact = f.exact_gradient(kGradientQ);
  const GradientEstimate r = reparameterization_gradient(f_and_gradient, kGradientQ, {.num_samples = 40000, .seed = 1});
  expect_unbiased(r, exact, 0.02);
  const GradientEstimate s =
      score_function_gradient(f, kGradientQ, {.num_samples = 40000, .seed = 1, .baseline = ScoreBaseline::LeaveOneOut});
  for (Index k = 0; k < 4; ++k) EXPECT_LT(r.standard_error[k], s.standard_error[k]) << k;
  // The two see the same draws: for f(z) = z₁ both estimate ∂E/∂μ₁ = 1, the reparameterisation exactly.
  const GradientEstimate linear = reparameterization_gradient(
      [](const Vector& z, Vector& g) {
        g = vec({1, 0});
        return z[0];
      },
      kGradientQ, {.num_samples = 10, .seed = 3});
  EXPECT_TRUE(linear.gradient.isApprox(vec({1, 0, linear.gradient[2], 0}), 1e-15));
}

TEST(ScoreFunctionGradient, ConstantFunctionWithBaselineIsExactlyZeroAndSeedsReplay) {
  const GradientEstimate e =
      score_function_gradient([](const Vector&) { return 3.0; }, kGradientQ,
                              {.num_samples = 50, .seed = 2, .baseline = ScoreBaseline::LeaveOneOut});
  EXPECT_EQ(e.gradient, Vector::Zero(4));
  const Quadratic f;
  const auto a = score_function_gradient(f, kGradientQ, {.num_samples = 100, .seed = 9});
  const auto b = score_function_gradient(f, kGradientQ, {.num_samples = 100, .seed = 9});
  EXPECT_EQ(a.terms, b.terms);
  EXPECT_EQ(a.terms.rows(), 100);
  EXPECT_NE(score_function_gradient(f, kGradientQ, {.num_samples = 100, .seed = 10}).gradient, a.gradient);
}

TEST(ScoreFunctionGradient, BadInput) {
  const Quadratic f;
  EXPECT_THROW(score_function_gradient(f, {.mean = vec({0, 0}), .log_std = vec({0})}), ValueError);
  EXPECT_THROW(score_function_gradient(f, {.mean = Vector(), .log_std = Vector()}), ValueError);
  EXPECT_THROW(score_function_gradient(f, {.mean = vec({0, testing::kNaN}), .log_std = vec({0, 0})}), ValueError);
  EXPECT_THROW(score_function_gradient(f, kGradientQ, {.num_samples = 0}), ValueError);
  EXPECT_THROW(score_function_gradient(f, kGradientQ, {.num_samples = 1, .baseline = ScoreBaseline::LeaveOneOut}),
               ValueError);
  EXPECT_THROW(score_function_gradient([](const Vector&) { return testing::kNaN; }, kGradientQ), ValueError);
  const auto wrong_length = [](const Vector&, Vector& g) {
    g = vec({1});
    return 0.0;
  };
  EXPECT_THROW(reparameterization_gradient(wrong_length, kGradientQ), ShapeError);
}

}  // namespace
}  // namespace dagml
