// What the linear regressors share: centring for an unpenalised intercept, least squares, and
// the fitted predictor ŷ = X w + b with its score and accessors. The input checks of fit are
// check_regression_data (models/data/validate.h).
#pragma once

#include <string>

#include "graph/error.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/io/loaded_checks.h"

namespace dagml {

// Note [Unpenalised intercept by centring]
// With an intercept b that no penalty touches, minimising ‖X w + b 1 − y‖² + pen(w) over b gives
// b = ȳ − x̄ᵀw for any w; substituting leaves the same problem in w on the centred data
// Xc = X − 1 x̄ᵀ, yc = y − ȳ 1. So every regressor with `fit_intercept` fits w on (Xc, yc) and
// sets b = ȳ − x̄ᵀw. Without an intercept, x̄ = 0 and ȳ = 0.
struct CenteredData {
  Tensor X;       // Xc, n×d
  Vector y;       // yc, n
  Vector x_mean;  // x̄, d (zeros without an intercept)
  Scalar y_mean = 0;
};
CenteredData center_data(const Tensor& X, const Vector& y, bool fit_intercept);

// Note [Least squares by complete orthogonal decomposition]
// argmin_w ‖A w − b‖² by Householder QR with column pivoting, A P = Q R, followed by an RZ
// factorisation of the leading r rows of R (r the numerical rank: |Rᵢᵢ| > ε·max(m, n)·|R₀₀|).
// For full column rank this is the ordinary QR solution; for a rank-deficient A it is the
// minimum-norm solution A⁺ b, the shortest of the infinitely many minimisers. Never forms AᵀA
// or an inverse.
struct LeastSquaresSolution {
  Vector w;
  Index rank = 0;
};
LeastSquaresSolution solve_least_squares(const Tensor& A, const Vector& b);

// ŷ = X w + b (X already checked).
Vector linear_prediction(const Tensor& X, const Vector& coef, Scalar intercept);
// R² of `prediction` against y; ShapeError unless y has one entry per row of X.
Scalar regression_score(const Tensor& X, const Vector& y, const Vector& prediction, const char* who);

// The base of the linear regressors: the fitted ŷ = X w + b with its score and accessors, on
// the estimator contract (models/io/estimator.h). Derived estimators call set_fit at the end of
// fit and serialize_linear in their serialize.
template <class Derived, class Options>
class LinearRegressor : public Estimator<Derived, Options> {
 public:
  // ŷ = X w + b. X must have the columns seen at fit (ShapeError) and finite entries
  // (ValueError). Throws NotFittedError before fit.
  Vector predict(const Tensor& X) const {
    this->check_input(X);
    return linear_prediction(X, coef_, intercept_);
  }
  // R² of predict(X) against y (models/metrics/regression_metrics.h).
  Scalar score(const Tensor& X, const Vector& y) const {
    return regression_score(X, y, predict(X), Derived::kTypeName);
  }
  const Vector& coef() const { return this->fitted_value(coef_); }  // w, length d
  Scalar intercept() const { return this->fitted_value(intercept_); }  // b (0 without an intercept)

 protected:
  using Estimator<Derived, Options>::Estimator;
  void set_fit(Vector coef, Scalar intercept) {
    coef_ = std::move(coef);
    intercept_ = intercept;
    this->set_fitted(coef_.size());
  }
  template <class Archive>
  void serialize_linear(Archive& ar) {
    this->serialize_estimator(ar);
    ar(coef_, intercept_);
    if constexpr (Archive::is_loading::value) {
      if (this->fitted()) expect_size(ar, Derived::kTypeName, "coef", coef_, this->num_features());
    }
  }

 private:
  Vector coef_;
  Scalar intercept_ = 0;
};

}  // namespace dagml
