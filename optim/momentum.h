// Heavy-ball momentum, in the two forms of the notes, with β = β_t (constant by default; see
// optim/momentum_coefficient.h).
//
// Velocity form (Polyak, notes 000 Algorithm 6), v_0 = 0 so that the first step is plain GD:
//   v_t = β_t v_{t−1} − α_t ∇f(x_t)
//   x_{t+1} = x_t + v_t                  ( = x_t − α_t ∇f(x_t) + β_t (x_t − x_{t−1}) )
// Averaging ("dampened", EMA) form (notes 004 §2.3.6, gradient at the current iterate), Δ_0 = 0:
//   Δ_t = β_t Δ_{t−1} + (1 − β_t) ∇f(x_t)
//   x_{t+1} = x_t − α_t Δ_t
// The two differ by the factor (1 − β) on the gradient: with constant α they give the same path
// when α_averaging = α_velocity / (1 − β).
#pragma once

#include "optim/momentum_coefficient.h"
#include "optim/options.h"
#include "optim/update_rule.h"

namespace dagml {

enum class MomentumForm { Velocity, Averaging };

struct MomentumOptions {
  StepSchedule schedule = StepSchedule::constant(0.01);
  MomentumCoefficient beta = 0.9;  // β_t; a number is constant(β), in [0, 1)
  MomentumForm form = MomentumForm::Velocity;
};

class Momentum final : public UpdateRule {
 public:
  explicit Momentum(MomentumOptions options = {});
  explicit Momentum(DefaultOptions) : Momentum() {}  // Note [Constructing from options]
  std::unique_ptr<UpdateRule> clone() const override { return std::make_unique<Momentum>(*this); }
  std::string name() const override { return "momentum"; }
  const MomentumOptions& options() const { return options_; }
  // v (velocity form) or Δ (averaging form).
  const Vector& velocity() const { return v_; }

 protected:
  void update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient, Index t) override;
  void init_state(Index p) override { v_ = Vector::Zero(p); }
  std::vector<const Vector*> state_vectors() const override { return {&v_}; }

 private:
  MomentumOptions options_;
  Vector v_;
};

}  // namespace dagml
