// The mountain-car task (Moore, "Efficient memory-based learning for robot control", 1990; Sutton
// and Barto §10.1), with the constants of Gymnasium's MountainCar-v0: an underpowered car in a
// valley must rock back and forth to reach the hilltop at position 0.5.
//
//   state (p, v); action a ∈ {0: push left, 1: no push, 2: push right}
//   v ← clip(v + (a − 1)·0.001 − 0.0025 cos(3p), −0.07, 0.07)
//   p ← clip(p + v, −1.2, 0.6);   v ← 0 if p = −1.2 and v < 0 (the left wall is inelastic)
//
// Reward −1 per step; terminated when p ≥ 0.5; truncated after 200 steps. The start position is
// uniform in [−0.6, −0.4], the start velocity 0.
#pragma once

#include "models/rl/environment.h"

namespace dagml::rl {

struct MountainCarOptions {
  Index max_steps = 200;  // ≥ 1
};

class MountainCar final : public Environment {
 public:
  explicit MountainCar(MountainCarOptions options = {});  // ValueError if max_steps < 1
  std::string name() const override { return "MountainCar"; }
  Index observation_size() const override { return 2; }
  Index num_actions() const override { return 3; }
  Index max_steps() const override { return options_.max_steps; }
  Vector reset(std::uint64_t seed) override;
  StepResult step(Index action) override;
  std::unique_ptr<Environment> clone() const override { return std::make_unique<MountainCar>(*this); }
  const Vector& state() const { return state_; }  // (p, v)

 private:
  MountainCarOptions options_;
  Vector state_ = Vector::Zero(2);
  Index steps_ = 0;
  bool running_ = false;
};

}  // namespace dagml::rl
