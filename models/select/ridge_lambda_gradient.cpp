#include "models/select/ridge_lambda_gradient.h"

#include <cmath>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/solvers.h"
#include "graph/executor.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/linear/linear_model.h"
#include "models/select/hyperparameter_search.h"
#include "optim/graph_objective.h"

namespace dagml {

RidgeCvLoss::RidgeCvLoss(const Tensor& X, const Vector& y, const Folds& folds, bool fit_intercept)
    : graph_(std::make_unique<Graph>()) {
  const char* who = "RidgeCvLoss";
  check_regression_data(X, y, who, 2);
  if (folds.num_samples() != X.rows()) {
    throw ShapeError(fmt::format("{}: expected folds over the {} samples of X, found folds over {}", who, X.rows(),
                                 folds.num_samples()));
  }
  Graph& g = *graph_;
  t_ = g.parameter("log_lambda", scalar_tensor(0));
  const Var lambda = exp(t_);
  std::vector<Var> fold_losses;
  for (const Fold& fold : folds) {
    const CenteredData c = center_data(take_rows(X, fold.train), take_rows(y, fold.train), fit_intercept);
    // Validation rows centred with the training means; the intercept ȳ is added back below, so
    // V w + b − v = (V − x̄ᵀ) w − (v − ȳ).
    const Tensor V = take_rows(X, fold.test).rowwise() - c.x_mean.transpose();
    const Tensor v = take_rows(y, fold.test).array() - c.y_mean;
    const Var w = ridge_solve(g.constant(c.X), g.constant(Tensor(c.y)), lambda);
    fold_losses.push_back(mean_squared_error(matmul(g.constant(V), w), g.constant(v)));
  }
  loss_ = add_n(fold_losses) * (1.0 / static_cast<Scalar>(fold_losses.size()));
  gradient_ = gradient(loss_, t_);
  curvature_ = gradient(gradient_, t_);
  run_ = std::make_unique<Executor>(g, std::vector<Var>{loss_, gradient_, curvature_});
}

void RidgeCvLoss::set_log_lambda(Scalar t) {
  graph_->set_value(t_, scalar_tensor(t));
  run_->run();
}

Scalar RidgeCvLoss::log_lambda() const { return t_.item(); }
Scalar RidgeCvLoss::loss() const { return loss_.item(); }
Scalar RidgeCvLoss::derivative() const { return gradient_.item(); }
Scalar RidgeCvLoss::second_derivative() const { return curvature_.item(); }

RidgeLambdaSearch ridge_lambda_by_gradient(const Tensor& X, const Vector& y, const Folds& folds, Scalar initial_lambda,
                                           bool fit_intercept) {
  if (!(initial_lambda > 0) || !std::isfinite(initial_lambda)) {
    throw ValueError(fmt::format("ridge_lambda_by_gradient: expected initial_lambda > 0, found {}", initial_lambda));
  }
  RidgeCvLoss cv(X, y, folds, fit_intercept);
  GraphObjective objective(cv.loss_node(), {cv.parameter()});
  const Vector t0 = Vector::Constant(1, std::log(initial_lambda));
  RidgeLambdaSearch search;
  search.result = minimize_cv_loss(objective, t0);
  cv.set_log_lambda(search.result.x(0));
  search.lambda = std::exp(search.result.x(0));
  search.cv_loss = cv.loss();
  return search;
}

}  // namespace dagml
