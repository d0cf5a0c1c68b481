// Episodes, returns and batches of environments (notes 002 §5.1).
//
// Note [Lockstep rollouts]
// Episodes e = 0..E−1 run side by side, each on its own copy of the environment reset with
// derive_seed(seed, 2e) and drawing its actions from std::mt19937_64(derive_seed(seed, 2e + 1)).
// At each step the observations of the episodes still running are stacked and the policy
// evaluates them in one batch; the environments then step in parallel (TBB, in blocks of
// kRolloutGrain episodes). Every episode depends on its seed and the policy alone, so a batch of
// episodes is the same for any thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "graph/tensor.h"
#include "models/nn/layer.h"
#include "models/rl/environment.h"

namespace dagml::rl {

// One episode: the observation before each action, the action and the reward after it.
struct Trajectory {
  Tensor observations;  // T × observation_size
  Vector actions;       // T, in 0..num_actions−1
  Vector rewards;       // T
  bool terminated = false;  // false: truncated at the environment's max_steps
  Scalar total_reward() const { return rewards.sum(); }
  Index length() const { return rewards.size(); }
};

// Reward-to-go Q_t = Σ_{t' ≥ t} γ^{t'−t} r_{t'} for every step t (discount γ ∈ (0, 1], ValueError
// otherwise).
Vector discounted_returns(const Vector& rewards, Scalar discount);

// How a network policy picks an action from its logits z (1 × A per observation).
enum class ActionSelection {
  Sample,  // a ~ softmax(z), with the episode's generator
  Greedy,  // argmax_a z_a (the smallest a on ties)
};

// num_episodes ≥ 1 episodes of `env` with a policy network (observation_size → num_actions
// logits), evaluated in Eval mode; Note [Lockstep rollouts]. ValueError for num_episodes < 1;
// ShapeError when the policy's output has other than num_actions columns.
std::vector<Trajectory> collect_episodes(const Environment& env, const nn::Layer& policy, Index num_episodes,
                                         std::uint64_t seed, ActionSelection selection = ActionSelection::Sample);

// The same with any callable as the policy (an expert, a hand-written controller): it is called
// with one observation at a time, from several threads at once (it must be safe to), and must
// return an action in range (ValueError otherwise).
using ActionFunction = std::function<Index(const Vector& observation)>;
std::vector<Trajectory> collect_episodes(const Environment& env, const ActionFunction& policy, Index num_episodes,
                                         std::uint64_t seed);

// The observations and actions of the episodes, stacked in episode order.
struct StateActionPairs {
  Tensor observations;
  Vector actions;
};
StateActionPairs pool_pairs(const std::vector<Trajectory>& episodes);

// The mean of total_reward() over the episodes.
Scalar mean_return(const std::vector<Trajectory>& episodes);

}  // namespace dagml::rl
