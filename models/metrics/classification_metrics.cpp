#include "models/metrics/classification_metrics.h"

#include "graph/error.h"

namespace dagml {

Scalar accuracy_score(const Vector& y_true, const Vector& y_pred) {
  if (y_true.size() != y_pred.size()) {
    throw ShapeError(fmt::format("accuracy_score: expected predictions of the same length as the labels ({}), found {}",
                                 y_true.size(), y_pred.size()));
  }
  if (y_true.size() == 0) throw ValueError("accuracy_score: expected at least one label, found none");
  return (y_true.array() == y_pred.array()).cast<Scalar>().mean();
}

Scalar zero_one_loss(const Vector& y_true, const Vector& y_pred) { return 1.0 - accuracy_score(y_true, y_pred); }

}  // namespace dagml
