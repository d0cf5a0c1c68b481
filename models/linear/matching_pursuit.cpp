#include "models/linear/matching_pursuit.h"

#include <algorithm>
#include <cmath>

#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<MatchingPursuit, MatchingPursuitOptions>;
namespace {

// argmax_j |⟨r, x_j⟩| / ‖x_j‖ over the columns with a non-zero norm; −1 when none correlates.
Index best_column(const Tensor& X, const Vector& norms, const Vector& r) {
  const Vector correlation = X.transpose() * r;
  Index best = -1;
  Scalar best_value = 0;
  for (Index j = 0; j < X.cols(); ++j) {
    if (norms(j) == 0) continue;
    const Scalar value = std::abs(correlation(j)) / norms(j);
    if (value > best_value) {
      best_value = value;
      best = j;
    }
  }
  return best;
}

}  // namespace

MatchingPursuit::MatchingPursuit(const MatchingPursuitOptions& options)
    : LinearRegressor(options) {
  if (options.num_nonzero < 1) {
    throw ValueError(fmt::format("MatchingPursuit: expected num_nonzero ≥ 1, found {}", options.num_nonzero));
  }
  if (options.max_iterations < 1) {
    throw ValueError(fmt::format("MatchingPursuit: expected max_iterations ≥ 1, found {}", options.max_iterations));
  }
  if (!(options.tolerance >= 0)) {
    throw ValueError(fmt::format("MatchingPursuit: expected tolerance ≥ 0, found {}", options.tolerance));
  }
}

MatchingPursuit& MatchingPursuit::fit(const Tensor& X, const Vector& y) {
  const char* who = "MatchingPursuit::fit";
  check_regression_data(X, y, who);
  const Index d = X.cols();
  const Index k = options_.num_nonzero;
  if (k > d)
    throw ValueError(fmt::format("{}: expected num_nonzero ≤ the number of features ({}), found {}", who, d, k));
  const CenteredData c = center_data(X, y, options_.fit_intercept);
  const Vector norms = c.X.colwise().norm().transpose();
  const Scalar stop = options_.tolerance * c.y.squaredNorm();

  Vector w = Vector::Zero(d);
  Vector r = c.y;
  support_.clear();
  residual_history_.assign(1, r.squaredNorm());
  for (Index step = 0; static_cast<Index>(support_.size()) < k && step < options_.max_iterations; ++step) {
    if (r.squaredNorm() <= stop) break;
    const Index i = best_column(c.X, norms, r);
    if (i < 0) break;  // r is orthogonal to every column: nothing more to explain
    if (std::find(support_.begin(), support_.end(), i) == support_.end()) support_.push_back(i);
    if (options_.orthogonal) {
      // Least-squares refit on the support: w_S = argmin ‖yc − X_S w_S‖².
      Tensor XS(c.X.rows(), static_cast<Index>(support_.size()));
      for (std::size_t j = 0; j < support_.size(); ++j) XS.col(static_cast<Index>(j)) = c.X.col(support_[j]);
      const Vector wS = solve_least_squares(XS, c.y).w;
      w.setZero();
      for (std::size_t j = 0; j < support_.size(); ++j) w(support_[j]) = wS(static_cast<Index>(j));
    } else {
      w(i) += c.X.col(i).dot(r) / (norms(i) * norms(i));
    }
    r = c.y - c.X * w;
    residual_history_.push_back(r.squaredNorm());
  }
  const Scalar b = c.y_mean - c.x_mean.dot(w);
  set_fit(std::move(w), b);
  return *this;
}

}  // namespace dagml
