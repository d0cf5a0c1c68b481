// Levenberg-Marquardt for nonlinear least squares f(x) = ½‖r(x)‖²: Gauss-Newton with a trust
// region by damping. Each trial step solves, by QR of the stacked (m+p)×p matrix,
//   Δ = argmin_δ ‖J δ + r‖² + μ ‖D δ‖²,   D = I, or D = diag(JᵀJ)^{1/2} when scale_by_diagonal
// and is accepted when the gain ratio ρ = (f(x) − f(x + Δ)) / (L(0) − L(Δ)) > 0, with the model
// L(δ) = ½‖r + Jδ‖². The damping follows Nielsen (1999): on acceptance
// μ ← μ · max(1/3, 1 − (2ρ − 1)³), ν ← 2; on rejection μ ← μ ν, ν ← 2ν. μ₀ = initial_damping ·
// max diag(JᵀJ). Large μ gives short gradient-descent steps, small μ Gauss-Newton steps, so LM
// converges from starts where plain Gauss-Newton does not. Stopping as Gauss-Newton (tests after
// accepted steps); a rejected trial still counts as an iteration.
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"

namespace dagml {

struct LevenbergMarquardtOptions {
  StopOptions stop = {
      .max_iterations = 200, .gradient_tolerance = 1e-10, .value_tolerance = 1e-12, .step_tolerance = 1e-12};
  Scalar initial_damping = 1e-3;   // τ > 0, μ₀ = τ · max diag(JᵀJ)
  bool scale_by_diagonal = false;  // Marquardt's scaling D = diag(JᵀJ)^{1/2}
};

class LevenbergMarquardt {
 public:
  // Throws ValueError for invalid options.
  explicit LevenbergMarquardt(LevenbergMarquardtOptions options = {});
  // Needs objective.has_residuals() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const LevenbergMarquardtOptions& options() const { return options_; }

 private:
  LevenbergMarquardtOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const LevenbergMarquardtOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
