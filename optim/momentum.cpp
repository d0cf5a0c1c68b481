#include "optim/momentum.h"

namespace dagml {

Momentum::Momentum(MomentumOptions options) : options_(options) {}

void Momentum::update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& g, Index t) {
  const Scalar alpha = options_.schedule.at(t);
  const Scalar beta = options_.beta.at(t);
  if (options_.form == MomentumForm::Velocity) {
    v_ = beta * v_ - alpha * g;  // v_t = β_t v_{t−1} − α_t ∇f(x_t)
    x += v_;                     // x_{t+1} = x_t + v_t
  } else {
    v_ = beta * v_ + (1 - beta) * g;  // Δ_t = β_t Δ_{t−1} + (1 − β_t) ∇f(x_t)
    x.noalias() -= alpha * v_;        // x_{t+1} = x_t − α_t Δ_t
  }
}

}  // namespace dagml
