#include "models/linear/linear_model.h"

#include <Eigen/QR>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

CenteredData center_data(const Tensor& X, const Vector& y, bool fit_intercept) {
  CenteredData c;
  if (!fit_intercept) {
    c.X = X;
    c.y = y;
    c.x_mean = Vector::Zero(X.cols());
    return c;
  }
  c.x_mean = X.colwise().mean().transpose();
  c.y_mean = y.mean();
  c.X = X.rowwise() - c.x_mean.transpose();
  c.y = y.array() - c.y_mean;
  return c;
}

LeastSquaresSolution solve_least_squares(const Tensor& A, const Vector& b) {
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
  return {cod.solve(b), cod.rank()};
}

Vector LinearPredictor::predict(const Tensor& X) const {
  const std::string name = who("predict");
  check_fitted(fitted_, name.c_str());
  check_columns(X, coef_.size(), name.c_str());
  check_finite(X, name.c_str());
  return (X * coef_).array() + intercept_;
}

Scalar LinearPredictor::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, who("score").c_str());
  return r2_score(y, prediction);
}

const Vector& LinearPredictor::coef() const {
  check_fitted(fitted_, who("coef").c_str());
  return coef_;
}

Scalar LinearPredictor::intercept() const {
  check_fitted(fitted_, who("intercept").c_str());
  return intercept_;
}

void LinearPredictor::set_fit(Vector coef, Scalar intercept) {
  coef_ = std::move(coef);
  intercept_ = intercept;
  fitted_ = true;
}

void LinearPredictor::save_fit(ModelWriter& writer, const std::string& prefix) const {
  check_fitted(fitted_, who("save").c_str());
  writer.put_vector(prefix + "coef", coef_);
  writer.put_scalar(prefix + "intercept", intercept_);
}

void LinearPredictor::load_fit(const ModelReader& reader, const std::string& prefix) {
  set_fit(reader.vector(prefix + "coef"), reader.scalar(prefix + "intercept"));
}

}  // namespace dagml
