// REINFORCE (models/rl/reinforce.h): the policy-gradient loss's gradient against the exact
// policy gradient of a bandit, the Monte Carlo estimate within its error, learning on the bandit
// and on CartPole, baselines, determinism and options.
#include "models/rl/reinforce.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "graph/threads.h"
#include "models/nn/activation.h"
#include "models/nn/inference.h"
#include "models/nn/linear.h"
#include "models/rl/cart_pole.h"
#include "models/rl/multi_armed_bandit.h"
#include "models/rl/rollout.h"

namespace dagml::rl {
namespace {

const Vector kArmMeans{{1.0, -0.5, 2.0, 0.0}};

// A bandit policy π = softmax(θ): a linear layer on the constant observation 1.
nn::Sequential bandit_policy(const Vector& theta) {
  nn::Sequential net;
  net.add(nn::Linear({.in = 1, .out = theta.size(), .bias = false}));
  net.parameters()[0]->value = theta.transpose();
  return net;
}

Vector softmax_of(const Vector& z) {
  const Vector e = (z.array() - z.maxCoeff()).exp();
  return e / e.sum();
}

// ∇_θ J for J(θ) = Σ_a π_a μ_a: ∂J/∂θ_k = π_k (μ_k − J).
Vector exact_policy_gradient(const Vector& theta) {
  const Vector pi = softmax_of(theta);
  return pi.cwiseProduct(kArmMeans - Vector::Constant(pi.size(), pi.dot(kArmMeans)));
}

TEST(Reinforce, LossGradientIsTheExactPolicyGradientInExpectation) {
  const Vector theta{{0.2, -0.1, 0.4, 0.0}};
  const Vector pi = softmax_of(theta);
  // One row per action, weighted so that the batch mean is the expectation over a ~ π:
  // −(1/K) Σ_a (K π_a μ_a) ∇ log π_a = −Σ_a π_a μ_a ∇ log π_a = −∇J.
  const Index K = 4;
  Vector actions(K), weights(K);
  for (Index a = 0; a < K; ++a) {
    actions(a) = static_cast<Scalar>(a);
    weights(a) = static_cast<Scalar>(K) * pi(a) * kArmMeans(a);
  }
  const PolicyGradient pg = policy_gradient(bandit_policy(theta), Tensor::Ones(K, 1), actions, weights, 0);
  EXPECT_LT((-pg.gradient - exact_policy_gradient(theta)).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Reinforce, MonteCarloEstimateWithinItsError) {
  const Vector theta{{0.2, -0.1, 0.4, 0.0}};
  const nn::Sequential policy = bandit_policy(theta);
  const MultiArmedBandit bandit({.means = kArmMeans, .noise = 1});
  const Index N = 20000;
  const auto episodes = collect_episodes(bandit, policy, N, 4);
  Vector actions(N), rewards(N);
  for (Index i = 0; i < N; ++i) {
    actions(i) = episodes[static_cast<std::size_t>(i)].actions(0);
    rewards(i) = episodes[static_cast<std::size_t>(i)].rewards(0);
  }
  const Vector estimate = -policy_gradient(policy, Tensor::Ones(N, 1), actions, rewards, 0).gradient;
  // Per-sample terms g_i = r_i (e_{a_i} − π): their standard error bounds the estimate's error.
  const Vector pi = softmax_of(theta);
  Vector mean = Vector::Zero(4), square = Vector::Zero(4);
  for (Index i = 0; i < N; ++i) {
    Vector g = -rewards(i) * pi;
    g(static_cast<Index>(actions(i))) += rewards(i);
    mean += g;
    square += g.cwiseProduct(g);
  }
  mean /= static_cast<Scalar>(N);
  const Vector standard_error = ((square / static_cast<Scalar>(N) - mean.cwiseProduct(mean)) / static_cast<Scalar>(N)).cwiseSqrt();
  EXPECT_LT((estimate - mean).cwiseAbs().maxCoeff(), 1e-12);  // the loss's gradient is that mean
  const Vector error = (estimate - exact_policy_gradient(theta)).cwiseAbs();
  for (Index k = 0; k < 4; ++k) EXPECT_LT(error(k), 4 * standard_error(k)) << "arm " << k;
}

TEST(Reinforce, LearnsTheBestArm) {
  nn::Sequential policy = bandit_policy(Vector::Zero(4));
  const MultiArmedBandit bandit({.means = kArmMeans, .noise = 1});
  Reinforce reinforce({.iterations = 150, .episodes_per_iteration = 32, .learning_rate = 0.05, .seed = 1});
  const Result r = reinforce.train(bandit, policy, nullptr);
  EXPECT_EQ(r.status, Status::MaxIterations);
  EXPECT_EQ(r.iterations, 150);
  EXPECT_EQ(r.history.size(), 150u);
  EXPECT_GT(softmax_of(policy.parameters()[0]->value.row(0).transpose())(2), 0.9);
  EXPECT_GT(reinforce.iterations().back().mean_return, 1.6);
}

nn::Sequential cart_pole_network(Index outputs, std::uint64_t seed) {
  nn::Sequential net;
  net.add(nn::Linear({.in = 4, .out = 32, .seed = seed}));
  net.add(nn::Activation(nn::ActivationKind::Tanh));
  net.add(nn::Linear({.in = 32, .out = outputs, .seed = seed + 1}));
  return net;
}

TEST(Reinforce, ImprovesOnCartPoleWithEitherBaseline) {
  const CartPole env;
  for (Baseline baseline : {Baseline::AverageReturn, Baseline::ValueNetwork}) {
    nn::Sequential policy = cart_pole_network(2, 1), value = cart_pole_network(1, 7);
    Reinforce reinforce({.iterations = 40, .episodes_per_iteration = 16, .baseline = baseline, .seed = 2});
    reinforce.train(env, policy, &value);
    const Scalar before = reinforce.iterations().front().mean_return;
    const Scalar after = mean_return(collect_episodes(env, policy, 32, 99));
    EXPECT_GT(after, 3 * before) << enum_name(baseline) << ": " << before << " → " << after;
  }
}

TEST(Reinforce, SameSeedSamePolicyForAnyThreadCount) {
  const CartPole env;
  auto trained = [&](int threads) {
    set_num_threads(threads);
    nn::Sequential policy = cart_pole_network(2, 3);
    Reinforce({.iterations = 5, .episodes_per_iteration = 24, .entropy_bonus = 0.01, .seed = 5}).train(env, policy);
    return nn::flatten_parameters(policy.parameters());
  };
  const Vector one = trained(1), two = trained(2);
  set_num_threads(0);
  EXPECT_EQ(one, two);
}

TEST(Reinforce, BadOptions) {
  EXPECT_THROW(Reinforce({.iterations = 0}), ValueError);
  EXPECT_THROW(Reinforce({.discount = 0}), ValueError);
  EXPECT_THROW(Reinforce({.entropy_bonus = -1}), ValueError);
  EXPECT_THROW(Reinforce({.learning_rate = 0}), ValueError);
  nn::Sequential policy = cart_pole_network(2, 1);
  EXPECT_THAT([&] { Reinforce({.baseline = Baseline::ValueNetwork}).train(CartPole(), policy); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("needs a value network")));
}

}  // namespace
}  // namespace dagml::rl
