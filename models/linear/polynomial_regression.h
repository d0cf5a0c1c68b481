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
#include "models/linear/generalized_least_squares.h"

namespace dagml {

struct PolynomialRegressionOptions {
  Index degree = 2;         // p ≥ 0; p = 0 predicts the training mean
  Scalar lambda = 0;        // λ ≥ 0 on the monomial coefficients (0: least squares, minimum-norm if
                            // rank deficient)
  bool standardize = true;  // scale each raw input to zero mean and unit variance first

  template <class V>
  void visit(V&& v) {
    v("degree", degree, "p ≥ 0, the largest total degree (0 predicts the training mean)");
    v("lambda", lambda, "λ ≥ 0 on the monomial coefficients");
    v("standardize", standardize, "scale each input to zero mean and unit variance first");
  }
};

// Model: ŷ = b + Σ_{1 ≤ |α| ≤ p} w_α z^α, z the (standardised) input; fitted as
// min ‖Φ w + b1 − y‖² + λ‖w‖² (GeneralizedLeastSquares with an unpenalised intercept).
class PolynomialRegression : public Estimator<PolynomialRegression, PolynomialRegressionOptions> {
 public:
  static constexpr const char* kTypeName = "polynomial_regression";

  // Throws ValueError for degree < 0 or a negative or non-finite λ.
  explicit PolynomialRegression(const PolynomialRegressionOptions& options = {});

  // X n×ℓ, y length n. Throws as GeneralizedLeastSquares::fit and PolynomialFeatures::fit.
  PolynomialRegression& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;                 // NotFittedError before fit
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  // The monomial coefficients w (in PolynomialFeatures order, no constant) and the intercept b.
  Vector coef() const;
  Scalar intercept() const;

  // The options, the fitted scaler, monomial map and least-squares fit (or the training mean for
  // p = 0), each bitwise; a loaded model's parts must fit together (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(scaler_, map_, least_squares_, mean_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  Tensor features(const Tensor& X) const;
  void check_loaded(const class ModelInputArchive& ar) const;

  StandardScaler scaler_;
  PolynomialFeatures map_;
  GeneralizedLeastSquares least_squares_;
  Scalar mean_ = 0;  // the degree-0 model
};

extern template class Estimator<PolynomialRegression, PolynomialRegressionOptions>;

}  // namespace dagml
