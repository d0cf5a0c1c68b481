// Momentum coefficients β_t for heavy-ball momentum and Nesterov, t = 1, 2, … the step count
// (notes 000 Algorithms 6 and 7 index β by the iteration, as they do α):
//
//   constant(β)   β_t = β, 0 ≤ β < 1
//   convex()      β_t = (t − 1)/(t + 2): Nesterov's schedule for a convex, M-smooth f with step
//                 α = 1/M, for which Nesterov's method gives f(x_t) − f* = O(1/t²) (gradient
//                 descent: O(1/t)); β_1 = 0, so the first step is a plain gradient step.
//
// A plain number converts to constant(β), so options may say `.beta = 0.9`.
#pragma once

#include "graph/tensor.h"

namespace dagml {

class MomentumCoefficient {
 public:
  // constant(β). Throws ValueError unless 0 ≤ β < 1.
  MomentumCoefficient(Scalar beta);  // NOLINT(google-explicit-constructor): `.beta = 0.9`
  static MomentumCoefficient constant(Scalar beta) { return MomentumCoefficient(beta); }
  static MomentumCoefficient convex();

  // β_t for step t ≥ 1.
  Scalar at(Index t) const { return convex_ ? static_cast<Scalar>(t - 1) / static_cast<Scalar>(t + 2) : beta_; }
  bool is_constant() const { return !convex_; }

 private:
  MomentumCoefficient() = default;
  Scalar beta_ = 0;
  bool convex_ = false;
};

}  // namespace dagml
