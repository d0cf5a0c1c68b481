// A grid world (Sutton and Barto §3.5): the agent starts in the top-left cell of a width × height
// grid and must reach the bottom-right one. Actions 0..3 move up, right, down, left; a move into
// the border leaves the agent in place; with probability `slip` the move is replaced by a uniformly
// random one. Reward −1 per step, 0 for the step that reaches the goal (terminated); truncated
// after max_steps. The observation is the one-hot code of the cell (width·height entries, cell
// row·width + column).
#pragma once

#include <random>

#include "models/rl/environment.h"

namespace dagml::rl {

struct GridWorldOptions {
  Index width = 5, height = 5;  // ≥ 1 each, at least 2 cells
  Scalar slip = 0;              // in [0, 1]
  Index max_steps = 100;        // ≥ 1
};

class GridWorld final : public Environment {
 public:
  explicit GridWorld(GridWorldOptions options = {});  // ValueError for options out of range
  std::string name() const override { return "GridWorld"; }
  Index observation_size() const override { return options_.width * options_.height; }
  Index num_actions() const override { return 4; }
  Index max_steps() const override { return options_.max_steps; }
  Vector reset(std::uint64_t seed) override;
  StepResult step(Index action) override;
  std::unique_ptr<Environment> clone() const override { return std::make_unique<GridWorld>(*this); }
  Index cell() const { return row_ * options_.width + column_; }

 private:
  Vector observation() const;
  GridWorldOptions options_;
  Index row_ = 0, column_ = 0, steps_ = 0;
  bool running_ = false;
  std::mt19937_64 rng_;
};

}  // namespace dagml::rl
