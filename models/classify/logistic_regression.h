// Logistic regression, binary (sigmoid) and multinomial (softmax), with an L2 penalty. The loss
// and its derivatives come from the graph (optim/graph_objective.h); the solvers are optim's:
// L-BFGS (default), Newton (= IRLS, with the autodiff Hessian), or any first-order update rule.
//
// Objective (scikit-learn's scaling, reduction = Sum; notes 001's sum form):
//   binary (K = 2):  J(w, b) = Σᵢ ℓ(zᵢ, yᵢ) + (1/(2C)) ‖w‖²,  zᵢ = wᵀxᵢ + b,  yᵢ ∈ {0, 1}
//                    ℓ(z, y) = log(1 + eᶻ) − y z = −y log σ(z) − (1 − y) log(1 − σ(z))
//   multinomial:     J(W, b) = Σᵢ [logsumexp(zᵢ) − z_{i,yᵢ}] + (1/(2C)) ‖W‖_F²,  zᵢ = Wᵀxᵢ + b
// reduction = Mean divides the data term by n (notes 003/004's mean form): the same minimiser as
// Sum with C replaced by C/n. The ±1-label form log(1 + e^{−y f}) of notes 003 is the same
// function of (w, b) (y± = 2y − 1), so it has the same optimum. The bias is unpenalised unless
// penalize_intercept; C = +∞ removes the penalty (the MLE, which diverges on separable data).
// Gradient: ∇_w J = Xᵀ(σ(z) − y) + w/C; Hessian (IRLS): ∇²J = X̃ᵀSX̃ + diag(1/C…), S = diag(σᵢ(1 − σᵢ))
// (notes 004 Algorithm 10); a test checks the autodiff Hessian against this closed form.
//
// multi_class = Auto uses the sigmoid model for two classes and the softmax for more
// (scikit-learn's 'auto' with lbfgs); Multinomial uses the softmax also for two classes.
// Prediction: binary, z ≥ 0 → class 1 (ZeroScore); multinomial, argmax (lowest index on ties).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "graph/enum_names.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "models/classify/linear_classifier.h"
#include "optim/graph_objective.h"
#include "optim/result.h"
#include "optim/update_rule.h"

namespace dagml {

enum class LogisticSolver {
  Lbfgs,       // optim/lbfgs.h (strong Wolfe line search)
  Newton,      // optim/newton.h with the autodiff Hessian (IRLS); p×p Hessian, p = (d + 1)·K'
  FirstOrder,  // optim/gradient_descent.h, full batch, with `rule`
};
enum class LogisticMultiClass { Auto, Multinomial };
enum class LossReduction { Sum, Mean };
constexpr auto enum_names(LogisticSolver) {
  return std::to_array<EnumName<LogisticSolver>>({{LogisticSolver::Lbfgs, "lbfgs"},
                                                  {LogisticSolver::Newton, "newton"},
                                                  {LogisticSolver::FirstOrder, "first_order"}});
}
constexpr auto enum_names(LogisticMultiClass) {
  return std::to_array<EnumName<LogisticMultiClass>>(
      {{LogisticMultiClass::Auto, "auto"}, {LogisticMultiClass::Multinomial, "multinomial"}});
}
constexpr auto enum_names(LossReduction) {
  return std::to_array<EnumName<LossReduction>>({{LossReduction::Sum, "sum"}, {LossReduction::Mean, "mean"}});
}

struct LogisticRegressionOptions {
  Scalar C = 1;  // > 0, or +∞ for no penalty
  bool fit_intercept = true;
  bool penalize_intercept = false;
  LossReduction reduction = LossReduction::Sum;
  LogisticSolver solver = LogisticSolver::Lbfgs;
  LogisticMultiClass multi_class = LogisticMultiClass::Auto;
  Scalar tolerance = 1e-4;  // stop when ‖∇J‖₂ ≤ tolerance (> 0)
  // Also stop when |J_t − J_{t−1}| ≤ value_tolerance · |J_{t−1}| (≥ 0; 0: off). scipy's L-BFGS-B,
  // under scikit-learn's lbfgs, stops at factr·ε = 1e7 · 2.2e-16 ≈ 2.2e-9 relative decrease.
  Scalar value_tolerance = 0;
  Index max_iterations = 100;  // ≥ 1
  // FirstOrder only: 0 for full-batch steps; k ≥ 1 for minibatches of k rows, one epoch per
  // iteration, rows shuffled per epoch from `seed` (needs reduction = Mean: the batch objective
  // is then the batch mean plus the penalty).
  Index batch_size = 0;
  std::uint64_t seed = 0;
  ZeroScore zero = ZeroScore::Positive;

