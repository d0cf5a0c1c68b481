#include "models/rl/grid_world.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::rl {

GridWorld::GridWorld(GridWorldOptions options) : options_(options) {
  if (options.width < 1 || options.height < 1 || options.width * options.height < 2 || options.width > 10000 ||
      options.height > 10000)
    throw ValueError(fmt::format("GridWorld: expected width and height in 1..10000 with at least 2 cells, found {}×{}",
                                 options.width, options.height));
  if (!(options.slip >= 0 && options.slip <= 1))
    throw ValueError(fmt::format("GridWorld: expected slip in [0, 1], found {}", options.slip));
  if (options.max_steps < 1) throw ValueError(fmt::format("GridWorld: expected max_steps ≥ 1, found {}", options.max_steps));
}

Vector GridWorld::observation() const {
  Vector x = Vector::Zero(observation_size());
  x(cell()) = 1;
  return x;
}

Vector GridWorld::reset(std::uint64_t seed) {
  rng_.seed(seed);
  row_ = column_ = steps_ = 0;
  running_ = true;
  return observation();
}

StepResult GridWorld::step(Index action) {
  check_step(*this, running_, action);
  if (options_.slip > 0 && uniform01(rng_) < options_.slip) action = static_cast<Index>(uniform_below(rng_, 4));
  constexpr Index kRowMove[] = {-1, 0, 1, 0}, kColumnMove[] = {0, 1, 0, -1};
  row_ = std::clamp<Index>(row_ + kRowMove[action], 0, options_.height - 1);
  column_ = std::clamp<Index>(column_ + kColumnMove[action], 0, options_.width - 1);
  ++steps_;
  const bool goal = row_ == options_.height - 1 && column_ == options_.width - 1;
  StepResult r{observation(), goal ? 0.0 : -1.0, goal, false};
  r.truncated = !goal && steps_ >= options_.max_steps;
  running_ = !r.terminated && !r.truncated;
  return r;
}

}  // namespace dagml::rl
