// Newton-CG (truncated Newton; Nocedal & Wright, Algorithm 7.1) for large parameter counts: the
// Newton system ∇²f(x_t) p = −∇f(x_t) is solved approximately by conjugate gradients using only
// Hessian-vector products (one extra reverse pass each for a GraphObjective), never forming ∇²f:
//   CG on H p = −g from p = 0, stopped when ‖H p + g‖ ≤ η_t ‖g‖, η_t = min(0.5, √‖g‖), or at
//   max_cg_iterations; on a direction of non-positive curvature dᵀHd ≤ 0 it stops (with −g if
//   that happens on the first CG step);
//   x_{t+1} = x_t + α_t p with α_t from a line search (Armijo backtracking from 1 by default).
#pragma once

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct NewtonCgOptions {
  StopOptions stop = {.max_iterations = 200, .gradient_tolerance = 1e-8};
  Index max_cg_iterations = 0;  // 0: the dimension p; else ≥ 1
  LineSearchOptions line_search = {};
};

class NewtonCg {
 public:
  // Throws ValueError for invalid options.
  explicit NewtonCg(NewtonCgOptions options = {});
  explicit NewtonCg(DefaultOptions) : NewtonCg() {}  // Note [Constructing from options]
  // Needs objective.has_hessian_vector_product() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const NewtonCgOptions& options() const { return options_; }

 private:
  NewtonCgOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const NewtonCgOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
