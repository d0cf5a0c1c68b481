#include "models/linear/ridge.h"

#include <cmath>

#include "graph/graph.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<Ridge, RidgeOptions>;

Ridge::Ridge(const RidgeOptions& options) : LinearRegressor(options) {
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda)) {
    throw ValueError(fmt::format("Ridge: expected lambda ≥ 0 and finite, found {}", options.lambda));
  }
  check_finite(options.target, "Ridge: target");
  validate(options.iterative, "Ridge");
}

Ridge& Ridge::fit(const Tensor& X, const Vector& y) {
  check_regression_data(X, y, "Ridge::fit");
  const Index d = X.cols();
  const Vector w0 = options_.target.size() == 0 ? Vector::Zero(d) : options_.target;
  if (w0.size() != d) {
    throw ShapeError(
        fmt::format("Ridge::fit: expected a target w₀ with one entry per feature ({}), found {}", d, w0.size()));
  }
  const CenteredData c = center_data(X, y, options_.fit_intercept);
  const Vector shifted = c.y - c.X * w0;
  Vector w;
  optimizer_result_ = {};
  if (options_.solver == LinearSolver::Iterative) {
    IterativeFit it = minimize_ridge_loss(c.X, c.y, options_.lambda, w0, options_.iterative);
    w = std::move(it.w);
    optimizer_result_ = std::move(it.result);
  } else if (options_.lambda == 0) {
    // No penalty: least squares, the minimum-norm δ when X is rank deficient (XᵀX singular).
    w = w0 + solve_least_squares(c.X, shifted).w;
  } else {
    Graph g;
    const Var delta = ridge_solve(g.input("X", c.X), g.input("y", Tensor(shifted)),
                                  g.constant(scalar_tensor(options_.lambda)), {.form = options_.form});
    w = w0 + Vector(delta.value().col(0));
  }
  const Scalar b = c.y_mean - c.x_mean.dot(w);
  set_fit(std::move(w), b);
  return *this;
}

}  // namespace dagml
