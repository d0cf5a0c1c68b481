// Behaviour cloning and DAgger (models/rl/imitation.h) with a linear CartPole controller as the
// expert.
#include "models/rl/imitation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/nn/activation.h"
#include "models/nn/inference.h"
#include "models/nn/linear.h"
#include "models/rl/cart_pole.h"

namespace dagml::rl {
namespace {

Index balance(const Vector& s) { return s(2) + 0.5 * s(3) + 0.1 * s(0) + 0.2 * s(1) > 0 ? 1 : 0; }

nn::Sequential small_policy(std::uint64_t seed) {
  nn::Sequential net;
  net.add(nn::Linear({.in = 4, .out = 16, .seed = seed}));
  net.add(nn::Activation(nn::ActivationKind::Tanh));
  net.add(nn::Linear({.in = 16, .out = 2, .seed = seed + 1}));
  return net;
}

TEST(Imitation, BehaviourCloningCopiesTheExpertOnItsStates) {
  const CartPole env;
  const StateActionPairs pairs = pool_pairs(collect_episodes(env, ActionFunction(balance), 4, 1));
  EXPECT_EQ(pairs.observations.rows(), 2000);  // four full episodes
  nn::Sequential policy = small_policy(1);
  behaviour_cloning(policy, pairs, {.training = {.epochs = 30, .batch_size = 64, .chunks = 1, .seed = 2}});
  const Vector predicted = argmax_rows(nn::forward_batches(policy, pairs.observations));
  EXPECT_GT((predicted.array() == pairs.actions.array()).cast<Scalar>().mean(), 0.95);
  EXPECT_THROW(behaviour_cloning(policy, StateActionPairs{}), ValueError);
  EXPECT_THROW(behaviour_cloning(policy, {pairs.observations, Vector::Zero(3)}), ShapeError);
}

TEST(Imitation, DaggerGrowsTheDataAndDoesNoWorseThanCloning) {
  const CartPole env;
  nn::Sequential policy = small_policy(3);
  const std::vector<DaggerRound> rounds =
      dagger(env, balance, policy,
             {.iterations = 4, .episodes_per_iteration = 2,
              .cloning = {.training = {.epochs = 10, .batch_size = 64, .chunks = 1, .seed = 4}}, .seed = 5});
  ASSERT_EQ(rounds.size(), 5u);
  for (std::size_t i = 1; i < rounds.size(); ++i) EXPECT_GT(rounds[i].dataset_size, rounds[i - 1].dataset_size);
  EXPECT_GE(rounds.back().mean_return, rounds.front().mean_return);
  EXPECT_GT(rounds.back().mean_return, 400);
}

}  // namespace
}  // namespace dagml::rl
