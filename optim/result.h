// Result, Status and the stopping rules shared by every iterative method of optim/.
//
// Note [Stopping rules]
// Each method checks, after iteration t has moved x_{t−1} → x_t with values f_{t−1} → f_t:
//   GradientTolerance  ‖∇f(x_t)‖₂ ≤ gradient_tolerance
//   ValueTolerance     |f_t − f_{t−1}| ≤ value_tolerance · max(|f_{t−1}|, tiny)   (relative loss change,
//                      notes 000 §4.7: |(L^(k+1) − L^(k)) / L^(k)| ≤ τ)
//   StepTolerance      max_j |x_t,j − x_{t−1},j| / max(|x_{t−1},j|, |x_t,j|) ≤ step_tolerance (maximum
//                      relative parameter change, notes 000 §4.7; an entry that did not change
//                      counts 0). Scale-free: a parameter of 5.6e−9 (NIST's Nelson b₂) is held to
//                      the same relative precision as one of 1e4.
//   MaxIterations      t = max_iterations without any of the above
// A tolerance of 0 switches its test off. The tests run in the order listed; the first that holds
// names the status. Minibatch runs test once per epoch, on the full objective.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

enum class Status {
  GradientTolerance,  // ‖∇f(x)‖₂ ≤ gradient_tolerance: converged
  ValueTolerance,     // |f_t − f_{t−1}| ≤ value_tolerance · max(|f_{t−1}|, tiny): converged
  StepTolerance,      // max_j |Δx_j| / max(|x_prev,j|, |x_j|) ≤ step_tolerance: converged
  GapTolerance,       // a duality gap, which bounds f(x) − min f, ≤ the method's gap tolerance: converged
  MaxIterations,      // the iteration (or epoch) budget ran out: not converged
  CallbackStop,       // a callback asked to stop (early stopping, time limit, user hook)
  NumericalFailure,   // f or ∇f became NaN or infinite; x is the last finite iterate
  LineSearchFailure,  // no step along the search direction decreased f enough
  Stalled,            // no further progress possible: every trial step short enough to be
                      // trusted rounds to no decrease of f, and no convergence test holds
  Diverged,           // f rose where the method promises it falls (an undamped Gauss–Newton run)
};

// "gradient tolerance", "max iterations", …
const char* to_string(Status status);
// True for GradientTolerance, ValueTolerance, StepTolerance and GapTolerance.
bool is_converged(Status status);

// What a second-order method found about ∇²f at its final x (Newton checks it; the others leave
// NotChecked). A converged run at a point whose Hessian is not positive definite stopped at a
// stationary point that is a saddle or a plateau, not a minimum: its message says so.
enum class Curvature {
  NotChecked,
  PositiveDefinite,     // a strict local minimum (the Hessian has a Cholesky factor)
  NotPositiveDefinite,  // a saddle, a maximum or a plateau (smallest eigenvalue ≤ 0 at rounding level)
};

struct Result {
  Vector x;                  // the solution (the last iterate, or the best one when asked for)
  Scalar value = 0;          // f(x)
  Scalar gradient_norm = 0;  // ‖∇f(x)‖₂ where the method computes it, else NaN
  Index iterations = 0;      // iterations (epochs for minibatch runs) performed
  Index evaluations = 0;     // objective evaluations (value, gradient or both count as one)
  Status status = Status::MaxIterations;
  std::string message;          // a sentence saying why the run stopped
  std::vector<Scalar> history;  // f(x_0), f(x_1), …, one entry per iteration, starting at x0
  Curvature curvature = Curvature::NotChecked;
  Scalar smallest_hessian_eigenvalue = std::numeric_limits<Scalar>::quiet_NaN();  // when checked

  bool converged() const { return is_converged(status); }
};

// The stopping tests of Note [Stopping rules]. Every field must be ≥ 0 (max_iterations ≥ 1).
struct StopOptions {
  Index max_iterations = 1000;
  Scalar gradient_tolerance = 1e-6;
  Scalar value_tolerance = 0;
  Scalar step_tolerance = 0;
};

// Throws ValueError naming `owner` and the field when an option is negative or not finite.
void validate(const StopOptions& options, const char* owner);

// The tests of Note [Stopping rules] on one iteration, in order; returns true and sets `status`
// when one holds. x_prev/x are the iterates before and after the step, f_prev/f their values.
bool check_stop(const StopOptions& options, Index iteration, Scalar f_prev, Scalar f, const Vector& x_prev,
                const Vector& x, Scalar gradient_norm, Status& status);

// max_j |x_j − x_prev,j| / max(|x_prev,j|, |x_j|), over the entries that changed (0 if none did).
Scalar max_relative_change(const Vector& x_prev, const Vector& x);

// A message such as "converged: ‖∇f‖ = 3.1e-09 ≤ 1e-08 after 12 iterations".
std::string stop_message(Status status, const StopOptions& options, Index iterations, Scalar gradient_norm);

// Fills the result's solution fields and its message (`reason` when not empty, else stop_message).
void finish(Result& result, const Vector& x, Scalar value, Scalar gradient_norm, Index iterations, Status status,
            const std::string& reason, const StopOptions& options);

// True if every entry is finite.
bool all_finite(const Vector& v);

}  // namespace dagml