  template <class V>
  void visit(V&& v) {
    v("C", C, "> 0, the inverse weight of the L2 penalty (inf: no penalty)");
    v("fit_intercept", fit_intercept, "fit a bias");
    v("penalize_intercept", penalize_intercept, "include the bias in the penalty");
    v("reduction", reduction, "sum (scikit-learn's scaling) or mean of the data term");
    v("solver", solver, "lbfgs, newton (IRLS) or first_order (gradient descent with the update rule)");
    v("multi_class", multi_class, "auto (sigmoid for two classes) or multinomial (softmax always)");
    v("tolerance", tolerance, "> 0, stop when ‖∇J‖₂ ≤ tolerance");
    v("value_tolerance", value_tolerance, "≥ 0, also stop on a relative decrease of J below it (0: off)");
    v("max_iterations", max_iterations, "≥ 1 optimizer iterations");
    v("batch_size", batch_size, "first_order: 0 for full batches, k ≥ 1 for minibatches (reduction mean)");
    v("seed", seed, "first_order minibatches: the shuffling seed");
    v("zero", zero, "binary sigmoid model: the class of z = 0, positive or negative");
  }
};

// The fit's objective as a graph, for inspection and tests: inputs X (n×d) and y (n×1 labels),
// parameters W (d×K') and, with an intercept, b (1×K'); K' = 1 for the sigmoid model, else K.
struct LogisticProblem {
  std::unique_ptr<Graph> graph;
  Var X, y, W, b;                             // b is invalid without an intercept
  std::unique_ptr<GraphObjective> objective;  // x = (W row-major, b)
};
// Builds it for labels 0..K−1 (K ≥ 2) with all parameters 0. Throws as LogisticRegression::fit.
LogisticProblem make_logistic_problem(const Tensor& X, const Vector& y, const LogisticRegressionOptions& options);

class LogisticRegression : public LinearClassifier<LogisticRegression, LogisticRegressionOptions> {
 public:
  static constexpr const char* kTypeName = "logistic_regression";

  // `rule` is the FirstOrder solver's update rule (GD, momentum, Nesterov, Adam…); null: plain
  // gradient descent with constant step 0.1. Choose the step for the objective's scale (Mean is
  // easier). It is code, not an option: a loaded model has the default rule.
  // Throws ValueError for C ≤ 0 or NaN, tolerance ≤ 0, max_iterations < 1, value_tolerance < 0,
  // batch_size < 0, or a batch size without reduction = Mean and the FirstOrder solver.
  explicit LogisticRegression(const LogisticRegressionOptions& options = {},
                              std::shared_ptr<const UpdateRule> rule = nullptr);

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, every class present). Throws ShapeError / ValueError for
  // bad shapes, NaN or infinite values, empty data, bad labels, one class only. Not converging
  // within max_iterations is reported by fit_result(), not thrown.
  LogisticRegression& fit(const Tensor& X, const Vector& y);
  // decision_function (n×1 for the sigmoid model, else n×K logits), predict, score, coef() (d×K'),
  // intercept() (length K'; softmax, unpenalised: shifted to Σ_k b_k = 0) and num_classes():
  // linear_classifier.h.
  Tensor predict_proba(const Tensor& X) const;  // n×K, rows sum to 1

  // The optimizer's result: status, iterations, message and the objective per iteration (not
  // saved: empty after load).
  const Result& fit_result() const { return fitted_value(result_); }
  const std::shared_ptr<const UpdateRule>& rule() const { return rule_; }

  // The options, W, b and K.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
  }

 private:
  std::shared_ptr<const UpdateRule> rule_;
  Result result_;
};

extern template class Estimator<LogisticRegression, LogisticRegressionOptions>;

}  // namespace dagml
