#include "models/linear/polynomial_regression.h"

#include <cmath>

#include "models/data/validate.h"
#include "models/linear/linear_model.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<PolynomialRegression, PolynomialRegressionOptions>;

PolynomialRegression::PolynomialRegression(const PolynomialRegressionOptions& options)
    : Estimator(options),
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
  if (options_.degree == 0) {
    mean_ = y.mean();
  } else {
    scaler_.fit(X);
    map_.fit(X);
    least_squares_.fit(features(X), y);
  }
  set_fitted(X.cols());
  return *this;
}

Vector PolynomialRegression::predict(const Tensor& X) const {
  check_input(X);
  if (options_.degree == 0) return Vector::Constant(X.rows(), mean_);
  return least_squares_.predict(features(X));
}

Scalar PolynomialRegression::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "PolynomialRegression::score");
  return r2_score(y, prediction);
}

Vector PolynomialRegression::coef() const {
  require_fitted();
  return options_.degree == 0 ? Vector() : least_squares_.coef();
}

Scalar PolynomialRegression::intercept() const {
  require_fitted();
  return options_.degree == 0 ? mean_ : least_squares_.intercept();
}

void PolynomialRegression::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted() || options_.degree == 0) return;
  const Index d = num_features();
  if (!scaler_.fitted() || !map_.fitted() || !least_squares_.fitted() || scaler_.num_features() != d ||
      map_.num_input_features() != d || least_squares_.num_features() != map_.num_output_features()) {
    ar.fail(fmt::format("PolynomialRegression: expected fitted parts for {} inputs that fit together, found a scaler "
                        "for {}, a monomial map from {} to {} features and {} coefficients",
                        d, scaler_.fitted() ? scaler_.num_features() : 0,
                        map_.fitted() ? map_.num_input_features() : 0, map_.fitted() ? map_.num_output_features() : 0,
                        least_squares_.fitted() ? least_squares_.num_features() : 0));
  }
}

}  // namespace dagml
