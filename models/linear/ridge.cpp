#include "models/linear/ridge.h"

#include <cmath>

#include "graph/graph.h"
#include "models/data/validate.h"

namespace dagml {

Ridge::Ridge(const RidgeRegressionOptions& options) : LinearPredictor("Ridge"), options_(options) {
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

void Ridge::save(const std::string& path) const {
  ModelWriter writer("Ridge");
  save_fit(writer);
  writer.put_scalar("lambda", options_.lambda);
  writer.put_scalar("fit_intercept", options_.fit_intercept ? 1 : 0);
  writer.put_vector("target", options_.target.size() ? options_.target : Vector::Zero(num_features()));
  writer.put_scalar("form", static_cast<Scalar>(options_.form));
  writer.put_scalar("solver", static_cast<Scalar>(options_.solver));
  writer.save(path);
}

Ridge Ridge::load(const std::string& path) {
  const ModelReader reader(path, "Ridge");
  Ridge model({.lambda = reader.scalar("lambda"),
               .fit_intercept = reader.scalar("fit_intercept") != 0,
               .target = reader.vector("target"),
               .form = static_cast<RidgeOptions::Form>(static_cast<int>(reader.scalar("form"))),
               .solver = static_cast<LinearSolver>(static_cast<int>(reader.scalar("solver")))});
  model.load_fit(reader);
  return model;
}

}  // namespace dagml
