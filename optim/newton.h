// Newton's method (notes 000 §4.6, notes 001 Algorithms 5–6), with the Hessian from the objective
// (autodiff for a GraphObjective):
//   H_t = ∇²f(x_t) + λ_t I,  solve H_t p_t = −∇f(x_t)  (Cholesky LLᵀ; never an explicit inverse)
//   x_{t+1} = x_t + α_t p_t
// α_t is the damping `step` (1: pure Newton), or comes from a line search starting there (Armijo by
// default: backtracking from α = step). λ_t = 0 while ∇²f(x_t) is positive definite; otherwise
// λ_t = regularization, multiplied by 10 until H_t + λ_t I has a Cholesky factor (Hessian
// regularisation of the notes, "add λ‖w‖²").
// Pure Newton (step = 1, line_search = None) on f(w) = √(w² + 1) is w ← −w³: it converges from
// |w₀| < 1, oscillates from ±1 and diverges from |w₀| > 1 (notes 000 §4.6); the tests check it.
#pragma once

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"

namespace dagml {

struct NewtonOptions {
  StopOptions stop = {.max_iterations = 100, .gradient_tolerance = 1e-8};
  Scalar step = 1;                     // damping α (the initial trial for a line search), > 0
  LineSearchOptions line_search = {};  // .kind = None for fixed damped steps
  Scalar regularization = 1e-8;        // first λ tried (relative to max|diag H|, floor 1e-8) when H is not PD, > 0
  // Evaluate ∇²f together with f and ∇f at every line-search trial (one replay for a
  // GraphObjective) and reuse it when the trial is accepted, as a unit Newton step usually is.
  // false: evaluate ∇²f separately, only at accepted points (cheaper when many trials are rejected).
  bool fused_evaluations = true;
};

class Newton {
 public:
  // Throws ValueError for invalid options.
  explicit Newton(NewtonOptions options = {});
  // Needs objective.has_hessian() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const NewtonOptions& options() const { return options_; }

 private:
  NewtonOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const NewtonOptions& options,
                const CallbackList& callbacks = {});

// Solves (H + λI) p = −g with the smallest λ in {0, λ₀, 10λ₀, …} for which H + λI has a Cholesky
// factor, λ₀ = regularization · max(max|diag H|, 1). Returns λ; throws NumericalError if none of 60
// tries works (H not finite).
Scalar regularized_newton_direction(const Tensor& H, const Vector& g, Scalar regularization, Vector& p);

}  // namespace dagml
