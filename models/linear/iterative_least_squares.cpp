#include "models/linear/iterative_least_squares.h"

#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"
#include "optim/newton.h"

namespace dagml {

void validate(const IterativeSolverOptions& options, const char* who) {
  if (options.max_iterations < 1) {
    throw ValueError(fmt::format("{}: expected iterative.max_iterations ≥ 1, found {}", who, options.max_iterations));
  }
  if (!(options.gradient_tolerance > 0) || !std::isfinite(options.gradient_tolerance)) {
    throw ValueError(
        fmt::format("{}: expected iterative.gradient_tolerance > 0, found {}", who, options.gradient_tolerance));
  }
}

IterativeFit minimize_ridge_loss(const Tensor& X, const Vector& y, Scalar lambda, const Vector& w0,
                                 const IterativeSolverOptions& options) {
  Graph g;
  const Var Xv = g.constant(X, "X");
  const Var yv = g.constant(Tensor(y), "y");
  const Var w = g.parameter("w", Tensor(w0));
  Var loss = sum_squared_error(matmul(Xv, w), yv);
  if (lambda > 0) loss = loss + lambda * sum_squared_error(w, g.constant(Tensor(w0), "w0"));
  GraphObjective objective(loss, {w});
  Vector gradient;
  objective.value_and_gradient(w0, gradient);
  const Scalar tolerance = options.gradient_tolerance * std::max<Scalar>(gradient.norm(), 1);
  IterativeFit fit;
  const StopOptions stop{.max_iterations = options.max_iterations, .gradient_tolerance = tolerance};
  if (options.method == IterativeMethod::Newton) {
    fit.result = minimize(objective, w0, NewtonOptions{.stop = stop});
  } else {
    fit.result = minimize(objective, w0, LbfgsOptions{.stop = stop});
  }
  fit.w = fit.result.x;
  return fit;
}

}  // namespace dagml
