#include "models/linear/polynomial_regression.h"

#include <cmath>

#include "models/data/validate.h"
#include "models/linear/linear_model.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

PolynomialRegression::PolynomialRegression(const PolynomialRegressionOptions& options)
    : options_(options),
      scaler_({.with_mean = options.standardize, .with_std = options.standardize}),
      map_({.degree = std::max<Index>(options.degree, 1), .include_bias = false}),
      least_squares_({.fit_intercept = true, .lambda = options.lambda}) {
  if (options.degree < 0) {
    throw ValueError(fmt::format("PolynomialRegression: expected degree ≥ 0, found {}", options.degree));
  }
}

Tensor PolynomialRegression::features(const Tensor& X) const { return map_.transform(scaler_.transform(X)); }

PolynomialRegression& PolynomialRegression::fit(const Tensor& X, const Vector& y) {
  check_regression_data(X, y, "PolynomialRegression::fit");
  num_inputs_ = X.cols();
  if (options_.degree == 0) {
    mean_ = y.mean();
  } else {
    scaler_.fit(X);
    map_.fit(X);
    least_squares_.fit(features(X), y);
  }
  fitted_ = true;
  return *this;
}

Vector PolynomialRegression::predict(const Tensor& X) const {
  check_fitted(fitted_, "PolynomialRegression::predict");
  check_columns(X, num_inputs_, "PolynomialRegression::predict");
  check_finite(X, "PolynomialRegression::predict");
  if (options_.degree == 0) return Vector::Constant(X.rows(), mean_);
  return least_squares_.predict(features(X));
}

Scalar PolynomialRegression::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "PolynomialRegression::score");
  return r2_score(y, prediction);
}

Vector PolynomialRegression::coef() const {
  check_fitted(fitted_, "PolynomialRegression::coef");
  return options_.degree == 0 ? Vector() : least_squares_.coef();
}

Scalar PolynomialRegression::intercept() const {
  check_fitted(fitted_, "PolynomialRegression::intercept");
  return options_.degree == 0 ? mean_ : least_squares_.intercept();
}

}  // namespace dagml
