#include "models/classify/logistic_regression.h"

#include <fmt/format.h>

#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/gradient_descent.h"
#include "optim/lbfgs.h"
#include "optim/newton.h"

namespace dagml {

template class Estimator<LogisticRegression, LogisticRegressionOptions>;

namespace {

bool sigmoid_model(Index K, const LogisticRegressionOptions& o) {
  return K == 2 && o.multi_class == LogisticMultiClass::Auto;
}

}  // namespace

LogisticProblem make_logistic_problem(const Tensor& X, const Vector& y, const LogisticRegressionOptions& options) {
  const char* who = "LogisticRegression::fit";
  const Index K = check_classification_data(X, y, who);
  const Index d = X.cols(), k = sigmoid_model(K, options) ? 1 : K;
  LogisticProblem p;
  p.graph = std::make_unique<Graph>();
  Graph& g = *p.graph;
  p.X = g.input("X", X);
  p.y = g.input("y", Tensor(y));
  p.W = g.parameter("W", Tensor::Zero(d, k));
  Var z = matmul(p.X, p.W);
  std::vector<Var> params = {p.W};
  if (options.fit_intercept) {
    p.b = g.parameter("b", Tensor::Zero(1, k));
    z = z + p.b;
    params.push_back(p.b);
  }
  // Data term: Σᵢ ℓᵢ, or its mean (divided at run time, so that a minibatch gives its own mean).
  const Var per_row =
      k == 1 ? binary_cross_entropy_with_logits_elementwise(z, p.y) : softmax_cross_entropy_rows(z, p.y);
  const Var data = options.reduction == LossReduction::Mean ? mean(per_row) : sum(per_row);
  Var loss = data;
  if (std::isfinite(options.C)) {
    const Scalar half_lambda = 0.5 / options.C;
    loss = loss + squared_l2_norm(p.W) * half_lambda;
    if (options.fit_intercept && options.penalize_intercept) loss = loss + squared_l2_norm(p.b) * half_lambda;
  }
  GraphObjectiveOptions batches;
  if (options.batch_size > 0) batches.data = {{p.X, X}, {p.y, Tensor(y)}};
  p.objective = std::make_unique<GraphObjective>(loss, params, std::move(batches));
  return p;
}

LogisticRegression::LogisticRegression(const LogisticRegressionOptions& options, std::shared_ptr<const UpdateRule> rule)
    : LinearClassifier(options), rule_(std::move(rule)) {
  if (!(options.C > 0))
    throw ValueError(fmt::format("LogisticRegression: expected C > 0 (or +inf), found {}", options.C));
  if (!(options.tolerance > 0))
    throw ValueError(fmt::format("LogisticRegression: expected tolerance > 0, found {}", options.tolerance));
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("LogisticRegression: expected max_iterations ≥ 1, found {}", options.max_iterations));
  if (options.batch_size < 0 || (options.batch_size > 0 && (options.reduction != LossReduction::Mean ||
                                                            options.solver != LogisticSolver::FirstOrder)))
    throw ValueError(fmt::format(
        "LogisticRegression: expected batch_size = 0, or batch_size ≥ 1 with reduction = Mean and the FirstOrder "
        "solver; found batch_size = {}",
        options.batch_size));
  if (!(options.value_tolerance >= 0))
    throw ValueError(
        fmt::format("LogisticRegression: expected value_tolerance ≥ 0, found {}", options.value_tolerance));
}

LogisticRegression& LogisticRegression::fit(const Tensor& X, const Vector& y) {
  LogisticProblem p = make_logistic_problem(X, y, options_);
  const StopOptions stop{.max_iterations = options_.max_iterations,
                         .gradient_tolerance = options_.tolerance,
                         .value_tolerance = options_.value_tolerance};
  GraphObjective& objective = *p.objective;
  const Vector x0 = objective.parameters_vector();
  switch (options_.solver) {
    case LogisticSolver::Lbfgs:
      result_ = minimize(objective, x0, LbfgsOptions{.stop = stop});
      break;
    case LogisticSolver::Newton:
      result_ = minimize(objective, x0, NewtonOptions{.stop = stop});
      break;
    case LogisticSolver::FirstOrder: {
      const GradientStep plain({.schedule = StepSchedule::constant(0.1)});
      const UpdateRule& rule = rule_ ? *rule_ : static_cast<const UpdateRule&>(plain);
      result_ = minimize(objective, x0, rule,
                         FirstOrderOptions{.stop = stop, .batch_size = options_.batch_size, .seed = options_.seed});
      break;
    }
  }
  objective.set_parameters(result_.x);
  coef_ = p.W.value();
  intercept_ = options_.fit_intercept ? Vector(p.b.value().transpose()) : Vector::Zero(coef_.cols());
  // Softmax logits are invariant to a common shift of the unpenalised intercepts: report the
  // representative with Σ_k b_k = 0 (the one gradient methods started from 0 keep).
  if (coef_.cols() > 1 && !options_.penalize_intercept) intercept_.array() -= intercept_.mean();
  num_classes_ = static_cast<Index>(y.maxCoeff()) + 1;
  set_fitted(X.cols());
  return *this;
}

Tensor LogisticRegression::predict_proba(const Tensor& X) const {
  const Tensor Z = decision_function(X);
  Tensor P(Z.rows(), num_classes_);
  if (Z.cols() == 1) {
    // σ(z) = 1/(1 + e^{−z}), and 1 − σ(z) = σ(−z), each without overflow.
    P.col(1) = (1 + (-Z.col(0).array()).exp()).inverse();
    P.col(0) = (1 + Z.col(0).array().exp()).inverse();
  } else {
    P = (Z.colwise() - Z.rowwise().maxCoeff()).array().exp().matrix();
    P.array().colwise() /= P.rowwise().sum().array();
  }
  return P;
}

}  // namespace dagml
