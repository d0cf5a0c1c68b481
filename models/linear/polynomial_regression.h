// Polynomial regression: standardise, expand into monomials of degree ≤ p, fit (ridge) least
// squares. The degree is a model hyperparameter to choose by cross-validation (notes 000 §1.3–1.4).
//
//   PolynomialRegression poly({.degree = 2, .lambda = 1.0});
//   poly.fit(X, y);
//   auto curve = validation_curve<PolynomialRegression>(PolynomialRegressionOptions{},
//       &PolynomialRegressionOptions::degree, std::vector<Index>{0, 1, 2, 3}, X, y, KFold(n));
#pragma once

#include <string>

#include "models/data/polynomial_features.h"
#include "models/data/standard_scaler.h"
#include "models/io/model_file.h"
#include "models/linear/generalized_least_squares.h"

namespace dagml {

struct PolynomialRegressionOptions {
  Index degree = 2;         // p ≥ 0; p = 0 predicts the training mean
  Scalar lambda = 0;        // λ ≥ 0 on the monomial coefficients (0: least squares, minimum-norm if
                            // rank deficient)
  bool standardize = true;  // scale each raw input to zero mean and unit variance first
};

// Model: ŷ = b + Σ_{1 ≤ |α| ≤ p} w_α z^α, z the (standardised) input; fitted as
// min ‖Φ w + b1 − y‖² + λ‖w‖² (GeneralizedLeastSquares with an unpenalised intercept).
class PolynomialRegression {
 public:
  // Throws ValueError for degree < 0 or a negative or non-finite λ.
  explicit PolynomialRegression(const PolynomialRegressionOptions& options = {});

  // X n×ℓ, y length n. Throws as GeneralizedLeastSquares::fit and PolynomialFeatures::fit.
  PolynomialRegression& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;                 // NotFittedError before fit
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  bool fitted() const { return fitted_; }
  // The monomial coefficients w (in PolynomialFeatures order, no constant) and the intercept b.
  Vector coef() const;
  Scalar intercept() const;
  const PolynomialRegressionOptions& options() const { return options_; }

  // Saves the options, the fitted scaler and monomial map (their save_to) and the least-squares
  // fit; load restores them bitwise, so predict gives bitwise the same values. save throws
  // NotFittedError before fit and IoError if the file cannot be written; load throws IoError,
  // ParseError (malformed file, missing entry) or ValueError (inconsistent entries).
  void save(const std::string& path) const;
  static PolynomialRegression load(const std::string& path);

 private:
  Tensor features(const Tensor& X) const;

  PolynomialRegressionOptions options_;
  StandardScaler scaler_;
  PolynomialFeatures map_;
  GeneralizedLeastSquares least_squares_;
  Scalar mean_ = 0;  // the degree-0 model
  Index num_inputs_ = 0;
  bool fitted_ = false;
};

}  // namespace dagml
