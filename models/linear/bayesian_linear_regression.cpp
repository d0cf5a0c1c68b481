#include "models/linear/bayesian_linear_regression.h"

#include <cmath>

#include "models/data/validate.h"
#include "models/linear/spd_factor.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<BayesianLinearRegression, BayesianLinearRegressionOptions>;

BayesianLinearRegression::BayesianLinearRegression(const BayesianLinearRegressionOptions& options)
    : LinearRegressor(options) {
  const char* who = "BayesianLinearRegression";
  for (const auto& [name, value] :
       {std::pair{"noise_variance", options.noise_variance}, std::pair{"prior_variance", options.prior_variance}}) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw ValueError(fmt::format("{}: expected {} > 0 and finite, found {}", who, name, value));
    }
  }
  check_finite(options.prior_mean, who);
  if (options.prior_covariance.size() > 0) spd_factor(options.prior_covariance, who, "prior_covariance");
}

BayesianLinearRegression& BayesianLinearRegression::fit(const Tensor& X, const Vector& y) {
  const char* who = "BayesianLinearRegression::fit";
  check_regression_data(X, y, who);
  const Index d = X.cols();
  const Vector mu = options_.prior_mean.size() == 0 ? Vector::Zero(d) : options_.prior_mean;
  if (mu.size() != d) {
    throw ShapeError(
        fmt::format("{}: expected a prior_mean with one entry per feature ({}), found {}", who, d, mu.size()));
  }
  // Σ_W⁻¹: the prior precision.
  Eigen::MatrixXd prior_precision;
  if (options_.prior_covariance.size() > 0) {
    if (options_.prior_covariance.rows() != d) {
      throw ShapeError(fmt::format("{}: expected a {}×{} prior_covariance (one row per feature), found {}", who, d, d,
                                   to_string(shape_of(options_.prior_covariance))));
    }
    prior_precision =
        spd_factor(options_.prior_covariance, who, "prior_covariance").solve(Eigen::MatrixXd::Identity(d, d));
  } else {
    prior_precision = Eigen::MatrixXd::Identity(d, d) / options_.prior_variance;
  }
  // Posterior precision S⁻¹ = XᵀX/σ² + Σ_W⁻¹ (positive definite: Σ_W⁻¹ is).
  const Scalar s2 = options_.noise_variance;
  const Eigen::MatrixXd precision = Eigen::MatrixXd(X.transpose() * X) / s2 + prior_precision;
  const Eigen::LLT<Eigen::MatrixXd> llt(precision);
  if (llt.info() != Eigen::Success) {
    throw NumericalError(fmt::format("{}: the posterior precision is not numerically positive definite", who));
  }
  covariance_ = llt.solve(Eigen::MatrixXd::Identity(d, d));  // S is itself the output
  const Vector rhs = X.transpose() * y / s2 + prior_precision * mu;
  set_fit(llt.solve(rhs), 0);
  return *this;
}

Vector BayesianLinearRegression::predictive_variance(const Tensor& X, bool include_noise) const {
  const Vector mean = predict(X);  // the checks
  Vector v = (X * covariance_).cwiseProduct(X).rowwise().sum();
  if (include_noise) v.array() += options_.noise_variance;
  return v;
}

}  // namespace dagml
