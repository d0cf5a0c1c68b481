#include "models/linear/linear_regression.h"

#include "models/data/validate.h"

namespace dagml {

LinearRegression::LinearRegression(const LinearRegressionOptions& options)
    : LinearPredictor("LinearRegression"), options_(options) {
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

Index LinearRegression::rank() const {
  check_fitted(fitted(), "LinearRegression::rank");
  return rank_;
}

void LinearRegression::save(const std::string& path) const {
  ModelWriter writer("LinearRegression");
  save_fit(writer);
  writer.put_scalar("fit_intercept", options_.fit_intercept ? 1 : 0);
  writer.put_scalar("rank", static_cast<Scalar>(rank_));
  writer.put_scalar("solver", static_cast<Scalar>(options_.solver));
  writer.save(path);
}

LinearRegression LinearRegression::load(const std::string& path) {
  const ModelReader reader(path, "LinearRegression");
  LinearRegression model({.fit_intercept = reader.scalar("fit_intercept") != 0,
                          .solver = static_cast<LinearSolver>(static_cast<int>(reader.scalar("solver")))});
  model.load_fit(reader);
  model.rank_ = static_cast<Index>(reader.scalar("rank"));
  return model;
}

}  // namespace dagml
