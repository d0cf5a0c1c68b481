#include "optim/update_rule.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml {

void UpdateRule::step(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient) {
  if (gradient.size() != x.size())
    throw ShapeError(
        fmt::format("{}: step expects a gradient of x's length {}, got {}", name(), x.size(), gradient.size()));
  if (dimension_ < 0) {
    dimension_ = x.size();
    init_state(dimension_);
  } else if (x.size() != dimension_) {
    throw ShapeError(fmt::format("{}: x has {} entries but the rule's state has {}; call reset() first", name(),
                                 x.size(), dimension_));
  }
  update(x, gradient, ++t_);
}

void UpdateRule::reset() {
  t_ = 0;
  dimension_ = -1;
}

GradientStep::GradientStep(GradientStepOptions options) : options_(options) {}

void GradientStep::update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& g, Index t) {
  x.noalias() -= options_.schedule.at(t) * g;
}

}  // namespace dagml
