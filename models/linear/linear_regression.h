// Ordinary least squares: the linear model fitted by minimising the sum of squared residuals.
//
//   LinearRegression ols;                  // or ols({.fit_intercept = false})
//   ols.fit(X, y);
//   Vector y_hat = ols.predict(X_new);
//   if (ols.rank_deficient()) { … }        // minimum-norm answer, see below
#pragma once

#include <string>

#include "models/linear/iterative_least_squares.h"
#include "models/linear/linear_model.h"

namespace dagml {

struct LinearRegressionOptions {
  bool fit_intercept = true;  // an unpenalised intercept b (Note [Unpenalised intercept by centring])
  // ClosedForm: QR as below. Iterative: Newton or L-BFGS on the graph loss ‖Xc w − yc‖² from w = 0
  // (models/linear/iterative_least_squares.h); for a rank-deficient X it converges to the
  // minimiser nearest 0, the same minimum-norm answer.
  LinearSolver solver = LinearSolver::ClosedForm;
  IterativeSolverOptions iterative{};

  template <class V>
  void visit(V&& v) {
    v("fit_intercept", fit_intercept, "fit an unpenalised intercept");
    v("solver", solver, "closed_form (QR, minimum-norm) or iterative (Newton / L-BFGS on the graph loss)");
    v("iterative", iterative, "the iterative solver's settings");
  }
};

// Objective (notes 000 §1.1): L(w, b) = ‖X w + b 1 − y‖²; normal equations XcᵀXc w = Xcᵀyc.
// Solved by QR with column pivoting on the centred data (Note [Least squares by complete
// orthogonal decomposition]), never by forming (XᵀX)⁻¹. When X is rank deficient (collinear
// columns, or fewer samples than features) the normal equations have infinitely many solutions;
// fit then returns the minimum-norm one, w = Xc⁺ yc, and sets rank_deficient(). NaN is never
// returned.
class LinearRegression : public LinearRegressor<LinearRegression, LinearRegressionOptions> {
 public:
  static constexpr const char* kTypeName = "linear_regression";

  // Throws ValueError for invalid iterative options.
  explicit LinearRegression(const LinearRegressionOptions& options = {});

  // X n×d, y length n, n ≥ 1. Throws ValueError (empty, NaN or infinite) or ShapeError (lengths).
  LinearRegression& fit(const Tensor& X, const Vector& y);

  // The numerical rank of the (centred) design matrix, and whether it is below d (computed by QR
  // for either solver).
  Index rank() const { return fitted_value(rank_); }
  bool rank_deficient() const { return rank() < num_features(); }
  // The optimizer's result (status, iterations, history) of the last iterative fit; empty
  // (iterations = 0) after a closed-form fit.
  const Result& optimizer_result() const { return optimizer_result_; }

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(rank_);
  }

 private:
  Index rank_ = 0;
  Result optimizer_result_;
};

extern template class Estimator<LinearRegression, LinearRegressionOptions>;

}  // namespace dagml
