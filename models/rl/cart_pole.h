// The cart-pole task (Barto, Sutton and Anderson, "Neuronlike adaptive elements that can solve
// difficult learning control problems", 1983), with the constants and the Euler integration of
// Gymnasium's CartPole-v1:
//
//   state (x, ẋ, θ, θ̇); action 0 pushes the cart left, 1 right, with force F = ±10 N
//   t  = (F + m_p l θ̇² sin θ) / (m_c + m_p)
//   θ̈ = (g sin θ − cos θ · t) / (l (4/3 − m_p cos² θ / (m_c + m_p)))
//   ẍ = t − m_p l θ̈ cos θ / (m_c + m_p)
//   x ← x + τ ẋ,  ẋ ← ẋ + τ ẍ,  θ ← θ + τ θ̇,  θ̇ ← θ̇ + τ θ̈     (τ = 0.02 s)
//
// with g = 9.8, m_c = 1, m_p = 0.1, l = 0.5 (half the pole). Reward 1 for every step, the last
// included; terminated when |x| > 2.4 or |θ| > 12°; truncated after 500 steps. The start state is
// uniform in [−0.05, 0.05]⁴.
#pragma once

#include <random>

#include "models/rl/environment.h"

namespace dagml::rl {

struct CartPoleOptions {
  Index max_steps = 500;  // ≥ 1
};

class CartPole final : public Environment {
 public:
  explicit CartPole(CartPoleOptions options = {});  // ValueError if max_steps < 1
  std::string name() const override { return "CartPole"; }
  Index observation_size() const override { return 4; }
  Index num_actions() const override { return 2; }
  Index max_steps() const override { return options_.max_steps; }
  Vector reset(std::uint64_t seed) override;
  StepResult step(Index action) override;
  std::unique_ptr<Environment> clone() const override { return std::make_unique<CartPole>(*this); }

  const Vector& state() const { return state_; }  // (x, ẋ, θ, θ̇)
  // Starts an episode from a given state (for tests and demonstrations).
  void set_state(const Vector& state);

 private:
  CartPoleOptions options_;
  Vector state_ = Vector::Zero(4);
  Index steps_ = 0;
  bool running_ = false;
};

}  // namespace dagml::rl
