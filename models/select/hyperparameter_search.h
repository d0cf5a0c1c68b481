// The minimiser shared by the gradient-based hyperparameter searches (ridge λ, kernel scale):
// a cross-validation loss of a few log-scale hyperparameters, as a graph.
#pragma once

#include "optim/graph_objective.h"
#include "optim/result.h"

namespace dagml {

// Note [Two-stage hyperparameter search]
// A CV loss is smooth but often not convex in log λ (it can be concave between a small λ and the
// minimum) and very flat near its minimum. So: L-BFGS (optim/lbfgs.h, strong Wolfe) from x0 until
// ‖∇CV‖ ≤ 1e-6 CV(x0), which reaches the basin of a minimum without needing a positive definite
// Hessian; then Newton's method (optim/newton.h, the Hessian from the graph) from there until
// ‖∇CV‖ ≤ 1e-10 CV(x0), which converges quadratically inside the basin. The better of the two
// iterates is returned (Newton's result, unless it failed to improve or a trial step threw
// NumericalError, e.g. a λ so small that the fit's system is no longer positive definite). The
// result's iterations, evaluations and history cover both stages, its message both reasons.
Result minimize_cv_loss(GraphObjective& objective, const Vector& x0);

}  // namespace dagml
