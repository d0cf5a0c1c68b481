#include "optim/nesterov.h"

namespace dagml {

Nesterov::Nesterov(NesterovOptions options) : options_(options) { check_beta(options.beta, "Nesterov", "beta", false); }

Vector Nesterov::position(const Vector& y) const {
  if (v_.size() != y.size()) return y;  // before the first step: y = x
  return y - options_.beta * v_;
}

// Note [Nesterov look-ahead in the step API]: y ← y − β v_{t−1} + (1 + β) v_t.
void Nesterov::update(Eigen::Ref<Vector> y, const Eigen::Ref<const Vector>& g, Index t) {
  const Scalar beta = options_.beta;
  y -= beta * v_;
  v_ = beta * v_ - options_.schedule.at(t) * g;
  y += (1 + beta) * v_;
}

}  // namespace dagml
