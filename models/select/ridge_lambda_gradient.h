// Gradient-based choice of the ridge penalty: the k-fold cross-validation loss as a graph of
// t = log λ, differentiated through the ridge_solve node.
//
//   RidgeCvLoss cv(X, y, KFold(n, {.k = 5, .shuffle = true}));
//   cv.set_log_lambda(0.0);
//   Scalar loss = cv.loss();  Scalar slope = cv.derivative();  Scalar curvature = cv.second_derivative();
#pragma once

#include <memory>

#include "graph/executor.h"
#include "graph/graph.h"
#include "models/data/folds.h"
#include "optim/result.h"

namespace dagml {

// Note [Differentiating a validation loss through a fit]
// For fold f with training rows (X_f, y_f), centred by their own means, and validation rows
// (V_f, v_f), ridge gives w_f(λ) = ridge_solve(X_f, y_f, λ) and the validation loss
//   CV(t) = (1/k) Σ_f (1/|V_f|) ‖V_f w_f(eᵗ) + b_f − v_f‖²,   b_f = ȳ_f − x̄_fᵀ w_f,
// a smooth function of t = log λ. Its derivative needs no finite differences: ridge_solve's
// backward is implicit differentiation of (XᵀX + λI) w = Xᵀy, dw/dλ = −(XᵀX + λI)⁻¹ w, and the
// graph differentiates that again for the second derivative. Working in log λ keeps λ > 0 and
// makes the loss much closer to quadratic than in λ.
class RidgeCvLoss {
 public:
  // X n×d, y length n, folds over the n samples (ShapeError otherwise; ValueError for NaN). The
  // graph (k ridge solves, their gradient and its gradient) is built once here and replayed.
  RidgeCvLoss(const Tensor& X, const Vector& y, const Folds& folds, bool fit_intercept = true);

  void set_log_lambda(Scalar t);  // then replays the graph
  Scalar log_lambda() const;
  Scalar loss() const;               // CV(t), the mean validation MSE over folds
  Scalar derivative() const;         // dCV/dt
  Scalar second_derivative() const;  // d²CV/dt²

  // The graph, for optimizers that take a graph loss: `parameter()` is the 1×1 node t and
  // `loss_node()` the 1×1 CV loss.
  Graph& graph() { return *graph_; }
  Var parameter() const { return t_; }
  Var loss_node() const { return loss_; }

 private:
  std::unique_ptr<Graph> graph_;  // on the heap: Vars point at it, and the object may move
  Var t_, loss_, gradient_, curvature_;
  std::unique_ptr<Executor> run_;
};

struct RidgeLambdaSearch {
  Scalar lambda = 0;   // e^{t*}
  Scalar cv_loss = 0;  // CV(t*), the mean validation MSE
  Result result;       // the optimizer's run over t (status, iterations, history of CV)
};

// Minimises CV(t) over t = log λ by L-BFGS (optim/lbfgs.h, strong Wolfe line search) from
// t₀ = log(initial_lambda), stopping at |dCV/dt| ≤ 1e-6 CV(t₀). L-BFGS rather than Newton: CV is often
// concave in t between a small λ and the minimum, where Newton's step must be regularised. Throws ValueError unless
// initial_lambda > 0, and as RidgeCvLoss. CV need not be convex in t: the answer is a local minimum near t₀, which the
// example compares with a grid search.
RidgeLambdaSearch ridge_lambda_by_gradient(const Tensor& X, const Vector& y, const Folds& folds,
                                           Scalar initial_lambda = 1, bool fit_intercept = true);

}  // namespace dagml
