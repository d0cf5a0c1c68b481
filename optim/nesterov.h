// Nesterov accelerated gradient (notes 000 Algorithm 7), v_0 = 0, β = β_t (constant by default;
// MomentumCoefficient::convex() is Nesterov's (t − 1)/(t + 2), see optim/momentum_coefficient.h):
//   v_t = β_t v_{t−1} − α_t ∇f(x_t + β_t v_{t−1})     (gradient at the look-ahead point)
//   x_{t+1} = x_t + v_t
//
// Note [Nesterov look-ahead in the step API]
// step(y, g) needs only the gradient at the point it is given. The rule therefore keeps the
// look-ahead point y_t = x_t + β_t v_{t−1} instead of x_t, and the caller passes g = ∇f(y_t):
//   v_t     = β_t v_{t−1} − α_t g
//   y_{t+1} = x_{t+1} + β_{t+1} v_t = y_t − β_t v_{t−1} + (1 + β_{t+1}) v_t
// which is the same sequence of points (exactly, for any schedules α_t and β_t). Start with
// y_1 = x_1 (v_0 = 0). The iterate of the look-ahead form is position(y) = y − β_{t+1} v_t;
// the first-order loop reports y, where it evaluates f and ∇f (as v → 0 at convergence the two
// agree). A test checks this against the look-ahead form written out.
#pragma once

#include "optim/momentum_coefficient.h"
#include "optim/options.h"
#include "optim/update_rule.h"

namespace dagml {

struct NesterovOptions {
  StepSchedule schedule = StepSchedule::constant(0.01);
  MomentumCoefficient beta = 0.9;  // β_t; a number is constant(β), in [0, 1)
};

class Nesterov final : public UpdateRule {
 public:
  explicit Nesterov(NesterovOptions options = {});
  explicit Nesterov(DefaultOptions) : Nesterov() {}  // Note [Constructing from options]
  std::unique_ptr<UpdateRule> clone() const override { return std::make_unique<Nesterov>(*this); }
  std::string name() const override { return "Nesterov"; }
  // x = y − β_{t+1} v_t after t steps: the iterate of the look-ahead form.
  Vector position(const Vector& y) const override;
  const NesterovOptions& options() const { return options_; }
  const Vector& velocity() const { return v_; }

 protected:
  void update(Eigen::Ref<Vector> y, const Eigen::Ref<const Vector>& gradient, Index t) override;
  void init_state(Index p) override { v_ = Vector::Zero(p); }
  std::vector<const Vector*> state_vectors() const override { return {&v_}; }

 private:
  NesterovOptions options_;
  Vector v_;
};

}  // namespace dagml
