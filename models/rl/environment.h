// The environment protocol of sequential decision making (notes 002 §5.1: observation → action →
// reward, episodes of finite horizon), in Gymnasium's form so that its users recognise it:
//
//   Vector x = env.reset(seed);             // a new episode; the seed fixes all of its randomness
//   StepResult s = env.step(action);        // action in 0..num_actions()−1
//   while (!s.terminated && !s.truncated) s = env.step(policy(s.observation));
//
// `terminated` means the episode reached a terminal state of the task (the pole fell, the goal
// was reached): no reward follows. `truncated` means it was cut at the environment's step limit,
// with the state not terminal. A step after either, without reset, is a ValueError, and so is an
// action out of range. Environments are copied with clone() (one copy per parallel episode);
// every draw comes from the episode's own std::mt19937_64, so an episode depends on its seed
// alone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "graph/tensor.h"

namespace dagml::rl {

struct StepResult {
  Vector observation;
  Scalar reward = 0;
  bool terminated = false;
  bool truncated = false;
};

class Environment {
 public:
  virtual ~Environment() = default;
  virtual std::string name() const = 0;
  virtual Index observation_size() const = 0;
  virtual Index num_actions() const = 0;
  // Steps after which an episode is truncated (≥ 1).
  virtual Index max_steps() const = 0;
  virtual Vector reset(std::uint64_t seed) = 0;
  virtual StepResult step(Index action) = 0;
  virtual std::unique_ptr<Environment> clone() const = 0;
};

// The checks every step shares: ValueError unless an episode is running (reset called, not
// ended) and 0 ≤ action < num_actions.
void check_step(const Environment& env, bool running, Index action);

}  // namespace dagml::rl
