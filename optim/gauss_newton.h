// Gauss-Newton for nonlinear least squares f(x) = ½‖r(x)‖² (notes 000 §4.7). With J = ∂r/∂x at x_k
// (residuals r = F(x) − y, so Δy = −r), each step is a linear least-squares problem solved by QR
// (column-pivoted Householder), never through (JᵀJ)⁻¹:
//   Δ_k = argmin_δ ‖J δ + r(x_k)‖²   ( = (JᵀJ)⁻¹Jᵀ(y − F(x_k)) when J has full rank)
//   x_{k+1} = x_k + α Δ_k
// ∇f = Jᵀr. Stopping (Note [Stopping rules]): relative loss change, maximum relative parameter
// change, ‖Jᵀr‖, iteration count. Plain Gauss-Newton takes the full step (α = step = 1) and can
// diverge far from the solution or on large residuals: Levenberg-Marquardt is the safe variant.
//
// Note [Gauss–Newton divergence]
// An iteration whose f rises above the previous one (beyond 4 rounding units) ends the run with
// Status::Diverged and keeps the iterate before the rise: Gauss–Newton has no way to undo a bad
// step, and a run whose cost went up must not end "converged" because its next step is short.
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct GaussNewtonOptions {
  StopOptions stop = {
      .max_iterations = 100, .gradient_tolerance = 1e-10, .value_tolerance = 1e-12, .step_tolerance = 1e-12};
  Scalar step = 1;  // α ∈ (0, 1]
};

class GaussNewton {
 public:
  // Throws ValueError for invalid options.
  explicit GaussNewton(GaussNewtonOptions options = {});
  explicit GaussNewton(DefaultOptions) : GaussNewton() {}  // Note [Constructing from options]
  // Needs objective.has_residuals() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const GaussNewtonOptions& options() const { return options_; }

 private:
  GaussNewtonOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const GaussNewtonOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
