#include "cli/class_scores.h"

namespace dagml::cli {

std::optional<Vector> positive_class_scores(const AnyEstimator& model, const Tensor& X) {
  const Capabilities& can = model.info().capabilities;
  if (can.predict_proba) {
    const Tensor p = model.predict_proba(X);
    if (p.cols() == 2) return Vector(p.col(1));
    return std::nullopt;
  }
  if (can.decision_function) {
    const Tensor f = model.decision_function(X);
    if (f.cols() == 1) return Vector(f.col(0));
    if (f.cols() == 2) return Vector(f.col(1) - f.col(0));
  }
  return std::nullopt;
}

}  // namespace dagml::cli
