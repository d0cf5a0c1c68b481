#include "models/data/validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "graph/random.h"
#include "models/data/labels.h"

namespace dagml {

void check_non_negative(const Tensor& X, const char* what, const char* who) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (X(i, j) < 0)
        throw ValueError(
            fmt::format("{}: expected non-negative {}, found {} at row {}, column {}", who, what, X(i, j), i, j));
    }
  }
}

void check_finite(const Tensor& X, const char* who) {
  // Fast path: a sum of finite values is finite unless it overflows; only then look closer.
  if (std::isfinite(X.sum())) return;
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (!std::isfinite(X(i, j))) {
        throw ValueError(fmt::format("{}: expected finite values, found {} at row {}, column {}",
                                     who, X(i, j), i, j));
      }
    }
  }
}

void check_finite_or_missing(const Tensor& X, bool allow_missing, const char* who) {
  if (!allow_missing) {
    check_finite(X, who);
    return;
  }
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j)
      if (std::isinf(X(i, j)))
        throw ValueError(fmt::format("{}: expected finite values or NaN (missing) in X, found {} at row {}, column {}",
                                     who, X(i, j), i, j));
}

void check_finite(const Vector& v, const char* who) {
  if (std::isfinite(v.sum())) return;
  for (Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v(i))) {
      throw ValueError(fmt::format("{}: expected finite values, found {} at row {}", who, v(i), i));
    }
  }
}

void check_columns(const Tensor& X, Index expected, const char* who) {
  if (X.cols() != expected) {
    throw ShapeError(fmt::format("{}: expected {} columns (as at fit), found {} (input is {})", who,
                                 expected, X.cols(), to_string(shape_of(X))));
  }
}

Vector sample_weights_or_ones(const Vector& w, Index n, const char* who) {
  if (w.size() == 0) return Vector::Ones(n);
  if (w.size() != n) {
    throw ShapeError(fmt::format("{}: expected {} sample weights (one per row of X), found {}", who, n, w.size()));
  }
  check_finite(w, who);
  for (Index i = 0; i < n; ++i) {
    if (w(i) < 0) throw ValueError(fmt::format("{}: expected sample weights ≥ 0, found {} at row {}", who, w(i), i));
  }
  if (!(w.sum() > 0)) throw ValueError(fmt::format("{}: expected sample weights with a positive sum, found all 0", who));
  return w;
}

void check_not_empty(const Tensor& X, const char* who) {
  if (X.rows() == 0 || X.cols() == 0) {
    throw ValueError(
        fmt::format("{}: expected a non-empty input, found {}", who, to_string(shape_of(X))));
  }
}

void check_same_rows(const Tensor& X, const Vector& y, const char* who) {
  if (X.rows() != y.size()) {
    throw ShapeError(fmt::format("{}: expected one target per row of X ({} rows), found {} targets",
                                 who, X.rows(), y.size()));
  }
}

Index check_labels(const Vector& y, const char* who, Index num_classes) {
  if (num_classes < 0) {
    throw ValueError(fmt::format("{}: expected num_classes ≥ 0, found {}", who, num_classes));
  }
  double max_label = -1;
  for (Index i = 0; i < y.size(); ++i) {
    const double v = y(i);
    // A label must be a non-negative integer small enough to index with.
    if (!(v >= 0) || v != std::floor(v) || v > 1e15) {
      throw ValueError(fmt::format(
          "{}: expected class labels that are integers 0..K−1, found {} at row {}", who, v, i));
    }
    if (num_classes > 0 && v >= static_cast<double>(num_classes)) {
      throw ValueError(fmt::format("{}: expected class labels in 0..{}, found {} at row {}", who,
                                   num_classes - 1, v, i));
    }
    max_label = std::max(max_label, v);
  }
  return num_classes > 0 ? num_classes : static_cast<Index>(max_label) + 1;
}

Index check_classes(const Vector& y, const char* who, Index min_per_class) {
  const Index K = check_labels(y, who);
  const std::vector<Index> counts = class_counts(y, K);
  Index present = 0, last = 0;
  for (Index k = 0; k < K; ++k)
    if (counts[static_cast<size_t>(k)] > 0) ++present, last = k;
  if (present < 2) throw ValueError(fmt::format("{}: expected at least two classes, found only class {}", who, last));
  for (Index k = 0; k < K; ++k) {
    const Index c = counts[static_cast<size_t>(k)];
    if (c >= min_per_class) continue;
    if (c == 0)
      throw ValueError(
          fmt::format("{}: expected at least {} sample(s) of each class 0..{}, found no sample of class {}", who,
                      min_per_class, K - 1, k));
    throw ValueError(fmt::format("{}: expected at least {} sample(s) of each class 0..{}, found only {} of class {}",
                                 who, min_per_class, K - 1, c, k));
  }
  return K;
}

void check_fit_data(const Tensor& X, const char* who) {
  check_not_empty(X, who);
  check_finite(X, who);
}

namespace {
// What every supervised fit checks first: X non-empty, y one entry per row of X, X finite (or
// NaN, with allow_missing).
void check_supervised_inputs(const Tensor& X, const Vector& y, const char* who, bool allow_missing) {
  check_not_empty(X, who);
  check_same_rows(X, y, who);
  check_finite_or_missing(X, allow_missing, who);
}
}  // namespace

void check_regression_data(const Tensor& X, const Vector& y, const char* who, Index min_samples, bool allow_missing) {
  check_supervised_inputs(X, y, who, allow_missing);
  if (X.rows() < min_samples) {
    throw ValueError(fmt::format("{}: expected at least {} samples, found {}", who, min_samples, X.rows()));
  }
  check_finite(y, who);
}

Index check_classification_data(const Tensor& X, const Vector& y, const char* who, Index min_per_class,
                                bool allow_missing) {
  check_supervised_inputs(X, y, who, allow_missing);
  return check_classes(y, who, min_per_class);
}

void check_fitted(bool fitted, const char* who) {
  if (!fitted) throw NotFittedError(fmt::format("{}: called before fit", who));
}

void check_distinct_rows(const Tensor& X, Index needed, const char* needed_name, const char* who) {
  std::vector<Index> order = iota_indices(X.rows());
  auto row_less = [&](Index a, Index b) {
    for (Index j = 0; j < X.cols(); ++j)
      if (X(a, j) != X(b, j)) return X(a, j) < X(b, j);
    return false;
  };
  std::sort(order.begin(), order.end(), row_less);
  Index distinct = order.empty() ? 0 : 1;
  for (std::size_t i = 1; i < order.size() && distinct < needed; ++i)
    if (row_less(order[i - 1], order[i])) ++distinct;
  if (distinct < needed)
    throw ValueError(
        fmt::format("{}: expected at least {} = {} distinct points, found {}", who, needed_name, needed, distinct));
}

}  // namespace dagml
