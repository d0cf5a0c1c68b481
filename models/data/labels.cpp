#include "models/data/labels.h"

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

Tensor to_one_hot(const Vector& labels, Index num_classes) {
  const Index k = check_labels(labels, "to_one_hot", num_classes);
  if (k == 0)
    throw ValueError("to_one_hot: expected at least one label or num_classes > 0, found neither");
  Tensor out = Tensor::Zero(labels.size(), k);
  for (Index i = 0; i < labels.size(); ++i) out(i, static_cast<Index>(labels(i))) = 1.0;
  return out;
}

Vector from_one_hot(const Tensor& one_hot) {
  if (one_hot.cols() == 0) {
    throw ShapeError(fmt::format("from_one_hot: expected at least one column, found {}",
                                 to_string(shape_of(one_hot))));
  }
  Vector out(one_hot.rows());
  for (Index i = 0; i < one_hot.rows(); ++i) {
    Index hot = -1;
    for (Index c = 0; c < one_hot.cols(); ++c) {
      const double v = one_hot(i, c);
      if (v == 1.0 && hot < 0) {
        hot = c;
      } else if (v != 0.0) {
        throw ValueError(
            fmt::format("from_one_hot: expected rows with exactly one 1 and 0s elsewhere, "
                        "found {} at row {}, column {}",
                        v, i, c));
      }
    }
    if (hot < 0) {
      throw ValueError(
          fmt::format("from_one_hot: expected rows with exactly one 1, found none in row {}", i));
    }
    out(i) = static_cast<double>(hot);
  }
  return out;
}

Vector to_plus_minus(const Vector& labels) {
  Vector out(labels.size());
  for (Index i = 0; i < labels.size(); ++i) {
    if (labels(i) != 0.0 && labels(i) != 1.0) {
      throw ValueError(fmt::format(
          "to_plus_minus: expected binary labels 0 or 1, found {} at row {}", labels(i), i));
    }
    out(i) = 2.0 * labels(i) - 1.0;
  }
  return out;
}

Vector from_plus_minus(const Vector& signs) {
  Vector out(signs.size());
  for (Index i = 0; i < signs.size(); ++i) {
    if (signs(i) != -1.0 && signs(i) != 1.0) {
      throw ValueError(fmt::format("from_plus_minus: expected labels −1 or +1, found {} at row {}",
                                   signs(i), i));
    }
    out(i) = signs(i) > 0 ? 1.0 : 0.0;
  }
  return out;
}

std::vector<Index> class_counts(const Vector& labels, Index num_classes) {
  const Index k = check_labels(labels, "class_counts", num_classes);
  std::vector<Index> counts(static_cast<std::size_t>(k), 0);
  for (Index i = 0; i < labels.size(); ++i) ++counts[static_cast<std::size_t>(labels(i))];
  return counts;
}

}  // namespace dagml
