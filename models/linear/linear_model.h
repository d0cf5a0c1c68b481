// What the linear regressors share: centring for an unpenalised intercept, least squares, and
// the fitted predictor ŷ = X w + b with its score, accessors and save/load. The input checks of
// fit are check_regression_data (models/data/validate.h).
#pragma once

#include <string>

#include "graph/error.h"
#include "graph/tensor.h"
#include "models/io/model_file.h"

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

// The fitted predictor of a linear regressor. Derived estimators call set_fit at the end of
// fit, and save_fit / load_fit inside their save / load.
class LinearPredictor {
 public:
  // ŷ = X w + b. X must have the columns seen at fit (ShapeError) and finite entries
  // (ValueError). Throws NotFittedError before fit.
  Vector predict(const Tensor& X) const;
  // R² of predict(X) against y (models/metrics/regression_metrics.h).
  Scalar score(const Tensor& X, const Vector& y) const;

  bool fitted() const { return fitted_; }
  const Vector& coef() const;  // w, length d; NotFittedError before fit
  Scalar intercept() const;    // b (0 without an intercept); NotFittedError before fit
  Index num_features() const { return coef().size(); }

 protected:
  explicit LinearPredictor(std::string name) : name_(std::move(name)) {}
  void set_fit(Vector coef, Scalar intercept);
  // The entries "<prefix>coef" and "<prefix>intercept".
  void save_fit(ModelWriter& writer, const std::string& prefix = "") const;
  void load_fit(const ModelReader& reader, const std::string& prefix = "");
  // "<model name>::<method>", for error messages.
  std::string who(const char* method) const { return name_ + "::" + method; }

 private:
  std::string name_;
  Vector coef_;
  Scalar intercept_ = 0;
  bool fitted_ = false;
};

}  // namespace dagml
