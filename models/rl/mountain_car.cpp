#include "models/rl/mountain_car.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::rl {

MountainCar::MountainCar(MountainCarOptions options) : options_(options) {
  if (options.max_steps < 1)
    throw ValueError(fmt::format("MountainCar: expected max_steps ≥ 1, found {}", options.max_steps));
}

Vector MountainCar::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  state_ << -0.6 + 0.2 * uniform01(rng), 0.0;
  steps_ = 0;
  running_ = true;
  return state_;
}

StepResult MountainCar::step(Index action) {
  check_step(*this, running_, action);
  Scalar p = state_(0), v = state_(1);
  v = std::clamp(v + static_cast<Scalar>(action - 1) * 0.001 - 0.0025 * std::cos(3 * p), -0.07, 0.07);
  p = std::clamp(p + v, -1.2, 0.6);
  if (p == -1.2 && v < 0) v = 0;
  state_ << p, v;
  ++steps_;
  StepResult r{state_, -1.0, p >= 0.5, false};
  r.truncated = !r.terminated && steps_ >= options_.max_steps;
  running_ = !r.terminated && !r.truncated;
  return r;
}

}  // namespace dagml::rl
