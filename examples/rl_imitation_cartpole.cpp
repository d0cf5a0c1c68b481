// Imitation learning on CartPole (notes 002 §5.1): a linear controller is the expert; behaviour
// cloning learns from a single expert episode, and DAgger asks the expert to label the states the
// clone itself visits. The clone's mistakes take it where the expert never went (compounding
// errors); DAgger's data covers those states.
//
//   ./build/examples/rl_imitation_cartpole
#include <fmt/format.h>

#include "models/nn/activation.h"
#include "models/nn/linear.h"
#include "models/nn/sequential.h"
#include "models/rl/cart_pole.h"
#include "models/rl/imitation.h"

using namespace dagml;
using namespace dagml::rl;

int main() {
  const CartPole env;
  // The expert: push towards where the pole is falling, with a little position feedback.
  const ActionFunction expert = [](const Vector& s) {
    return s(2) + 0.5 * s(3) + 0.1 * s(0) + 0.2 * s(1) > 0 ? Index{1} : Index{0};
  };
  fmt::print("expert: mean return {:.1f} over 20 episodes\n", mean_return(collect_episodes(env, expert, 20, 1)));

  auto make_policy = [] {
    nn::Sequential net;
    net.add(nn::Linear({.in = 4, .out = 8, .seed = 3}));
    net.add(nn::Activation(nn::ActivationKind::Tanh));
    net.add(nn::Linear({.in = 8, .out = 2, .seed = 4}));
    return net;
  };
  const DaggerOptions options{.iterations = 6,
                              .episodes_per_iteration = 1,
                              .cloning = {.training = {.epochs = 20, .batch_size = 32, .chunks = 1, .seed = 5}},
                              .seed = 7};
  nn::Sequential policy = make_policy();
  const std::vector<DaggerRound> rounds = dagger(env, expert, policy, options);
  fmt::print("round  training pairs  mean return of the learned policy (greedy)\n");
  for (std::size_t i = 0; i < rounds.size(); ++i)
    fmt::print("{:5}  {:14}  {:.1f}{}\n", i, rounds[i].dataset_size, rounds[i].mean_return,
               i == 0 ? "   (behaviour cloning)" : "");
  const Scalar clone = rounds.front().mean_return, aggregated = rounds.back().mean_return;
  // The same number of labels from the expert's own episodes, for a fair comparison.
  nn::Sequential more_cloning = make_policy();
  const StateActionPairs expert_pairs =
      pool_pairs(collect_episodes(env, expert, static_cast<Index>(rounds.size()), 11));
  behaviour_cloning(more_cloning, expert_pairs, options.cloning);
  const Scalar cloned_more =
      mean_return(collect_episodes(env, more_cloning, 20, 13, ActionSelection::Greedy));
  fmt::print("behaviour cloning on {} expert pairs: {:.1f}; DAgger on {}: {:.1f} (from {:.1f} after round 0)\n",
             expert_pairs.observations.rows(), cloned_more, rounds.back().dataset_size, aggregated, clone);
  return 0;
}
