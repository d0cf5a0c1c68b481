#include "models/linear/generalized_least_squares.h"

#include <Eigen/Cholesky>
#include <cmath>

#include "models/data/validate.h"
#include "models/linear/spd_factor.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<GeneralizedLeastSquares, GeneralizedLeastSquaresOptions>;

GeneralizedLeastSquares::GeneralizedLeastSquares(const GeneralizedLeastSquaresOptions& options)
    : LinearRegressor(options) {
  const char* who = "GeneralizedLeastSquares";
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda)) {
    throw ValueError(fmt::format("{}: expected lambda ≥ 0 and finite, found {}", who, options.lambda));
  }
  if (options.lambda > 0 && options.prior_covariance.size() > 0) {
    throw ValueError(fmt::format("{}: expected either lambda or prior_covariance, found both", who));
  }
  check_finite(options.prior_mean, who);
  if (options.prior_covariance.size() > 0) {
    const auto llt = spd_factor(options.prior_covariance, who, "prior_covariance");
    const Index d = options.prior_covariance.rows();
    // L_W⁻¹ by a triangular solve against the identity (d×d, built once).
    prior_root_inverse_ = llt.matrixL().solve(Eigen::MatrixXd::Identity(d, d));
  }
  if (options.prior_mean.size() > 0 && options.prior_covariance.size() > 0 &&
      options.prior_mean.size() != options.prior_covariance.rows()) {
    throw ShapeError(fmt::format("{}: prior_mean has {} entries but prior_covariance is {}", who,
                                 options.prior_mean.size(), to_string(shape_of(options.prior_covariance))));
  }
}

Tensor GeneralizedLeastSquares::design(const Tensor& X) const {
  if (!options_.fit_intercept) return X;
  Tensor A(X.rows(), X.cols() + 1);
  A << X, Tensor::Ones(X.rows(), 1);
  return A;
}

GeneralizedLeastSquares& GeneralizedLeastSquares::fit(const Tensor& X, const Vector& y) {
  check_regression_data(X, y, "GeneralizedLeastSquares::fit");
  solve_whitened(design(X), y);
  return *this;
}

GeneralizedLeastSquares& GeneralizedLeastSquares::fit_weighted(const Tensor& X, const Vector& y,
                                                               const Vector& weights) {
  const char* who = "GeneralizedLeastSquares::fit_weighted";
  check_regression_data(X, y, who);
  check_same_rows(X, weights, who);
  for (Index i = 0; i < weights.size(); ++i) {
    if (!(weights(i) > 0) || !std::isfinite(weights(i))) {
      throw ValueError(fmt::format("{}: expected positive finite weights, found {} at row {}", who, weights(i), i));
    }
  }
  const Vector root = weights.array().sqrt();  // Ω^{1/2}
  solve_whitened(root.asDiagonal() * design(X), root.cwiseProduct(y));
  return *this;
}

GeneralizedLeastSquares& GeneralizedLeastSquares::fit_correlated(const Tensor& X, const Vector& y,
                                                                 const Tensor& noise_covariance) {
  const char* who = "GeneralizedLeastSquares::fit_correlated";
  check_regression_data(X, y, who);
  if (noise_covariance.rows() != X.rows() || noise_covariance.cols() != X.rows()) {
    throw ShapeError(fmt::format("{}: expected a {}×{} noise covariance (one row per sample), found {}", who, X.rows(),
                                 X.rows(), to_string(shape_of(noise_covariance))));
  }
  const auto llt = spd_factor(noise_covariance, who, "noise_covariance");
  // L⁻¹A and L⁻¹y by forward substitution.
  const Eigen::MatrixXd Aw = llt.matrixL().solve(Eigen::MatrixXd(design(X)));
  const Vector yw = llt.matrixL().solve(y);
  solve_whitened(Aw, yw);
  return *this;
}

void GeneralizedLeastSquares::solve_whitened(const Tensor& Aw, const Vector& yw) {
  const Index d = options_.fit_intercept ? Aw.cols() - 1 : Aw.cols();
  const Index p = Aw.cols();
  Vector mu = options_.prior_mean.size() == 0 ? Vector::Zero(d) : options_.prior_mean;
  if (mu.size() != d) {
    throw ShapeError(
        fmt::format("GeneralizedLeastSquares::fit: expected a prior_mean with one entry per feature "
                    "({}), found {}",
                    d, mu.size()));
  }
  Tensor root;  // L_W⁻¹, d×d
  if (options_.lambda > 0) {
    root = Tensor::Identity(d, d) * std::sqrt(options_.lambda);
  } else if (prior_root_inverse_.size() > 0) {
    if (prior_root_inverse_.rows() != d) {
      throw ShapeError(
          fmt::format("GeneralizedLeastSquares::fit: expected a {}×{} prior_covariance (one row per "
                      "feature), found {}×{}",
                      d, d, prior_root_inverse_.rows(), prior_root_inverse_.rows()));
    }
    root = prior_root_inverse_;
  }
  const Index extra = root.rows();
  Tensor A = Tensor::Zero(Aw.rows() + extra, p);
  Vector b(Aw.rows() + extra);
  A.topRows(Aw.rows()) = Aw;
  b.head(Aw.rows()) = yw;
  if (extra > 0) {
    A.bottomLeftCorner(extra, d) = root;
    b.tail(extra) = root * mu;
  }
  LeastSquaresSolution ls = solve_least_squares(A, b);
  rank_ = ls.rank;
  const Scalar intercept = options_.fit_intercept ? ls.w(d) : 0;
  set_fit(ls.w.head(d), intercept);
}

bool GeneralizedLeastSquares::rank_deficient() const {
  return rank() < num_features() + (options_.fit_intercept ? 1 : 0);
}

}  // namespace dagml
