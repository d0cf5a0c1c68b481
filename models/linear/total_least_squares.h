// Total least squares (errors in variables, orthogonal regression), by the SVD of [X y].
//
//   TotalLeastSquares tls;
//   tls.fit(X, y);                 // NumericalError when the solution does not exist
#pragma once

#include <string>

#include "models/linear/linear_model.h"

namespace dagml {

struct TotalLeastSquaresOptions {
  bool fit_intercept = true;  // centre X and y first (the fitted hyperplane passes through the means)

  template <class V>
  void visit(V&& v) {
    v("fit_intercept", fit_intercept, "centre X and y first");
  }
};

// Objective (notes 000 §2.7): min ‖[ε_X ε_y]‖_F² subject to (X + ε_X) w = y + ε_y. With the SVD
// [X y] = Σᵢ σᵢ uᵢ vᵢᵀ (d+1 singular values, descending), Eckart–Young gives the smallest
// correction [ε_X ε_y] = −σ_{d+1} u_{d+1} v_{d+1}ᵀ and
//   w = −v_{d+1}[1:d] / v_{d+1}[d+1] = (XᵀX − σ_{d+1}² I)⁻¹ Xᵀy   ("ridge with a negative λ").
// Existence: the notes' proposition requires σ_{d+1} < σ̃_d, the smallest singular value of X;
// fit checks it and throws NumericalError (giving both values) when it fails, since then
// XᵀX − σ_{d+1}²I is singular or indefinite and the last entry of v_{d+1} may vanish.
class TotalLeastSquares : public LinearRegressor<TotalLeastSquares, TotalLeastSquaresOptions> {
 public:
  static constexpr const char* kTypeName = "total_least_squares";

  explicit TotalLeastSquares(const TotalLeastSquaresOptions& options = {});

  // X n×d, y length n with n ≥ d + 1. Throws ValueError (empty, NaN, too few samples),
  // ShapeError (lengths) and NumericalError (the existence condition fails).
  TotalLeastSquares& fit(const Tensor& X, const Vector& y);

  // σ_{d+1} of the (centred) [X y], and σ̃_d of the (centred) X.
  Scalar smallest_singular_value() const { return fitted_value(sigma_); }
  Scalar smallest_feature_singular_value() const { return fitted_value(sigma_x_); }
  // The corrections on the training data: [ε_X ε_y] = −σ_{d+1} u_{d+1} v_{d+1}ᵀ, n×(d+1); the
  // corrected data [X + ε_X, y + ε_y] lies exactly on the fitted hyperplane. They are a
  // property of the training data, so save does not write them (a model file holds no training
  // data): on a loaded model, as before fit, corrections() throws NotFittedError saying so.
  const Tensor& corrections() const;

  // Saves w, b, the options and both singular values; not the corrections (see above).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(sigma_, sigma_x_);
  }

 private:
  Scalar sigma_ = 0, sigma_x_ = 0;
  Tensor corrections_;
};

extern template class Estimator<TotalLeastSquares, TotalLeastSquaresOptions>;

}  // namespace dagml
