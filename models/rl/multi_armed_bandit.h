// A multi-armed bandit as a one-step episode: the observation is the constant (1), action k pulls
// arm k and pays mean_k plus Gaussian noise of standard deviation `noise`; every episode
// terminates after its single step. The expected return of a policy π is Σ_k π_k mean_k, whose
// gradient is known in closed form, which makes the bandit the reference for policy gradients.
#pragma once

#include <random>

#include "models/rl/environment.h"

namespace dagml::rl {

struct MultiArmedBanditOptions {
  Vector means = Vector();  // ≥ 2 finite arm means
  Scalar noise = 1;         // ≥ 0
};

class MultiArmedBandit final : public Environment {
 public:
  explicit MultiArmedBandit(MultiArmedBanditOptions options);  // ValueError for options out of range
  std::string name() const override { return "MultiArmedBandit"; }
  Index observation_size() const override { return 1; }
  Index num_actions() const override { return options_.means.size(); }
  Index max_steps() const override { return 1; }
  Vector reset(std::uint64_t seed) override;
  StepResult step(Index action) override;
  std::unique_ptr<Environment> clone() const override { return std::make_unique<MultiArmedBandit>(*this); }
  const Vector& means() const { return options_.means; }

 private:
  MultiArmedBanditOptions options_;
  bool running_ = false;
  std::mt19937_64 rng_;
};

}  // namespace dagml::rl
