// Newton's method (notes 000 §4.6, notes 001 Algorithms 5–6), with the Hessian from the objective
// (autodiff for a GraphObjective):
//   H_t = ∇²f(x_t) + λ_t I,  solve H_t p_t = −∇f(x_t)  (Cholesky LLᵀ; never an explicit inverse)
//   x_{t+1} = x_t + α_t p_t
// α_t is the damping `step` (1: pure Newton), or comes from a line search starting there (Armijo by
// default: backtracking from α = step).
//
// Note [Newton regularisation]
// The system solved is ∇²f itself while it is positive definite with every Cholesky pivot above
// n·ε·max|diag ∇²f| (numerically non-singular). Otherwise ∇²f = Q Λ Qᵀ and the step uses
// |Λ| floored at δ = regularization · max(max_i |λ_i|, 1):  p = −Q max(|Λ|, δ)⁻¹ Qᵀ ∇f
// (Nocedal & Wright §3.4). p is then always a descent direction (∇fᵀp < 0 for ∇f ≠ 0), directions
// of negative curvature are followed downhill instead of toward the maximum, and ‖p‖ ≤ ‖∇f‖/δ is
// bounded. (Adding λI until a Cholesky factor exists, the notes' "add λ‖w‖²", can stop at an
// H + λI that is positive definite only by rounding: on 10·cos x from x = 0.3 that step was 10⁴.)
// Pure Newton (step = 1, line_search = None) on f(w) = √(w² + 1) is w ← −w³: it converges from
// |w₀| < 1, oscillates from ±1 and diverges from |w₀| > 1 (notes 000 §4.6); the tests check it.
#pragma once

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct NewtonOptions {
  StopOptions stop = {.max_iterations = 100, .gradient_tolerance = 1e-8};
  Scalar step = 1;                     // damping α (the initial trial for a line search), > 0
  LineSearchOptions line_search = {};  // .kind = None for fixed damped steps
  Scalar regularization = 1e-8;        // δ relative to max(max|λ(∇²f)|, 1) (Note [Newton regularisation]), > 0
  // Evaluate ∇²f together with f and ∇f at every line-search trial (one replay for a
  // GraphObjective) and reuse it when the trial is accepted, as a unit Newton step usually is.
  // false: evaluate ∇²f separately, only at accepted points (cheaper when many trials are rejected).
  bool fused_evaluations = true;
};

class Newton {
 public:
  // Throws ValueError for invalid options.
  explicit Newton(NewtonOptions options = {});
  explicit Newton(DefaultOptions) : Newton() {}  // Note [Constructing from options]
  // Needs objective.has_hessian() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const NewtonOptions& options() const { return options_; }

 private:
  NewtonOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const NewtonOptions& options,
                const CallbackList& callbacks = {});

// Fills result.curvature and result.smallest_hessian_eigenvalue from ∇²f at result.x (when the
// objective offers a Hessian and it is finite there), and appends "not a minimum" to the message
// of a converged run whose Hessian is not positive definite (a saddle or a plateau). Newton calls
// it at the end of every run. NewtonCg and TrustRegionNewton, which exist so that ∇²f is never
// formed, call it only up to kCurvatureCheckMaxDimension parameters: above that the dense p×p
// Hessian and its eigenvalues would cost more than the run (curvature stays NotChecked).
void report_curvature(Objective& objective, Result& result);
inline constexpr Index kCurvatureCheckMaxDimension = 1000;

// The direction p of Note [Newton regularisation] for Hessian H and gradient g. Returns how far the
// eigenvalues were moved (max_i |λ̃_i − λ_i|; 0 for the plain Newton step); throws NumericalError
// if H has no eigendecomposition (it is not finite).
Scalar regularized_newton_direction(const Tensor& H, const Vector& g, Scalar regularization, Vector& p);

}  // namespace dagml
