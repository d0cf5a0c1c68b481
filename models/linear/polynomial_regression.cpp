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

// The file holds the options, ℓ and, for p ≥ 1, the three fitted parts under the prefixes
// "scaler_", "features_" and "least_squares_"; p = 0 holds the training mean instead.
void PolynomialRegression::save(const std::string& path) const {
  check_fitted(fitted_, "PolynomialRegression::save");
  ModelWriter writer("PolynomialRegression");
  writer.put_scalar("degree", static_cast<Scalar>(options_.degree));
  writer.put_scalar("lambda", options_.lambda);
  writer.put_scalar("standardize", options_.standardize ? 1 : 0);
  writer.put_scalar("num_inputs", static_cast<Scalar>(num_inputs_));
  if (options_.degree == 0) {
    writer.put_scalar("mean", mean_);
  } else {
    scaler_.save_to(writer, "scaler_");
    map_.save_to(writer, "features_");
    least_squares_.save_to(writer, "least_squares_");
  }
  writer.save(path);
}

PolynomialRegression PolynomialRegression::load(const std::string& path) {
  const ModelReader reader(path, "PolynomialRegression");
  const Scalar degree = reader.scalar("degree"), num_inputs = reader.scalar("num_inputs");
  if (!(degree >= 0 && degree <= 1e6 && degree == std::floor(degree) && num_inputs >= 1 && num_inputs <= 1e15 &&
        num_inputs == std::floor(num_inputs))) {
    throw ValueError(fmt::format(
        "PolynomialRegression::load: expected a whole degree ≥ 0 and num_inputs ≥ 1 in '{}', found {} and {}", path,
        degree, num_inputs));
  }
  PolynomialRegression model({.degree = static_cast<Index>(degree),
                              .lambda = reader.scalar("lambda"),
                              .standardize = reader.scalar("standardize") != 0});
  model.num_inputs_ = static_cast<Index>(num_inputs);
  if (model.options_.degree == 0) {
    model.mean_ = reader.scalar("mean");
  } else {
    model.scaler_ = StandardScaler::load_from(reader, "scaler_");
    model.map_ = PolynomialFeatures::load_from(reader, "features_");
    model.least_squares_ = GeneralizedLeastSquares::load_from(reader, "least_squares_");
    const Index d = model.num_inputs_;
    if (model.scaler_.num_features() != d || model.map_.num_input_features() != d ||
        model.least_squares_.num_features() != model.map_.num_output_features()) {
      throw ValueError(fmt::format(
          "PolynomialRegression::load: expected parts that fit together in '{}': {} inputs, found a scaler for {}, a "
          "monomial map from {} to {} features and {} coefficients",
          path, d, model.scaler_.num_features(), model.map_.num_input_features(), model.map_.num_output_features(),
          model.least_squares_.num_features()));
    }
  }
  model.fitted_ = true;
  return model;
}

}  // namespace dagml
