#include "models/data/bias.h"

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

Tensor add_bias_column(const Tensor& X, BiasPosition position, double value) {
  check_finite(X, "add_bias_column");
  if (!std::isfinite(value)) {
    throw ValueError(fmt::format("add_bias_column: expected a finite bias value, found {}", value));
  }
  Tensor out(X.rows(), X.cols() + 1);
  if (position == BiasPosition::First) {
    out.col(0).setConstant(value);
    out.rightCols(X.cols()) = X;
  } else {
    out.leftCols(X.cols()) = X;
    out.col(X.cols()).setConstant(value);
  }
  return out;
}

}  // namespace dagml
