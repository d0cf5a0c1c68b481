#include "models/linear/nonlinear_least_squares.h"

#include <cmath>

#include "autodiff/elementwise.h"
#include "graph/graph.h"
#include "models/data/validate.h"
#include "models/io/text_model_file.h"
#include "models/linear/linear_model.h"
#include "models/metrics/regression_metrics.h"
#include "optim/gauss_newton.h"
#include "optim/graph_objective.h"
#include "optim/levenberg_marquardt.h"

namespace dagml {
namespace {

// f(X; w) on a graph, with its shape checked.
Var build_model(const NonlinearLeastSquaresOptions& o, Var X, Var w, const char* who) {
  const Var f = o.model(X, w);
  if (!f.valid() || &f.graph() != &X.graph()) {
    throw ValueError(fmt::format("{}: the model must return a node of the graph it is given", who));
  }
  if (f.rows() != X.rows() || f.cols() != 1) {
    throw ShapeError(fmt::format("{}: expected the model to return {}×1 predictions (one per row of X), found {}", who,
                                 X.rows(), to_string(f.shape())));
  }
  return f;
}

}  // namespace

NonlinearLeastSquares::NonlinearLeastSquares(const NonlinearLeastSquaresOptions& options) : options_(options) {
  const char* who = "NonlinearLeastSquares";
  if (!options.model) throw ValueError(fmt::format("{}: expected a model function, found none", who));
  if (options.initial_params.size() == 0) {
    throw ValueError(fmt::format("{}: expected initial_params with at least one entry, found none", who));
  }
  check_finite(options.initial_params, who);
  if (options.max_iterations < 1) {
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, options.max_iterations));
  }
  if (!(options.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", who, options.tolerance));
}

NonlinearLeastSquares& NonlinearLeastSquares::fit(const Tensor& X, const Vector& y) {
  const char* who = "NonlinearLeastSquares::fit";
  check_regression_data(X, y, who);
  Graph g;
  const Var Xv = g.input("X", X);
  const Var w = g.parameter("w", Tensor(options_.initial_params));
  const Var r = build_model(options_, Xv, w, who) - g.constant(Tensor(y), "y");  // r = F(w) − y
  const auto objective = GraphObjective::least_squares(r, {w});
  const StopOptions stop{.max_iterations = options_.max_iterations,
                         .gradient_tolerance = 0,
                         .value_tolerance = options_.tolerance,
                         .step_tolerance = options_.tolerance};
  if (options_.method == NonlinearLeastSquaresOptions::Method::GaussNewton) {
    result_ = minimize(*objective, options_.initial_params, GaussNewtonOptions{.stop = stop});
  } else {
    result_ = minimize(*objective, options_.initial_params, LevenbergMarquardtOptions{.stop = stop});
  }
  params_ = result_.x;
  num_inputs_ = X.cols();
  fitted_ = true;
  return *this;
}

Vector NonlinearLeastSquares::predict(const Tensor& X) const {
  const char* who = "NonlinearLeastSquares::predict";
  check_fitted(fitted_, who);
  check_columns(X, num_inputs_, who);
  check_finite(X, who);
  Graph g;
  const Var f = build_model(options_, g.input("X", X), g.constant(Tensor(params_), "w"), who);
  return f.value().col(0);
}

Scalar NonlinearLeastSquares::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "NonlinearLeastSquares::score");
  return r2_score(y, prediction);
}

const Vector& NonlinearLeastSquares::params() const {
  check_fitted(fitted_, "NonlinearLeastSquares::params");
  return params_;
}

Scalar NonlinearLeastSquares::loss() const {
  check_fitted(fitted_, "NonlinearLeastSquares::loss");
  return result_.value;
}

void NonlinearLeastSquares::save(const std::string& path) const {
  check_fitted(fitted_, "NonlinearLeastSquares::save");
  ModelWriter writer("NonlinearLeastSquares");
  writer.put_vector("params", params_);
  writer.put_vector("initial_params", options_.initial_params);
  writer.put_scalar("method", static_cast<Scalar>(options_.method));
  writer.put_scalar("max_iterations", static_cast<Scalar>(options_.max_iterations));
  writer.put_scalar("tolerance", options_.tolerance);
  writer.put_scalar("num_inputs", static_cast<Scalar>(num_inputs_));
  writer.put_scalar("loss", result_.value);
  writer.save(path);
}

NonlinearLeastSquares NonlinearLeastSquares::load(const std::string& path, std::function<Var(Var X, Var w)> model) {
  const ModelReader reader(path, "NonlinearLeastSquares");
  NonlinearLeastSquares m(
      {.model = std::move(model),
       .initial_params = reader.vector("initial_params"),
       .method = static_cast<NonlinearLeastSquaresOptions::Method>(static_cast<int>(reader.scalar("method"))),
       .max_iterations = static_cast<Index>(reader.scalar("max_iterations")),
       .tolerance = reader.scalar("tolerance")});
  m.params_ = reader.vector("params");
  m.num_inputs_ = static_cast<Index>(reader.scalar("num_inputs"));
  m.result_.x = m.params_;
  m.result_.value = reader.scalar("loss");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
