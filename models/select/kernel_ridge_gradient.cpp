#include "models/select/kernel_ridge_gradient.h"

#include <cmath>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/solvers.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/select/hyperparameter_search.h"
#include "optim/graph_objective.h"

namespace dagml {

PolynomialKernelCvLoss::PolynomialKernelCvLoss(const Tensor& X, const Vector& y, const Folds& folds,
                                               const PolynomialKernelCvOptions& options)
    : graph_(std::make_unique<Graph>()) {
  const char* who = "PolynomialKernelCvLoss";
  check_regression_data(X, y, who, 2);
  if (options.degree < 1) throw ValueError(fmt::format("{}: expected degree ≥ 1, found {}", who, options.degree));
  if (!(options.coef0 >= 0)) throw ValueError(fmt::format("{}: expected coef0 ≥ 0, found {}", who, options.coef0));
  if (!(options.initial_gamma > 0) || !(options.initial_lambda > 0)) {
    throw ValueError(fmt::format("{}: expected initial_gamma > 0 and initial_lambda > 0, found {} and {}", who,
                                 options.initial_gamma, options.initial_lambda));
  }
  if (folds.num_samples() != X.rows()) {
    throw ShapeError(fmt::format("{}: expected folds over the {} samples of X, found folds over {}", who, X.rows(),
                                 folds.num_samples()));
  }
  Graph& g = *graph_;
  s_ = g.parameter("log_gamma", scalar_tensor(std::log(options.initial_gamma)));
  t_ = g.parameter("log_lambda", scalar_tensor(std::log(options.initial_lambda)));
  const Var gamma = exp(s_), lambda = exp(t_);
  const auto kernel = [&](const Tensor& inner) {
    return pow(gamma * g.constant(inner) + options.coef0, options.degree);
  };
  std::vector<Var> fold_losses;
  for (const Fold& fold : folds) {
    const Tensor Xt = take_rows(X, fold.train), V = take_rows(X, fold.test);
    const Vector yt = take_rows(y, fold.train);
    const Scalar shift = options.center_y ? yt.mean() : 0;
    const Var K = kernel(Xt * Xt.transpose());
    const Var A = K + lambda * identity(g, Xt.rows());
    const Var alpha = cholesky_solve(A, g.constant(Tensor(yt.array() - shift)));
    const Var prediction = matmul(kernel(V * Xt.transpose()), alpha);
    fold_losses.push_back(mean_squared_error(prediction, g.constant(Tensor(take_rows(y, fold.test).array() - shift))));
  }
  loss_ = add_n(fold_losses) * (1.0 / static_cast<Scalar>(fold_losses.size()));
  const std::vector<Var> grads = gradients(loss_, {s_, t_});
  ds_ = grads[0];
  dt_ = grads[1];
  run_ = std::make_unique<Executor>(g, std::vector<Var>{loss_, ds_, dt_});
}

void PolynomialKernelCvLoss::set(Scalar log_gamma, Scalar log_lambda) {
  graph_->set_value(s_, scalar_tensor(log_gamma));
  graph_->set_value(t_, scalar_tensor(log_lambda));
  run_->run();
}

Scalar PolynomialKernelCvLoss::loss() const { return loss_.item(); }

Vector PolynomialKernelCvLoss::gradient() const {
  Vector g(2);
  g << ds_.item(), dt_.item();
  return g;
}

KernelHyperparameterSearch polynomial_kernel_ridge_by_gradient(const Tensor& X, const Vector& y, const Folds& folds,
                                                               const PolynomialKernelCvOptions& options) {
  PolynomialKernelCvLoss cv(X, y, folds, options);
  GraphObjective objective(cv.loss_node(), {cv.log_gamma(), cv.log_lambda()});
  KernelHyperparameterSearch search;
  const Vector x0 = objective.parameters_vector();
  search.result = minimize_cv_loss(objective, x0);
  cv.set(search.result.x(0), search.result.x(1));
  search.gamma = std::exp(search.result.x(0));
  search.lambda = std::exp(search.result.x(1));
  search.cv_loss = cv.loss();
  return search;
}

}  // namespace dagml
