// Coordinate descent (notes 000 §4.4: line search along coordinate axes; §2.6 LASSO): one
// iteration is a sweep over all p coordinates, each set to a minimiser of f along its axis,
//   x_j ← argmin_z f(x₁, …, x_{j−1}, z, x_{j+1}, …, x_p),
// in cyclic order 0..p−1, or in a new seeded random permutation per sweep. The 1-D minimisation is
// exact when a coordinate_minimizer is given (for LASSO, the soft-threshold formula
// x_j = S_λ(a_j)/b_j); otherwise Brent's method on [x_j − r, x_j + r], r = search_radius·max(1, |x_j|).
// f need not be differentiable (LASSO): the default stop is on the maximum relative change of x
// over a sweep and on the relative change of f; the gradient is computed only when
// stop.gradient_tolerance > 0 (Result::gradient_norm is NaN otherwise).
//
// Note [Active-set sweeps]
// With active_set (glmnet's strategy for sparse solutions), an iteration is one sweep over all
// coordinates followed by sweeps over the nonzero ones alone, in the same order, until one of
// them changes x by at most stop.step_tolerance (the maximum relative change, as the stop rule
// measures it) or 10,000 of them have run. The stop rule then compares x before and
// after the whole iteration, so "converged" still means that a sweep over every coordinate,
// the first of the iteration, moved x by at most the tolerance. Coordinates at 0 cost nothing
// in the inner sweeps, and the per-iteration work (f, the stop rule, the callbacks) is shared by
// many sweeps.
#pragma once

#include <cstdint>
#include <functional>

#include "graph/enum_names.h"
#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

enum class CoordinateOrder { Cyclic, Random };
constexpr auto enum_names(CoordinateOrder) {
  return std::to_array<EnumName<CoordinateOrder>>({{CoordinateOrder::Cyclic, "cyclic"}, {CoordinateOrder::Random, "random"}});
}

struct CoordinateDescentOptions {
  StopOptions stop = {.max_iterations = 1000, .gradient_tolerance = 0, .value_tolerance = 0, .step_tolerance = 1e-10};
  CoordinateOrder order = CoordinateOrder::Cyclic;
  std::uint64_t seed = 0;  // Random order: sweep s visits epoch_order(p, seed, s, true) (graph/random.h)
  // Exact coordinate minimiser: given the current x and j, returns the new x_j, which is assigned
  // at once (so the minimiser may update cached state, such as LASSO residuals, as it returns).
  std::function<Scalar(const Vector& x, Index j)> coordinate_minimizer = {};
  Scalar search_radius = 1;  // > 0, for the Brent search when no exact minimiser is given
  bool active_set = false;   // Note [Active-set sweeps] (used when stop.step_tolerance > 0)
  // A certificate of optimality for a convex f, tested after every sweep once the other tests
  // have not ended the run: a duality gap G(x) ≥ f(x) − min f. G(x) ≤ gap_tolerance ends the run
  // with Status::GapTolerance (the LASSO's, models/linear/lasso.cpp). Unused when empty.
  std::function<Scalar(const Vector& x)> duality_gap = {};
  Scalar gap_tolerance = 0;  // ≥ 0
};

class CoordinateDescent {
 public:
  // Throws ValueError for invalid options.
  explicit CoordinateDescent(CoordinateDescentOptions options = {});
  explicit CoordinateDescent(DefaultOptions) : CoordinateDescent() {}  // Note [Constructing from options]
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const CoordinateDescentOptions& options() const { return options_; }

 private:
  CoordinateDescentOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const CoordinateDescentOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
