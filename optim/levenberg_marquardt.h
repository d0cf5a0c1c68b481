// Levenberg–Marquardt for nonlinear least squares f(x) = ½‖r(x)‖², r ∈ ℝᵐ, x ∈ ℝᵖ: a trust-region
// method whose region is set by a damping μ.
//
// Note [Levenberg–Marquardt]
// Each trial step solves, by Householder QR of the stacked (m+p)×p matrix (never JᵀJ),
//   δ(μ) = argmin_δ ‖J δ + r‖² + μ ‖D δ‖²,
// with Marquardt's scaling D = diag(d_j), d_j = max over the iterates so far of ‖J_j‖ (the column
// norms, as MINPACK keeps them: never decreasing, so a column that vanishes for a while keeps its
// damping; a zero column gets d_j = 1). D makes the step invariant to rescaling any parameter:
// Nelson's b2 ≈ 5.6e−9 and Hahn1's columns of 1e10 are treated alike. (`scale_by_diagonal =
// false` uses D = I, the textbook damping.) The gain ratio of the step,
//   ρ = (f(x) − f(x + δ)) / (L(0) − L(δ)),   L(δ) = ½‖r + J δ‖²,
// decides: ρ > 1e−4 accepts x ← x + δ (so an accepted step never raises f), otherwise x stays.
// μ follows Nielsen (1999): μ₀ = τ · max_j (JᵀJ)_jj / d_j² (τ = initial_damping); after an
// accepted step μ ← μ · max(1/3, 1 − (2ρ − 1)³), ν ← 2; after a rejected one μ ← μ ν, ν ← 2ν.
// There is no ceiling on μ: large μ gives ever shorter scaled-gradient steps, until one is either
// accepted or shorter than the step tolerance (below).
//
// Note [Levenberg–Marquardt stopping]
// Scale-free tests, checked after every trial step (MINPACK's, Moré 1978), in this order:
//   GradientTolerance  f = 0, or the scaled gradient  max_j |J_jᵀ r| / (‖J_j‖ ‖r‖) ≤ gradient_tolerance
//                      (the cosine between r and each column of J; 0 at a stationary point)
//   ValueTolerance     an accepted step whose actual and predicted relative reductions of f are
//                      both ≤ value_tolerance (and ρ ≤ 2): f cannot fall by more than that
//   StepTolerance      a trial step with ‖D δ‖ ≤ step_tolerance · ‖D x‖: no step longer than that
//                      relative size is left to take (for a rejected step: the region has shrunk
//                      below the precision asked for). When the scaled gradient is then above
//                      √gradient_tolerance… (see below)
//   MaxIterations      the budget of trial steps (accepted or rejected) ran out.
// A run that shrinks the step below the relative rounding of x (‖D δ‖ ≤ ε ‖D x‖) without any of
// these holding can make no further progress: it ends Stalled, with the scaled gradient in the
// message. The callbacks see every trial step; the history holds f after each one.
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct LevenbergMarquardtOptions {
  // gradient_tolerance bounds the scaled gradient, value_tolerance the relative reduction of f,
  // step_tolerance the relative scaled step (Note [Levenberg–Marquardt stopping]).
  StopOptions stop = {
      .max_iterations = 1000, .gradient_tolerance = 1e-12, .value_tolerance = 1e-15, .step_tolerance = 1e-15};
  Scalar initial_damping = 1e-3;  // τ > 0: μ₀ = τ · max_j (JᵀJ)_jj / d_j²
  bool scale_by_diagonal = true;  // D = diag(max_k ‖J_j(x_k)‖) (Marquardt, MINPACK); false: D = I
};

class LevenbergMarquardt {
 public:
  // Throws ValueError for invalid options.
  explicit LevenbergMarquardt(LevenbergMarquardtOptions options = {});
  explicit LevenbergMarquardt(DefaultOptions) : LevenbergMarquardt() {}  // Note [Constructing from options]
  // Needs objective.has_residuals() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const LevenbergMarquardtOptions& options() const { return options_; }

 private:
  LevenbergMarquardtOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const LevenbergMarquardtOptions& options,
                const CallbackList& callbacks = {});

// max_j |J_jᵀ r| / (‖J_j‖ ‖r‖) over the columns with ‖J_j‖ > 0; 0 when r = 0. Scale-free: the
// cosine of the largest angle-to-orthogonality between the residuals and a column of J.
Scalar scaled_gradient(const Tensor& J, const Vector& r);

}  // namespace dagml
