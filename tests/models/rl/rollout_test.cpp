// Rollouts (models/rl/rollout.h): returns by hand, lockstep episodes that depend on the seed
// alone (any thread count), greedy and sampled actions, and bad policies.
#include "models/rl/rollout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "graph/threads.h"
#include "models/nn/linear.h"
#include "models/nn/sequential.h"
#include "models/rl/cart_pole.h"
#include "models/rl/multi_armed_bandit.h"

namespace dagml::rl {
namespace {

TEST(Rollout, DiscountedReturnsByHand) {
  const Vector r{{1.0, 2.0, 3.0}};
  // Q_2 = 3, Q_1 = 2 + 0.5·3 = 3.5, Q_0 = 1 + 0.5·3.5 = 2.75.
  EXPECT_EQ(discounted_returns(r, 0.5), (Vector{{2.75, 3.5, 3.0}}));
  EXPECT_EQ(discounted_returns(r, 1.0), (Vector{{6.0, 5.0, 3.0}}));
  EXPECT_THROW(discounted_returns(r, 0.0), ValueError);
  EXPECT_THROW(discounted_returns(r, 1.5), ValueError);
}

nn::Sequential linear_policy(Index in, Index out, std::uint64_t seed) {
  nn::Sequential net;
  net.add(nn::Linear({.in = in, .out = out, .seed = seed}));
  return net;
}

TEST(Rollout, EpisodesDependOnTheSeedAlone) {
  const CartPole env;
  const nn::Sequential policy = linear_policy(4, 2, 1);
  auto run = [&](int threads) {
    set_num_threads(threads);
    return collect_episodes(env, policy, 40, 9);
  };
  const auto one = run(1), two = run(2);
  set_num_threads(0);
  ASSERT_EQ(one.size(), 40u);
  for (std::size_t e = 0; e < one.size(); ++e) {
    EXPECT_EQ(one[e].observations, two[e].observations);
    EXPECT_EQ(one[e].actions, two[e].actions);
    EXPECT_EQ(one[e].rewards, two[e].rewards);
    EXPECT_EQ(one[e].terminated, two[e].terminated);
    EXPECT_EQ(one[e].length(), one[e].observations.rows());
  }
  // An episode replays on its own: the same start, the same actions, the same states.
  CartPole replay;
  Vector x = replay.reset(derive_seed(9, 2 * 5));
  for (Index t = 0; t < one[5].length(); ++t) {
    EXPECT_EQ(x.transpose(), one[5].observations.row(t));
    x = replay.step(static_cast<Index>(one[5].actions(t))).observation;
  }
  // Another seed, another episode; its length may differ too (Eigen's != needs equal sizes).
  const Vector other = collect_episodes(env, policy, 40, 10)[0].actions;
  EXPECT_TRUE(other.size() != one[0].actions.size() || other != one[0].actions);
}

TEST(Rollout, GreedyAndSampledActions) {
  const MultiArmedBandit bandit({.means = Vector{{0.0, 1.0, 2.0}}, .noise = 0});
  nn::Sequential policy = linear_policy(1, 3, 2);
  policy.parameters()[0]->value << 0.0, 1.0, 0.5;  // logits (0, 1, 0.5)
  policy.parameters()[1]->value.setZero();
  for (const Trajectory& t : collect_episodes(bandit, policy, 50, 1, ActionSelection::Greedy)) EXPECT_EQ(t.actions(0), 1);
  // Sampled: frequencies near softmax(0, 1, 0.5) = (0.186, 0.506, 0.307).
  Vector counts = Vector::Zero(3);
  for (const Trajectory& t : collect_episodes(bandit, policy, 6000, 1)) counts(static_cast<Index>(t.actions(0))) += 1;
  counts /= 6000;
  EXPECT_NEAR(counts(0), 0.1863, 0.02);
  EXPECT_NEAR(counts(1), 0.5065, 0.02);
  EXPECT_NEAR(counts(2), 0.3072, 0.02);
}

TEST(Rollout, CallablePoliciesAndErrors) {
  const CartPole env;
  const ActionFunction balance = [](const Vector& s) { return s(2) + 0.5 * s(3) + 0.1 * s(0) + 0.2 * s(1) > 0 ? 1 : 0; };
  const auto episodes = collect_episodes(env, balance, 8, 3);
  EXPECT_EQ(mean_return(episodes), 500.0);  // a linear controller balances for the whole episode
  for (const Trajectory& t : episodes) EXPECT_FALSE(t.terminated);
  EXPECT_THAT([&] { collect_episodes(env, ActionFunction([](const Vector&) { return 5; }), 2, 1); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("the policy chose action 5, expected 0..1")));
  EXPECT_THROW(collect_episodes(env, balance, 0, 1), ValueError);
  EXPECT_THROW(collect_episodes(env, linear_policy(4, 3, 1), 2, 1), ShapeError);
}

}  // namespace
}  // namespace dagml::rl
