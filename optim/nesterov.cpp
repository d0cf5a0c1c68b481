#include "optim/nesterov.h"

namespace dagml {

Nesterov::Nesterov(NesterovOptions options) : options_(options) {}

Vector Nesterov::position(const Vector& y) const {
  if (v_.size() != y.size()) return y;  // before the first step: y = x
  return y - options_.beta.at(steps() + 1) * v_;
}

// Note [Nesterov look-ahead in the step API]: y ← y − β_t v_{t−1} + (1 + β_{t+1}) v_t.
void Nesterov::update(Eigen::Ref<Vector> y, const Eigen::Ref<const Vector>& g, Index t) {
  const Scalar beta = options_.beta.at(t);
  y -= beta * v_;
  v_ = beta * v_ - options_.schedule.at(t) * g;
  y += (1 + options_.beta.at(t + 1)) * v_;
}

}  // namespace dagml
