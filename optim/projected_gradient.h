// Projected gradient descent for box constraints lower ≤ x ≤ upper (non-negativity is lower = 0):
//   x_{t+1} = P(x_t − α_t ∇f(x_t)),   P(z)_j = min(max(z_j, lower_j), upper_j)
// α_t is either a fixed schedule (projected (sub)gradient method), or found by backtracking along
// the projection arc from α = step: the first α = step·½ᵏ with
//   f(x_α) ≤ f(x_t) + c₁ ∇f(x_t)ᵀ(x_α − x_t),   x_α = P(x_t − α∇f(x_t)).
// The stationarity measure reported as the gradient norm (and tested against
// stop.gradient_tolerance) is the projected gradient ‖x − P(x − ∇f(x))‖₂, zero exactly at a KKT
// point of the box-constrained problem.
#pragma once

#include <optional>

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"
#include "optim/step_schedule.h"

namespace dagml {

struct Box {
  Vector lower = {};  // p entries, −∞ allowed; empty: unbounded below
  Vector upper = {};  // p entries, +∞ allowed; empty: unbounded above
  static Box nonnegative(Index p) { return {Vector::Zero(p), {}}; }
  // Clamps x into the box in place.
  void project(Vector& x) const;
  // ‖x − P(x − g)‖₂: zero exactly at a KKT point of min f over the box (g = ∇f(x)).
  Scalar stationarity(const Vector& x, const Vector& g) const;
};

// Backtracking along the projection arc x(α) = P(x + αp), α = α₀, α₀/2, …: the first x(α) where
// f and ∇f are finite and f(x(α)) ≤ f + c₁ gᵀ(x(α) − x), written to x_new, f_new, g_new. False
// when none is found in max_backtracks trials. Each trial adds one to `evaluations`.
bool projected_backtracking(Objective& objective, const Box& box, const Vector& x, Scalar f, const Vector& g,
                            const Vector& p, Scalar alpha0, Scalar c1, Index max_backtracks, Vector& x_new,
                            Scalar& f_new, Vector& g_new, Index& evaluations);

// ValueError (naming `who`) for NaN bounds, bounds of different lengths or lower_j > upper_j.
void validate(const Box& box, const char* who);
// ShapeError (naming `who`) when a non-empty bound does not have p entries.
void check_dimension(const Box& box, Index p, const char* who);

struct ProjectedGradientOptions {
  StopOptions stop = {.max_iterations = 1000, .gradient_tolerance = 1e-8};
  Box box = {};
  std::optional<StepSchedule> schedule = std::nullopt;  // fixed steps α_t; unset: backtracking
  Scalar step = 1;                                      // first trial α of the backtracking, > 0
  Scalar c1 = 1e-4;                                     // in (0, 1)
  Index max_backtracks = 50;                            // ≥ 1
};

class ProjectedGradient {
 public:
  // Throws ValueError for invalid options or a box with lower_j > upper_j or NaN bounds.
  explicit ProjectedGradient(ProjectedGradientOptions options = {});
  explicit ProjectedGradient(DefaultOptions) : ProjectedGradient() {}  // Note [Constructing from options]
  // ShapeError if the box's non-empty bounds do not have the objective's dimension. x0 is
  // projected into the box first.
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const ProjectedGradientOptions& options() const { return options_; }

 private:
  ProjectedGradientOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const ProjectedGradientOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
