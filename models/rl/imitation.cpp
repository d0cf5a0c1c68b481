#include "models/rl/imitation.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"
#include "models/nn/network_loss.h"
#include "optim/adam.h"

namespace dagml::rl {

Result behaviour_cloning(nn::Sequential& policy, const StateActionPairs& pairs, const BehaviourCloningOptions& options) {
  if (pairs.observations.rows() == 0) throw ValueError("behaviour_cloning: expected expert pairs, found none");
  if (pairs.observations.rows() != pairs.actions.size())
    throw ShapeError(fmt::format("behaviour_cloning: expected one action per observation, found {} observations and {} "
                                 "actions",
                                 pairs.observations.rows(), pairs.actions.size()));
  if (!(options.learning_rate > 0))
    throw ValueError(fmt::format("behaviour_cloning: expected a learning_rate > 0, found {}", options.learning_rate));
  nn::SupervisedNetwork model(policy, nn::LossKind::SoftmaxCrossEntropy);
  nn::TrainerOptions training = options.training;
  training.batch_size = std::min(training.batch_size, pairs.observations.rows());
  return nn::Trainer(training).fit(model, pairs.observations, Tensor(pairs.actions),
                                   Adam({.schedule = StepSchedule::constant(options.learning_rate)}));
}

std::vector<DaggerRound> dagger(const Environment& env, const ActionFunction& expert, nn::Sequential& policy,
                                const DaggerOptions& options) {
  if (options.iterations < 0)
    throw ValueError(fmt::format("dagger: expected iterations ≥ 0, found {}", options.iterations));
  const Index E = options.episodes_per_iteration;  // collect_episodes checks E ≥ 1
  StateActionPairs data = pool_pairs(collect_episodes(env, expert, E, derive_seed(options.seed, 0)));
  std::vector<DaggerRound> rounds;
  for (Index i = 0; i <= options.iterations; ++i) {
    BehaviourCloningOptions cloning = options.cloning;
    cloning.training.seed = derive_seed(cloning.training.seed, static_cast<std::uint64_t>(i));
    behaviour_cloning(policy, data, cloning);
    const std::vector<Trajectory> visited = collect_episodes(
        env, policy, E, derive_seed(options.seed, static_cast<std::uint64_t>(i) + 1), ActionSelection::Greedy);
    rounds.push_back({mean_return(visited), data.observations.rows()});
    if (i == options.iterations) break;
    // The expert labels every state the clone visited; D grows by those pairs.
    const StateActionPairs seen = pool_pairs(visited);
    StateActionPairs grown{Tensor(data.observations.rows() + seen.observations.rows(), data.observations.cols()),
                           Vector(data.actions.size() + seen.actions.size())};
    grown.observations << data.observations, seen.observations;
    grown.actions.head(data.actions.size()) = data.actions;
    for (Index r = 0; r < seen.observations.rows(); ++r) {
      const Index a = expert(seen.observations.row(r).transpose());
      if (a < 0 || a >= env.num_actions())
        throw ValueError(fmt::format("dagger: the expert chose action {}, expected 0..{}", a, env.num_actions() - 1));
      grown.actions(data.actions.size() + r) = static_cast<Scalar>(a);
    }
    data = std::move(grown);
  }
  return rounds;
}

}  // namespace dagml::rl
