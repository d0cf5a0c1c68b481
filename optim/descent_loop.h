// The line-search descent loop shared by Newton, Newton-CG, L-BFGS and LineSearchDescent
// (notes 000 Algorithm 8): at x_t with g_t = ∇f(x_t),
//   find a direction p_t (the method's rule; a descent direction, gᵀp < 0, except for pure
//   Newton steps, line_search.kind = None);
//   find α_t along p_t (optim/line_search.h) and move x_{t+1} = x_t + α_t p_t;
//   run the callbacks and the stopping tests of Note [Stopping rules] (IterationLoop,
//   optim/iteration_loop.h, keeps the books).
// A failed line search ends the run with LineSearchFailure (NumericalFailure for kind None,
// where only a non-finite f or ∇f can fail), unless the method's on_failure asks for a retry.
#pragma once

#include <functional>

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"

namespace dagml {

struct DescentMethod {
  const char* name = "descent";
  // Writes the search direction at x (g = ∇f(x)) to p; may add to `evaluations` (HVPs).
  std::function<void(const Vector& x, const Vector& g, Vector& p, Index& evaluations)> direction = {};
  // Called after each accepted step with the previous and the new iterate and gradient.
  std::function<void(const Vector& x_prev, const Vector& g_prev, const Vector& x, const Vector& g)> accepted = {};
  // Called when the line search fails; returning true retries the iteration (L-BFGS drops its memory).
  std::function<bool()> on_failure = {};
};

// Runs the loop from x0 (already checked by the caller).
Result descent_loop(Objective& objective, const Vector& x0, const StopOptions& stop,
                    const LineSearchOptions& line_search_options, const DescentMethod& method,
                    const CallbackList& callbacks);

}  // namespace dagml
