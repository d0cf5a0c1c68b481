// Monte Carlo gradients of E_q[f(z)] for a diagonal Gaussian q_φ (notes 004 §3.8, L1617–1625):
// the score-function (REINFORCE) estimator and the reparameterisation estimator.
//
//   DiagonalGaussian q{.mean = vec({1, -1}), .log_std = vec({0, -0.5})};
//   GradientEstimate s = score_function_gradient(f, q, {.num_samples = 1000, .seed = 1,
//                                                        .baseline = ScoreBaseline::LeaveOneOut});
//   GradientEstimate r = reparameterization_gradient(f_and_gradient, q, {.num_samples = 1000, .seed = 1});
//   s.gradient;        // ∂/∂μ (first d entries), then ∂/∂log σ (last d)
//   s.standard_error;  // per entry: the sample standard deviation of the terms / √S
//
// q_φ(z) = Π_j N(z_j; μ_j, σ_j²), φ = (μ, log σ); draws z_s = μ + σ ⊙ ε_s, ε_s ~ N(0, I), s = 1..S.
// Score function: ∇_φ E_q[f] = E_q[f(z) ∇_φ log q_φ(z)], by ∇q = q ∇log q, with
//   ∂ log q/∂μ_j = (z_j − μ_j)/σ_j² = ε_j/σ_j,   ∂ log q/∂log σ_j = ((z_j − μ_j)/σ_j)² − 1 = ε_j² − 1,
// estimated by (1/S) Σ_s (f(z_s) − b_s) ∇_φ log q_φ(z_s). Since E_q[∇ log q] = 0 (the score
// identity), any b_s independent of z_s leaves it unbiased; b_s = (1/(S−1)) Σ_{t≠s} f(z_t) (the
// leave-one-out mean, ScoreBaseline::LeaveOneOut; S ≥ 2) removes most of the variance that f's level
// adds. Only f's values are needed: f may be non-differentiable, even discontinuous.
// Reparameterisation: z = g(ε, φ) = μ + σ ⊙ ε (σ the standard deviation; notes L1621 print σ²,
// a typo), so ∇_φ E_q[f] = E_ε[∇_φ f(g(ε, φ))] with
//   ∂f/∂μ_j = ∂f/∂z_j,   ∂f/∂log σ_j = ∂f/∂z_j · σ_j ε_j,
// which needs ∇f but usually has much smaller variance. Both draw ε from std::mt19937_64 seeded
// with `seed` (Box–Muller, graph/random.h), in the same order, so one seed gives both estimators
// the same z_s. The standard error is the sample standard deviation of the S per-draw terms over
// √S; with the leave-one-out baseline the terms are weakly dependent (through b_s) and it is an
// approximation, accurate to O(1/S).
#pragma once

#include <cstdint>
#include <functional>

#include "graph/tensor.h"

namespace dagml {

struct DiagonalGaussian {
  Vector mean;     // μ
  Vector log_std;  // log σ, one entry per dimension
};

enum class ScoreBaseline {
  None,         // b = 0
  LeaveOneOut,  // b_s = mean of f over the other draws
};

struct GradientEstimatorOptions {
  Index num_samples = 100;  // S ≥ 1 (≥ 2 with the leave-one-out baseline)
  std::uint64_t seed = 0;
  ScoreBaseline baseline = ScoreBaseline::None;  // score function only
};

struct GradientEstimate {
  Vector gradient;        // 2d entries: ∂/∂μ, then ∂/∂log σ
  Vector standard_error;  // 2d entries
  Tensor terms;           // S × 2d: the per-draw terms whose mean is `gradient`
};

using ScalarFunction = std::function<Scalar(const Vector& z)>;
// f(z), with ∇f(z) written into `gradient`.
using ScalarFunctionWithGradient = std::function<Scalar(const Vector& z, Vector& gradient)>;

// Throws ValueError for an empty or non-finite q, mean and log_std of different lengths,
// num_samples < 1 (< 2 with LeaveOneOut), or f not finite at a draw; ShapeError for a gradient
// of the wrong length.
GradientEstimate score_function_gradient(const ScalarFunction& f, const DiagonalGaussian& q,
                                         const GradientEstimatorOptions& options = {});
GradientEstimate reparameterization_gradient(const ScalarFunctionWithGradient& f, const DiagonalGaussian& q,
                                             const GradientEstimatorOptions& options = {});

}  // namespace dagml
