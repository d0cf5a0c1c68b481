#include "models/linear/total_least_squares.h"

#include <Eigen/SVD>

#include "models/data/validate.h"

namespace dagml {

TotalLeastSquares::TotalLeastSquares(const TotalLeastSquaresOptions& options)
    : LinearPredictor("TotalLeastSquares"), options_(options) {}

TotalLeastSquares& TotalLeastSquares::fit(const Tensor& X, const Vector& y) {
  const char* who = "TotalLeastSquares::fit";
  check_regression_data(X, y, who, X.cols() + 1);
  const CenteredData c = center_data(X, y, options_.fit_intercept);
  const Index d = X.cols();
  Eigen::MatrixXd Z(X.rows(), d + 1);
  Z << c.X, c.y;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Z, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd_x(Eigen::MatrixXd(c.X));
  const Scalar sigma = svd.singularValues()(d);
  const Scalar sigma_x = svd_x.singularValues()(d - 1);
  // σ_{d+1} < σ̃_d with a margin of 1e-10 σ₁: closer than that, v_{d+1}'s last entry is lost in
  // rounding (a rank-deficient X has σ̃_d ≈ σ_{d+1} ≈ 0 up to rounding).
  if (!(sigma_x - sigma > 1e-10 * svd.singularValues()(0))) {
    throw NumericalError(fmt::format(
        "{}: no total least-squares solution: expected the smallest singular value of [X y] ({:.6g}) to be below "
        "that of X ({:.6g}) (notes 000 §2.7)",
        who, sigma, sigma_x));
  }
  const Vector v = svd.matrixV().col(d);
  Vector w = -v.head(d) / v(d);
  sigma_ = sigma;
  sigma_x_ = sigma_x;
  corrections_ = -sigma * svd.matrixU().col(d) * v.transpose();
  const Scalar b = c.y_mean - c.x_mean.dot(w);
  set_fit(std::move(w), b);
  return *this;
}

Scalar TotalLeastSquares::smallest_singular_value() const {
  check_fitted(fitted(), "TotalLeastSquares::smallest_singular_value");
  return sigma_;
}

Scalar TotalLeastSquares::smallest_feature_singular_value() const {
  check_fitted(fitted(), "TotalLeastSquares::smallest_feature_singular_value");
  return sigma_x_;
}

const Tensor& TotalLeastSquares::corrections() const {
  check_fitted(fitted(), "TotalLeastSquares::corrections");
  // A fit always leaves n×(d+1) corrections with n ≥ 2; only a loaded model has none.
  if (corrections_.size() == 0) {
    throw NotFittedError(
        "TotalLeastSquares::corrections: expected a model fitted in this process, found one read by load; the "
        "corrections belong to the training data and are not saved (fit again to get them)");
  }
  return corrections_;
}

void TotalLeastSquares::save(const std::string& path) const {
  ModelWriter writer("TotalLeastSquares");
  save_fit(writer);
  writer.put_scalar("fit_intercept", options_.fit_intercept ? 1 : 0);
  writer.put_scalar("sigma", sigma_);
  writer.put_scalar("sigma_x", sigma_x_);
  writer.save(path);
}

TotalLeastSquares TotalLeastSquares::load(const std::string& path) {
  const ModelReader reader(path, "TotalLeastSquares");
  TotalLeastSquares model({.fit_intercept = reader.scalar("fit_intercept") != 0});
  model.load_fit(reader);
  model.sigma_ = reader.scalar("sigma");
  model.sigma_x_ = reader.scalar("sigma_x");
  return model;
}

}  // namespace dagml
