#include "models/linear/linear_regression.h"

#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<LinearRegression, LinearRegressionOptions>;

LinearRegression::LinearRegression(const LinearRegressionOptions& options)
    : LinearRegressor(options) {
  validate(options.iterative, "LinearRegression");
}

LinearRegression& LinearRegression::fit(const Tensor& X, const Vector& y) {
  check_regression_data(X, y, "LinearRegression::fit");
  const CenteredData c = center_data(X, y, options_.fit_intercept);
  LeastSquaresSolution ls = solve_least_squares(c.X, c.y);
  rank_ = ls.rank;
  optimizer_result_ = {};
  if (options_.solver == LinearSolver::Iterative) {
    IterativeFit it = minimize_ridge_loss(c.X, c.y, 0, Vector::Zero(X.cols()), options_.iterative);
    ls.w = std::move(it.w);
    optimizer_result_ = std::move(it.result);
  }
  const Scalar b = c.y_mean - c.x_mean.dot(ls.w);
  set_fit(std::move(ls.w), b);
  return *this;
}

}  // namespace dagml
