#include "models/rl/cart_pole.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::rl {

namespace {
constexpr Scalar kGravity = 9.8, kCartMass = 1.0, kPoleMass = 0.1, kHalfLength = 0.5, kForce = 10.0, kTau = 0.02;
constexpr Scalar kTotalMass = kCartMass + kPoleMass, kPoleMoment = kPoleMass * kHalfLength;
constexpr Scalar kXLimit = 2.4, kThetaLimit = 12 * 2 * std::numbers::pi / 360;
}  // namespace

CartPole::CartPole(CartPoleOptions options) : options_(options) {
  if (options.max_steps < 1) throw ValueError(fmt::format("CartPole: expected max_steps ≥ 1, found {}", options.max_steps));
}

Vector CartPole::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (Index i = 0; i < 4; ++i) state_(i) = 0.1 * uniform01(rng) - 0.05;
  steps_ = 0;
  running_ = true;
  return state_;
}

void CartPole::set_state(const Vector& state) {
  if (state.size() != 4 || !state.allFinite())
    throw ValueError(fmt::format("CartPole::set_state: expected 4 finite numbers (x, ẋ, θ, θ̇), found {}", state.size()));
  state_ = state;
  steps_ = 0;
  running_ = true;
}

StepResult CartPole::step(Index action) {
  check_step(*this, running_, action);
  const Scalar x = state_(0), x_dot = state_(1), theta = state_(2), theta_dot = state_(3);
  const Scalar force = action == 1 ? kForce : -kForce;
  const Scalar c = std::cos(theta), s = std::sin(theta);
  const Scalar t = (force + kPoleMoment * theta_dot * theta_dot * s) / kTotalMass;
  const Scalar theta_acc = (kGravity * s - c * t) / (kHalfLength * (4.0 / 3.0 - kPoleMass * c * c / kTotalMass));
  const Scalar x_acc = t - kPoleMoment * theta_acc * c / kTotalMass;
  state_ << x + kTau * x_dot, x_dot + kTau * x_acc, theta + kTau * theta_dot, theta_dot + kTau * theta_acc;
  ++steps_;
  StepResult r{state_, 1.0, std::abs(state_(0)) > kXLimit || std::abs(state_(2)) > kThetaLimit, false};
  r.truncated = !r.terminated && steps_ >= options_.max_steps;
  running_ = !r.terminated && !r.truncated;
  return r;
}

}  // namespace dagml::rl
