// Gradient-based choice of kernel-ridge hyperparameters: the k-fold CV loss of kernel ridge with
// the polynomial kernel (γ xᵀz + c)ᵖ as a graph of (log γ, log λ), differentiated through the
// cholesky_solve node.
//
//   PolynomialKernelCvLoss cv(X, y, KFold(n, {.k = 5, .shuffle = true}), {.degree = 2});
//   cv.set(std::log(0.1), std::log(1.0));
//   cv.loss(); cv.gradient();   // ∂CV/∂(log γ, log λ)
//   auto best = polynomial_kernel_ridge_by_gradient(X, y, folds, {.degree = 2});
#pragma once

#include <memory>

#include "graph/executor.h"
#include "graph/graph.h"
#include "models/data/folds.h"
#include "optim/result.h"

namespace dagml {

struct PolynomialKernelCvOptions {
  int degree = 2;             // p ≥ 1
  Scalar coef0 = 1;           // c ≥ 0
  bool center_y = true;       // fit each fold on y − ȳ_train and add ȳ_train back (kernel ridge has no intercept)
  Scalar initial_gamma = 1;   // starting point of the search, > 0
  Scalar initial_lambda = 1;  // > 0
};

// For fold f with training rows X_f (targets y_f, centred when center_y) and validation rows V_f:
//   K_f = (γ X_f X_fᵀ + c)ᵖ,  α_f = (K_f + λI)⁻¹ y_f  (cholesky_solve),  ŷ = (γ V_f X_fᵀ + c)ᵖ α_f,
//   CV(s, t) = (1/k) Σ_f mean (ŷ − v_f)²,   γ = eˢ, λ = eᵗ.
// cholesky_solve's backward (implicit differentiation, Note [Differentiating a validation loss
// through a fit]) gives ∂CV/∂s and ∂CV/∂t.
class PolynomialKernelCvLoss {
 public:
  // X n×d, y length n, folds over the n samples. Throws ShapeError/ValueError for bad data and
  // ValueError for bad options.
  PolynomialKernelCvLoss(const Tensor& X, const Vector& y, const Folds& folds,
                         const PolynomialKernelCvOptions& options = {});

  void set(Scalar log_gamma, Scalar log_lambda);  // then replays the graph
  Scalar loss() const;
  Vector gradient() const;  // (∂CV/∂log γ, ∂CV/∂log λ)

  Graph& graph() { return *graph_; }
  Var log_gamma() const { return s_; }
  Var log_lambda() const { return t_; }
  Var loss_node() const { return loss_; }

 private:
  std::unique_ptr<Graph> graph_;
  Var s_, t_, loss_, ds_, dt_;
  std::unique_ptr<Executor> run_;
};

struct KernelHyperparameterSearch {
  Scalar gamma = 0, lambda = 0;
  Scalar cv_loss = 0;
  Result result;  // the optimizer's run over (log γ, log λ)
};

// Minimises CV over (log γ, log λ) from the options' initial values: L-BFGS, then Newton (Note
// [Two-stage hyperparameter search]). CV need not be convex: the answer is a local minimum.
KernelHyperparameterSearch polynomial_kernel_ridge_by_gradient(const Tensor& X, const Vector& y, const Folds& folds,
                                                               const PolynomialKernelCvOptions& options = {});

}  // namespace dagml
