#include "models/linear/nonlinear_least_squares.h"

#include <cmath>

#include "autodiff/elementwise.h"
#include "graph/graph.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/linear/linear_model.h"
#include "models/metrics/regression_metrics.h"
#include "optim/gauss_newton.h"
#include "optim/graph_objective.h"
#include "optim/levenberg_marquardt.h"

namespace dagml {

template void Estimator<NonlinearLeastSquares, NonlinearLeastSquaresOptions>::save(const std::string&) const;
template std::string Estimator<NonlinearLeastSquares, NonlinearLeastSquaresOptions>::to_bytes() const;

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

NonlinearLeastSquares::NonlinearLeastSquares(const NonlinearLeastSquaresOptions& options) : Estimator(options) {
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
  if (!(options.initial_damping > 0) || !std::isfinite(options.initial_damping))
    throw ValueError(fmt::format("{}: expected initial_damping finite and > 0, found {}", who, options.initial_damping));
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
    result_ = minimize(*objective, options_.initial_params,
                       LevenbergMarquardtOptions{.stop = stop,
                                                 .initial_damping = options_.initial_damping,
                                                 .scale_by_diagonal = options_.scale_by_diagonal});
  }
  params_ = result_.x;
  set_fitted(X.cols());
  return *this;
}

Vector NonlinearLeastSquares::predict(const Tensor& X) const {
  check_input(X);
  Graph g;
  const Var f = build_model(options_, g.input("X", X), g.constant(Tensor(params_), "w"), "NonlinearLeastSquares::predict");
  return f.value().col(0);
}

Scalar NonlinearLeastSquares::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "NonlinearLeastSquares::score");
  return r2_score(y, prediction);
}

NonlinearLeastSquares::NonlinearLeastSquares(ModelFunction model) {
  options_.model = std::move(model);
}

NonlinearLeastSquares NonlinearLeastSquares::from_model_file(const ModelFile& file, ModelFunction model) {
  return model_from_file(file, NonlinearLeastSquares(std::move(model)));
}

NonlinearLeastSquares NonlinearLeastSquares::load(const std::string& path, ModelFunction model) {
  return from_model_file(ModelFile::read(path), std::move(model));
}

void NonlinearLeastSquares::check_loaded(const ModelInputArchive& ar) {
  const Index p = fitted() ? options_.initial_params.size() : 0;
  if (params_.size() != p || !params_.allFinite() || (fitted() && num_features() < 1)) {
    ar.fail(fmt::format("NonlinearLeastSquares: expected {} finite parameters (one per entry of initial_params) for "
                        "d ≥ 1 inputs, found {} for d = {}",
                        p, params_.size(), fitted() ? num_features() : 0));
  }
  result_.x = params_;
}

}  // namespace dagml
