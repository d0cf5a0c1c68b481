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
// false` uses D = I, the textbook damping.) The step is judged by its gain ratio
//   ρ = (f(x) − f(x + δ)) / (L(0) − L(δ)),   L(δ) = ½‖r + J δ‖²,
// with the predicted decrease L(0) − L(δ) = −(Jδ)ᵀ(r + ½Jδ) and the actual one
// −½ Σᵢ (r'ᵢ − rᵢ)(r'ᵢ + rᵢ), both written so that they do not cancel near the solution. ρ > 1e−4
// accepts x ← x + δ. μ follows Nielsen (1999): μ₀ = τ · max_j (JᵀJ)_jj / d_j² (τ =
// initial_damping); after an accepted step μ ← μ · max(1/3, 1 − (2ρ − 1)³), ν ← 2; after a rejected
// one μ ← μ ν, ν ← 2ν. There is no ceiling on μ: large μ gives ever shorter scaled-gradient steps,
// until one is accepted or shorter than the step tolerance.
//
// Refinement at the rounding level of f. Once the model's decrease L(0) − L(δ) is below 16ε·f,
// f cannot resolve it: ρ is rounding noise, yet the Gauss–Newton step still improves x (a step of
// relative size 1e−8 changes f by 1e−16 of itself). At a point whose scaled gradient (below) is at
// most √gradient_tolerance, such steps are taken when f does not rise by more than its rounding
// (16ε·f), μ is left as it is, and they go on while their length ‖Dδ‖ keeps shrinking — the rule
// of iterative refinement; three trials in a row that do not shrink end the run (converged, at the
// rounding level of f). Elsewhere no step that raises f is ever accepted.
//
// Note [Geodesic acceleration]
// Optional second-order correction (Transtrum & Sethna 2012): with the velocity v = δ(μ), the
// directional second derivative of the residuals r_vv ≈ (2/h)((r(x + h v) − r(x))/h − J v) by one
// more residual evaluation (h = 0.1), and the acceleration a = argmin ‖J a + r_vv‖² + μ‖D a‖² (the
// same QR factorization), the trial step is v + ½a when 2‖Da‖/‖Dv‖ ≤ 0.75 (the correction is
// small), else v. It follows curved valleys in fewer steps; on the NIST problems, where the
// defaults already solve every run, it is off by default.
//
// Note [Levenberg–Marquardt stopping]
// Scale-free tests, checked after every trial step (after Moré's MINPACK tests), in this order:
//   GradientTolerance  r = 0, or the scaled gradient  max_j |J_jᵀ r| / (‖J_j‖ ‖r‖) ≤ gradient_tolerance
//                      (the cosine between r and each column of J; 0 at a stationary point)
//   StepTolerance      the refinement above ended; or a trial step with ‖D δ‖ ≤ step_tolerance · ‖D x‖
//                      (or a rejected one below ε‖Dx‖) at a nearly stationary point: scaled gradient
//                      ≤ 10⁻² (that cosine's own rounding error is about ε‖F‖/‖r‖), or residuals at
//                      the rounding of the data, ‖r‖ ≤ 16ε · max(‖r(x₀)‖, ‖|J||x|‖) (a zero-residual
//                      fit, where r and its cosine are noise); and no column of J collapsed
//   ValueTolerance     an accepted step above the rounding level whose actual and predicted relative
//                      reductions of f are both ≤ value_tolerance (and ρ ≤ 2)
//   Stalled            the steps vanished (step test, or a rejected step below ε‖Dx‖) at a point that
//                      is not stationary, or where a column of J fell below ε of its largest norm (a
//                      plateau: a parameter run off to where the model no longer depends on it)
//   MaxIterations      the budget of trial steps (accepted or rejected) ran out.
// The callbacks see every trial step; the history holds f after each one.
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct LevenbergMarquardtOptions {
  // gradient_tolerance bounds the scaled gradient, value_tolerance the relative reduction of f,
  // step_tolerance the relative scaled step (Note [Levenberg–Marquardt stopping]).
  StopOptions stop = {
      .max_iterations = 10000, .gradient_tolerance = 1e-12, .value_tolerance = 1e-15, .step_tolerance = 1e-15};
  // τ > 0: μ₀ = τ · max_j (JᵀJ)_jj / d_j² (= τ with Marquardt's scaling). The default starts with a
  // small trust region: short scaled-gradient steps, which keep a far start from jumping onto a
  // plateau (NIST's BoxBOD and Eckerle4 from start 1); each accepted step shrinks μ up to 3×, so a
  // dozen accepted steps reach Gauss–Newton steps. On the NIST problems any τ in [300, 10⁴] solves
  // all 54 runs; τ = 10⁻³ (Nielsen's suggestion for good starts) solves 53 (BoxBOD from start 1
  // runs onto the plateau b2 → ∞ and ends Stalled).
  Scalar initial_damping = 1e3;
  bool scale_by_diagonal = true;  // D = diag(max_k ‖J_j(x_k)‖) (Marquardt, MINPACK); false: D = I
  bool geodesic_acceleration = false;  // Note [Geodesic acceleration]: one more residual evaluation per trial
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
