// The bundled environments (models/rl/): dynamics against their published equations, rewards,
// termination and truncation, seeding, and the protocol's errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "models/rl/cart_pole.h"
#include "models/rl/grid_world.h"
#include "models/rl/mountain_car.h"
#include "models/rl/multi_armed_bandit.h"

namespace dagml::rl {
namespace {

using ::testing::HasSubstr;

// Barto, Sutton and Anderson (1983), equations (the friction-free case) with Gymnasium's
// constants, integrated by one Euler step of τ = 0.02:
//   θ̈ = [g sin θ + cos θ (−F − m l θ̇² sin θ) / (m_c + m)] / [l (4/3 − m cos² θ / (m_c + m))]
//   ẍ = [F + m l (θ̇² sin θ − θ̈ cos θ)] / (m_c + m)
Vector barto_step(const Vector& s, Scalar F) {
  const Scalar g = 9.8, mc = 1.0, m = 0.1, l = 0.5, tau = 0.02;
  const Scalar th = s(2), thd = s(3);
  const Scalar theta_acc = (g * std::sin(th) + std::cos(th) * (-F - m * l * thd * thd * std::sin(th)) / (mc + m)) /
                           (l * (4.0 / 3.0 - m * std::cos(th) * std::cos(th) / (mc + m)));
  const Scalar x_acc = (F + m * l * (thd * thd * std::sin(th) - theta_acc * std::cos(th))) / (mc + m);
  Vector next(4);
  next << s(0) + tau * s(1), s(1) + tau * x_acc, s(2) + tau * s(3), s(3) + tau * theta_acc;
  return next;
}

TEST(CartPole, FollowsThePublishedEquations) {
  CartPole env;
  Vector s(4);
  s << 0.3, -0.4, 0.1, 0.7;
  env.set_state(s);
  for (int t = 0; t < 20; ++t) {
    const Index action = t % 3 == 0 ? 0 : 1;
    const Vector expected = barto_step(env.state(), action == 1 ? 10.0 : -10.0);
    const StepResult r = env.step(action);
    EXPECT_LT((r.observation - expected).cwiseAbs().maxCoeff(), 1e-14) << "step " << t;
    EXPECT_EQ(r.reward, 1.0);
    if (r.terminated) break;
  }
}

TEST(CartPole, TerminatesTruncatesAndSeeds) {
  CartPole env;
  const Vector a = env.reset(3), b = CartPole().reset(3);
  EXPECT_EQ(a, b);
  EXPECT_LE(a.cwiseAbs().maxCoeff(), 0.05);
  EXPECT_NE(a, CartPole().reset(4));
  // Pushing right forever tips the pole over within a few dozen steps: terminated at |θ| > 12°.
  StepResult r;
  Index steps = 0;
  do {
    r = env.step(1);
    ++steps;
  } while (!r.terminated && !r.truncated);
  EXPECT_TRUE(r.terminated);
  EXPECT_GT(std::abs(r.observation(2)), 12 * std::numbers::pi / 180 - 1e-12);
  EXPECT_LT(steps, 60);
  EXPECT_THAT([&] { env.step(0); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("expected a running episode")));
  // A short limit truncates a balanced episode.
  CartPole short_episode({.max_steps = 3});
  short_episode.reset(1);
  short_episode.step(0);
  short_episode.step(1);
  const StepResult last = short_episode.step(0);
  EXPECT_TRUE(last.truncated);
  EXPECT_FALSE(last.terminated);
  EXPECT_THROW(CartPole({.max_steps = 0}), ValueError);
  env.reset(1);
  EXPECT_THAT([&] { env.step(2); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("expected an action in 0..1, found 2")));
}

TEST(MountainCar, DynamicsAndGoal) {
  MountainCar env;
  const Vector s0 = env.reset(5);
  EXPECT_GE(s0(0), -0.6);
  EXPECT_LE(s0(0), -0.4);
  EXPECT_EQ(s0(1), 0.0);
  // One step by the equations of the header.
  const StepResult r = env.step(2);
  const Scalar v = 0.001 - 0.0025 * std::cos(3 * s0(0));
  EXPECT_DOUBLE_EQ(r.observation(1), v);
  EXPECT_DOUBLE_EQ(r.observation(0), s0(0) + v);
  EXPECT_EQ(r.reward, -1.0);
  // Pushing with the velocity pumps energy in: the car reaches the hilltop within 200 steps.
  env.reset(5);
  StepResult s = env.step(1);
  Index steps = 1;
  while (!s.terminated && !s.truncated) {
    s = env.step(s.observation(1) >= 0 ? 2 : 0);
    ++steps;
  }
  EXPECT_TRUE(s.terminated);
  EXPECT_GE(s.observation(0), 0.5);
  EXPECT_LT(steps, 200);
  // Doing nothing never gets there: truncated at 200 steps.
  env.reset(5);
  Index idle = 0;
  do {
    s = env.step(1);
    ++idle;
  } while (!s.terminated && !s.truncated);
  EXPECT_TRUE(s.truncated);
  EXPECT_EQ(idle, 200);
}

TEST(GridWorld, ShortestPathAndWalls) {
  GridWorld env({.width = 4, .height = 3});
  Vector x = env.reset(0);
  EXPECT_EQ(x.size(), 12);
  EXPECT_EQ(x(0), 1.0);
  EXPECT_EQ(env.step(0).reward, -1.0);  // up into the wall: stays
  EXPECT_EQ(env.cell(), 0);
  Scalar total = -1;
  StepResult r;
  for (Index a : {1, 1, 1, 2, 2}) total += (r = env.step(a)).reward;
  EXPECT_TRUE(r.terminated);
  EXPECT_EQ(env.cell(), 11);
  EXPECT_EQ(r.reward, 0.0);
  EXPECT_EQ(total, -5.0);
  EXPECT_EQ(r.observation(11), 1.0);
  // Slipping is seeded.
  GridWorld slippery({.slip = 0.5});
  auto walk = [&](std::uint64_t seed) {
    slippery.reset(seed);
    std::vector<Index> cells;
    for (int t = 0; t < 10; ++t) {
      if (slippery.step(1).terminated) break;
      cells.push_back(slippery.cell());
    }
    return cells;
  };
  EXPECT_EQ(walk(7), walk(7));
  EXPECT_THROW(GridWorld({.width = 1, .height = 1}), ValueError);
  EXPECT_THROW(GridWorld({.slip = 1.5}), ValueError);
}

TEST(MultiArmedBandit, PaysTheArmMeans) {
  MultiArmedBandit bandit({.means = Vector{{1.0, -2.0, 0.5}}, .noise = 0});
  EXPECT_EQ(bandit.reset(1), Vector::Ones(1));
  const StepResult r = bandit.step(1);
  EXPECT_EQ(r.reward, -2.0);
  EXPECT_TRUE(r.terminated);
  EXPECT_THROW(bandit.step(0), ValueError);
  MultiArmedBandit noisy({.means = Vector{{1.0, 0.0}}, .noise = 1});
  Scalar sum = 0;
  for (std::uint64_t s = 0; s < 4000; ++s) {
    noisy.reset(s);
    sum += noisy.step(0).reward;
  }
  EXPECT_NEAR(sum / 4000, 1.0, 0.07);  // 4.4 standard errors
  EXPECT_THROW(MultiArmedBandit({.means = Vector{{1.0}}}), ValueError);
}

}  // namespace
}  // namespace dagml::rl
