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

Vector linear_prediction(const Tensor& X, const Vector& coef, Scalar intercept) {
  return (X * coef).array() + intercept;
}

Scalar regression_score(const Tensor& X, const Vector& y, const Vector& prediction, const char* who) {
  check_same_rows(X, y, fmt::format("{}::score", who).c_str());
  return r2_score(y, prediction);
}

}  // namespace dagml
