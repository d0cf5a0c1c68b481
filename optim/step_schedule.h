// Step-size schedules α_t for first-order update rules, t = 1, 2, … the step count.
//
//   constant(α)              α_t = α
//   inverse_time(α)          α_t = α / t
//   inverse_sqrt(α)          α_t = α / √t
//   step_decay(α, γ, k)      α_t = α · γ^⌊(t−1)/k⌋          (multiply by γ every k steps)
//   lipschitz(R, L)          α_t = R / (L √t)    convex, L-Lipschitz f, R = ‖x₀ − x*‖: f − f* = O(1/√t)
//   strongly_convex(m)       α_t = 2 / (m (t+1)) m-strongly convex, Lipschitz f: f − f* = O(1/t)
// (the last two are the table of notes 000 §4.5; 1/M for an M-smooth f is constant(1/M)).
#pragma once

#include "graph/tensor.h"

namespace dagml {

class StepSchedule {
 public:
  enum class Kind { Constant, InverseTime, InverseSqrt, StepDecay, Lipschitz, StronglyConvex };

  // Each factory throws ValueError for a non-positive or non-finite argument, γ ∉ (0, 1] or k < 1.
  static StepSchedule constant(Scalar alpha);
  static StepSchedule inverse_time(Scalar alpha);
  static StepSchedule inverse_sqrt(Scalar alpha);
  static StepSchedule step_decay(Scalar alpha, Scalar gamma, Index every);
  static StepSchedule lipschitz(Scalar R, Scalar L);
  static StepSchedule strongly_convex(Scalar m);

  // α_t for step t ≥ 1.
  Scalar at(Index t) const;
  Kind kind() const { return kind_; }

 private:
  StepSchedule(Kind kind, Scalar a, Scalar b, Index every) : kind_(kind), a_(a), b_(b), every_(every) {}
  Kind kind_;
  Scalar a_;
  Scalar b_;
  Index every_;
};

}  // namespace dagml
