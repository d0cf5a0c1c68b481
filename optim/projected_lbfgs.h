// L-BFGS for box constraints lower ≤ x ≤ upper: a projected quasi-Newton method (the active-set
// "two-metric" projection of Bertsekas 1982, in its L-BFGS form as in Kim, Sra & Dhillon 2010),
// for problems such as kernel hyperparameters in log space with bounds. At x_t with g = ∇f(x_t):
//
//   A = {j : x_j ≤ lower_j and g_j > 0, or x_j ≥ upper_j and g_j < 0}   (bound and pushed out)
//   p = −H g_F on the free set F (the two-loop recursion of L-BFGS over the kept pairs, with
//       g_A = 0), p_A = 0; when p is not a descent direction the memory is dropped and p = −g_F;
//   x_{t+1} = P(x_t + α p), α = 1, ½, ¼ … the first with the Armijo condition along the
//       projection arc, f(x_{t+1}) ≤ f(x_t) + c₁ gᵀ(x_{t+1} − x_t);
//   the pair (x_{t+1} − x_t, g_{t+1} − g_t) is kept when its curvature sᵀy is positive.
//
// A trial point where f or ∇f is not finite (outside the domain: a kernel matrix that is not
// positive definite) is rejected like one without sufficient decrease. The stationarity measure
// reported as the gradient norm, and tested against stop.gradient_tolerance, is the projected
// gradient ‖x − P(x − ∇f(x))‖₂, zero exactly at a KKT point. This is not L-BFGS-B (no generalised
// Cauchy point, no subspace minimisation); with no active bound it is L-BFGS with a backtracking
// line search. Without bounds prefer Lbfgs (strong Wolfe line search).
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"
#include "optim/projected_gradient.h"

namespace dagml {

struct ProjectedLbfgsOptions {
  StopOptions stop = {.max_iterations = 1000, .gradient_tolerance = 1e-6};
  Box box = {};
  Index memory = 10;           // m ≥ 1 pairs kept
  Scalar c1 = 1e-4;            // Armijo constant, in (0, 1)
  Index max_backtracks = 50;   // ≥ 1
};

class ProjectedLbfgs {
 public:
  // Throws ValueError for invalid options or box.
  explicit ProjectedLbfgs(ProjectedLbfgsOptions options = {});
  explicit ProjectedLbfgs(DefaultOptions) : ProjectedLbfgs() {}  // Note [Constructing from options]
  // ShapeError if the box's non-empty bounds do not have the objective's dimension. x0 is
  // projected into the box first.
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const ProjectedLbfgsOptions& options() const { return options_; }

 private:
  ProjectedLbfgsOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const ProjectedLbfgsOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
