#include "optim/step_schedule.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml {
namespace {
void positive(Scalar v, const char* what) {
  if (!std::isfinite(v) || v <= 0)
    throw ValueError(fmt::format("StepSchedule: {} must be finite and > 0, got {}", what, v));
}
}  // namespace

StepSchedule StepSchedule::constant(Scalar alpha) {
  positive(alpha, "alpha");
  return {Kind::Constant, alpha, 0, 1};
}
StepSchedule StepSchedule::inverse_time(Scalar alpha) {
  positive(alpha, "alpha");
  return {Kind::InverseTime, alpha, 0, 1};
}
StepSchedule StepSchedule::inverse_sqrt(Scalar alpha) {
  positive(alpha, "alpha");
  return {Kind::InverseSqrt, alpha, 0, 1};
}
StepSchedule StepSchedule::step_decay(Scalar alpha, Scalar gamma, Index every) {
  positive(alpha, "alpha");
  if (!(gamma > 0 && gamma <= 1)) throw ValueError(fmt::format("StepSchedule: gamma must be in (0, 1], got {}", gamma));
  if (every < 1) throw ValueError(fmt::format("StepSchedule: every must be >= 1, got {}", every));
  return {Kind::StepDecay, alpha, gamma, every};
}
StepSchedule StepSchedule::lipschitz(Scalar R, Scalar L) {
  positive(R, "R");
  positive(L, "L");
  return {Kind::Lipschitz, R, L, 1};
}
StepSchedule StepSchedule::strongly_convex(Scalar m) {
  positive(m, "m");
  return {Kind::StronglyConvex, m, 0, 1};
}

Scalar StepSchedule::at(Index t) const {
  const Scalar s = static_cast<Scalar>(std::max<Index>(t, 1));
  switch (kind_) {
    case Kind::Constant:
      return a_;
    case Kind::InverseTime:
      return a_ / s;
    case Kind::InverseSqrt:
      return a_ / std::sqrt(s);
    case Kind::StepDecay:
      return a_ * std::pow(b_, static_cast<Scalar>((std::max<Index>(t, 1) - 1) / every_));
    case Kind::Lipschitz:
      return a_ / (b_ * std::sqrt(s));
    case Kind::StronglyConvex:
      return 2.0 / (a_ * (s + 1));
  }
  return a_;
}

}  // namespace dagml
