// Ridge regression, optionally shrinking towards a target w₀ instead of 0.
//
//   Ridge ridge({.lambda = 1.0});
//   ridge.fit(X, y);
//   Vector y_hat = ridge.predict(X_new);
#pragma once

#include <string>

#include "autodiff/solvers.h"
#include "models/linear/iterative_least_squares.h"
#include "models/linear/linear_model.h"

namespace dagml {

struct RidgeOptions {
  Scalar lambda = 1.0;        // λ ≥ 0, the weight of the penalty (scikit-learn's Ridge `alpha`)
  bool fit_intercept = true;  // an unpenalised intercept (Note [Unpenalised intercept by centring])
  // w₀: the coefficients are shrunk towards it (MAP with the prior N(w₀, σ²/λ I), notes 000 §2.1).
  // Empty means 0; otherwise it must have one entry per feature (checked at fit).
  Vector target{};
  // Primal (XᵀX + λI)⁻¹Xᵀy or dual Xᵀ(XXᵀ + λI)⁻¹y; Automatic takes the dual when n < d.
  RidgeSolveOptions::Form form = RidgeSolveOptions::Form::Automatic;
  // ClosedForm: the ridge_solve node. Iterative: Newton or L-BFGS on the graph loss from w = w₀
  // (models/linear/iterative_least_squares.h).
  LinearSolver solver = LinearSolver::ClosedForm;
  IterativeSolverOptions iterative{};

  template <class V>
  void visit(V&& v) {
    v("lambda", lambda, "λ ≥ 0, the weight of the L2 penalty (scikit-learn's alpha)");
    v("fit_intercept", fit_intercept, "fit an unpenalised intercept");
    v("target", target, "w₀, the coefficients shrunk towards (empty: 0)");
    v("form", form, "primal, dual, or automatic (dual when n < d)");
    v("solver", solver, "closed_form (the ridge_solve node) or iterative (Newton / L-BFGS on the graph loss)");
    v("iterative", iterative, "the iterative solver's settings");
  }
};

// Objective (notes 000 §1.2, §2.1): L(w, b) = ‖X w + b 1 − y‖² + λ ‖w − w₀‖².
// With δ = w − w₀ on the centred data this is ordinary ridge for δ with targets yc − Xc w₀:
//   w = w₀ + (XcᵀXc + λI)⁻¹ Xcᵀ (yc − Xc w₀),   b = ȳ − x̄ᵀw,
// computed by the ridge_solve node (autodiff/solvers.h), the same node that lets a validation
// loss be differentiated with respect to λ (models/select/ridge_lambda_gradient.h). λ = 0 is
// least squares by QR: the minimum-norm δ when X is rank deficient (as LinearRegression).
class Ridge : public LinearRegressor<Ridge, RidgeOptions> {
 public:
  static constexpr const char* kTypeName = "ridge";

  // Throws ValueError if λ is negative or not finite, the target has a NaN, or the iterative
  // options are invalid.
  explicit Ridge(const RidgeOptions& options = {});

  // X n×d, y length n. Throws ValueError (empty, NaN) and ShapeError (lengths, target length).
  Ridge& fit(const Tensor& X, const Vector& y);

  // The optimizer's result of the last iterative fit; empty after a closed-form fit.
  const Result& optimizer_result() const { return optimizer_result_; }

  // The options and the fitted coefficients (not the optimizer's result).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
  }

 private:
  Result optimizer_result_;
};

extern template class Estimator<Ridge, RidgeOptions>;

}  // namespace dagml
