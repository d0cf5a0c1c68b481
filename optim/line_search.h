// Line searches along a direction p from x: choose α > 0 and move to x + α p (notes 000 §4.4,
// Algorithm 8, with the misprinted sign corrected: w ← w + α u), where φ(α) = f(x + α p) and
// p is a descent direction, φ'(0) = ∇f(x)ᵀp < 0.
//
//   None        α = initial_step (a fixed, possibly damped, step)
//   Armijo      backtracking: α = initial_step · shrinkᵏ for the first k with
//               φ(α) ≤ φ(0) + c₁ α φ'(0)                            (sufficient decrease)
//   StrongWolfe sufficient decrease and |φ'(α)| ≤ c₂ |φ'(0)| (curvature), by bracketing and
//               zoom with safeguarded cubic interpolation (Nocedal & Wright, Algorithms 3.5–3.6);
//               the choice for L-BFGS
//   Exact       minimises φ on [0, max_step] by Brent's method (golden section + parabolic steps)
//   Grid        evaluates φ at grid_points equally spaced α in (0, max_step] and takes the smallest
//               (the notes' "sample several points across the line")
#pragma once

#include <functional>

#include "optim/objective.h"

namespace dagml {

enum class LineSearchKind { None, Armijo, StrongWolfe, Exact, Grid };

struct LineSearchOptions {
  LineSearchKind kind = LineSearchKind::Armijo;
  Scalar initial_step = 1;     // first trial α (the step for None), > 0
  Scalar c1 = 1e-4;            // sufficient-decrease constant, in (0, 1)
  Scalar c2 = 0.9;             // curvature constant, in (c1, 1)
  Scalar shrink = 0.5;         // Armijo backtracking factor, in (0, 1)
  Index max_evaluations = 50;  // ≥ 1
  Scalar max_step = 10;        // Exact and Grid search α in (0, max_step]; StrongWolfe never exceeds it
  Index grid_points = 20;      // Grid, ≥ 1
  Scalar tolerance = 1e-8;     // Exact: relative tolerance on α, > 0
};

// Throws ValueError naming `owner` and the field when an option is out of range.
void validate(const LineSearchOptions& options, const char* owner);

struct LineSearchResult {
  bool ok = false;  // a step satisfying the search's condition was found (and f is finite there)
  Scalar alpha = 0;
  Index evaluations = 0;
  // The search ended because a trial point x + αp rounded back to x (every entry equal): no
  // shorter step can change x, so the search stops there and never accepts it (ok is false).
  bool stalled = false;
};

// Searches along p from x (f = f(x), g = ∇f(x)); on success x_new = x + α p, f_new and g_new hold
// f and ∇f there. On failure x_new, f_new, g_new are unspecified. Every kind (None too: a fixed
// step that cannot move x would repeat forever) stops with `stalled` when a trial point equals x
// in floating point (then f there equals f(x), and an
// Armijo test f_new ≤ f + c₁αφ'(0) would pass once c₁αφ'(0) is below half a rounding unit of f).
LineSearchResult line_search(Objective& objective, const LineSearchOptions& options, const Vector& x, Scalar f,
                             const Vector& g, const Vector& p, Vector& x_new, Scalar& f_new, Vector& g_new);

// Brent's method: a minimiser of h on [a, b] (a < b), to relative tolerance `tolerance`, using at
// most max_evaluations evaluations of h. Used for exact line and coordinate minimisation.
Scalar brent_minimize(const std::function<Scalar(Scalar)>& h, Scalar a, Scalar b, Scalar tolerance = 1e-8,
                      Index max_evaluations = 100);

// Golden-section search: a minimiser of a unimodal h on [a, b] to absolute tolerance `tolerance`.
Scalar golden_section_minimize(const std::function<Scalar(Scalar)>& h, Scalar a, Scalar b, Scalar tolerance = 1e-8);

}  // namespace dagml
