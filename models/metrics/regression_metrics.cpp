#include "models/metrics/regression_metrics.h"

#include "graph/error.h"

namespace dagml {
namespace {

void check_pair(const Vector& y_true, const Vector& y_pred, const char* who) {
  if (y_true.size() != y_pred.size()) {
    throw ShapeError(fmt::format("{}: expected predictions of the same length as the targets ({}), found {}", who,
                                 y_true.size(), y_pred.size()));
  }
  if (y_true.size() == 0) throw ValueError(fmt::format("{}: expected at least one target, found none", who));
}

}  // namespace

Scalar mean_squared_error(const Vector& y_true, const Vector& y_pred) {
  check_pair(y_true, y_pred, "mean_squared_error");
  return (y_true - y_pred).squaredNorm() / static_cast<Scalar>(y_true.size());
}

Scalar mean_absolute_error(const Vector& y_true, const Vector& y_pred) {
  check_pair(y_true, y_pred, "mean_absolute_error");
  return (y_true - y_pred).cwiseAbs().mean();
}

Scalar r2_score(const Vector& y_true, const Vector& y_pred) {
  check_pair(y_true, y_pred, "r2_score");
  const Scalar residual = (y_true - y_pred).squaredNorm();
  const Scalar total = (y_true.array() - y_true.mean()).matrix().squaredNorm();
  if (total == 0) return residual == 0 ? 1.0 : 0.0;
  return 1.0 - residual / total;
}

}  // namespace dagml
